#! /usr/bin/env atf-sh
# Hostile environments: whatever cannot be read is exit 2 with the reason,
# never a verdict, never a hang. FIFOs, devices, symbolic link loops,
# unreadable members (as an unprivileged user), a missing --pair, the
# standard input spool limit, ulimit -f, a full TMPDIR, tfile padding, and
# --max-errors with warnings.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
UMT="$SRCDIR/corpus/umtrace/valid/xml-no-pid"
DCFG="$SRCDIR/corpus/dcfg/valid/hello.dcfg.json"
TRACE="$SRCDIR/corpus/dcfg-trace/valid/hello_paired.trace.json"
XRAY="$SRCDIR/corpus/xray/valid/gen-basic-v1-le.xray"

# A writable copy of a valid UMTracer trace directory.
umt_copy() {
	cp -R "$UMT" "$1" && chmod -R u+w "$1"
}

atf_test_case fifo_path
fifo_path_head() { atf_set descr "a FIFO with no writer is refused at once, as a PATH, a member and --pair"; }
fifo_path_body() {
	mkfifo p
	atf_check -s exit:2 -o match:'FIFO' timeout 20 "$TL" p
	atf_check -s exit:2 -o match:'FIFO' timeout 20 "$TL" -f dcfg p
	umt_copy t
	rm t/ins.itable && mkfifo t/ins.itable
	atf_check -s exit:2 -o match:'ins.itable.*FIFO' timeout 20 "$TL" t
	atf_check -s exit:2 -o match:'--pair=p.*FIFO' timeout 20 "$TL" --pair=p "$TRACE"
}

atf_test_case devices
devices_head() { atf_set descr "a device, as a PATH or a member symlinked to /dev/zero, is refused"; }
devices_body() {
	atf_check -s exit:2 -o match:'character device' timeout 20 "$TL" /dev/zero
	umt_copy t
	rm t/module.itable && ln -s /dev/zero t/module.itable
	atf_check -s exit:2 -o match:'module.itable.*character device' timeout 20 "$TL" t
	atf_check -s exit:2 -o match:'character device' timeout 20 "$TL" --pair=/dev/zero "$TRACE"
}

atf_test_case symlink_loops
symlink_loops_head() { atf_set descr "a symbolic link loop, as a PATH or a member, is exit 2 with the OS reason"; }
symlink_loops_body() {
	ln -s loop loop
	atf_check -s exit:2 -o match:'Too many levels of symbolic links' "$TL" loop
	umt_copy t
	rm t/thread.itable && ln -s thread.itable t/thread.itable
	atf_check -s exit:2 -o match:'Too many levels of symbolic links' "$TL" t
}

atf_test_case member_is_directory
member_is_directory_head() { atf_set descr "a member that is a directory is unreadable, not invalid"; }
member_is_directory_body() {
	umt_copy t
	rm t/address_space.itable && mkdir t/address_space.itable
	atf_check -s exit:2 -o match:'address_space.itable.*directory' "$TL" t
}

atf_test_case member_path_too_long
member_path_too_long_head() { atf_set descr "a member whose path is too long to open is unreadable, not absent"; }
member_path_too_long_body() {
	umt_copy t
	long=$(python3 -c 'print("./" * 2040 + "t")')
	atf_check -s exit:2 -o match:'path too long' "$TL" -f umtrace "$long"
}

atf_test_case pair_is_a_directory
pair_is_a_directory_head() { atf_set descr "--pair naming a directory is exit 2"; }
pair_is_a_directory_body() {
	mkdir d
	atf_check -s exit:2 -o match:'--pair=d: is a directory' "$TL" --pair=d "$TRACE"
}

atf_test_case missing_member_is_a_verdict
missing_member_is_a_verdict_head() { atf_set descr "an absent member is a property of the trace: invalid (exit 1)"; }
missing_member_is_a_verdict_body() {
	umt_copy t
	rm t/thread.itable
	atf_check -s exit:1 -o match:'UMT-FILE-MISSING' "$TL" t
}

atf_test_case unreadable_member
unreadable_member_head() {
	atf_set descr "a member with mode 000, read by an unprivileged user, is exit 2 (Permission denied)"
	atf_set require.user root
	atf_set require.progs setpriv
}
unreadable_member_body() {
	# The test's work directory may not be reachable by nobody: use one that is.
	d=$(mktemp -d /tmp/tracelint-fault-XXXXXX)
	chmod 755 "$d"
	umt_copy "$d/t"
	chmod -R a+rX "$d/t"
	chmod 000 "$d/t/ins.itable"
	# The built tracelint must be reachable by nobody too.
	if ! setpriv --reuid=nobody --regid=nogroup --clear-groups "$TL" --version >/dev/null 2>&1; then
		rm -rf "$d"
		atf_skip "$TL cannot be run as nobody (a parent directory is not searchable)"
	fi
	# stderr ignored: a --coverage build cannot write its counters as nobody.
	atf_check -s exit:2 -o match:'ins.itable.*Permission denied' -e ignore \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$TL" "$d/t"
	chmod 000 "$d/t"
	atf_check -s exit:2 -o match:'Permission denied' -e ignore \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$TL" -f umtrace "$d/t"
	rm -rf "$d"
}

atf_test_case missing_pair
missing_pair_head() { atf_set descr "a missing --pair file is exit 2 with the OS reason, like --instr-map"; }
missing_pair_body() {
	atf_check -s exit:2 -o match:'--pair=nonexistent.json.*No such file' "$TL" --pair=nonexistent.json "$TRACE"
	atf_check -s exit:2 -o match:'--instr-map=nonexistent.*No such file' "$TL" --instr-map=nonexistent "$XRAY"
	# The pair itself still works.
	atf_check -s exit:0 -o ignore "$TL" --pair="$DCFG" "$TRACE"
}

atf_test_case stdin_pipe_and_limit
stdin_pipe_and_limit_head() { atf_set descr "standard input from a pipe is read; past --stdin-limit it is exit 2"; }
stdin_pipe_and_limit_body() {
	atf_check -s exit:0 -o match:'valid' -x "cat '$DCFG' | '$TL' -f dcfg -"
	atf_check -s exit:2 -o match:'expected at most 1048576 bytes \(--stdin-limit\)' \
		-x "head -c 3000000 /dev/zero | '$TL' -f xray --stdin-limit=1M -"
	atf_check -s exit:0 -o ignore -x "cat '$DCFG' | '$TL' -f dcfg --stdin-limit=64K -"
	atf_check -s exit:2 -e match:'--stdin-limit needs a size' "$TL" --stdin-limit=lots -
}

atf_test_case stdin_file_size_limit
stdin_file_size_limit_head() { atf_set descr "ulimit -f smaller than standard input: exit 2, not SIGXFSZ"; }
stdin_file_size_limit_body() {
	atf_check -s exit:2 -o match:'ulimit -f' \
		-x "head -c 3000000 /dev/zero | (ulimit -f 1024; '$TL' -f xray -)"
}

atf_test_case decompressed_file_size_limit
decompressed_file_size_limit_head() { atf_set descr "ulimit -f smaller than a file's decompressed data: exit 2, not SIGXFSZ"; }
decompressed_file_size_limit_body() {
	python3 -c 'print("{\"a\": [" + "0," * 300000 + "0]}")' > big.json
	for z in gzip bzip2 zstd; do
		$z -c big.json > big.json.$z
		atf_check -s exit:2 -o match:"decompressed data exceed 512000 bytes \\(the file size limit, ulimit -f\\)" \
			-x "ulimit -f 500; '$TL' big.json.$z"
	done
}

atf_test_case full_tmpdir
full_tmpdir_head() {
	atf_set descr "a TMPDIR too small for standard input: a clear message, exit 2"
	atf_set require.user root
}
full_tmpdir_body() {
	mkdir small
	if ! mount -t tmpfs -o size=1m tmpfs small 2>/dev/null; then
		atf_skip "cannot mount a tmpfs here (no mount privilege in this container)"
	fi
	atf_check -s exit:2 -o match:'No space left on device.*TMPDIR' \
		-x "head -c 3000000 /dev/zero | TMPDIR='$PWD/small' '$TL' -f xray -"
	atf_check -s exit:2 -o match:'No such file or directory.*set TMPDIR' \
		-x "cat '$DCFG' | TMPDIR='$PWD/missing' '$TL' -f dcfg -"
	umount small
}
full_tmpdir_cleanup() {
	umount small 2>/dev/null || true
}

atf_test_case tfile_padding
tfile_padding_head() {
	atf_set descr "a tfile padded to 4 GiB with zeros (sparse) runs in constant memory"
	atf_set require.progs /usr/bin/time
}
tfile_padding_body() {
	cp "$SRCDIR/corpus/tfile/valid/gdb-locals.tf" pad.tf
	truncate -s 4G pad.tf
	atf_check -s exit:0 -o match:'valid' -e save:stats \
		timeout 120 /usr/bin/time -f 'maxrss_kb=%M' "$TL" pad.tf
	rss=$(sed -n 's/^maxrss_kb=//p' stats)
	# Sanitizer builds start near 30 MB; 4 GiB of padding once took 4.2 GB.
	[ "$rss" -lt 262144 ] || atf_fail "peak RSS ${rss} KB for 4 GiB of padding"
	# Written (not sparse) zeros: memory stays bounded too.
	cp "$SRCDIR/corpus/tfile/valid/gdb-locals.tf" dense.tf
	head -c 100000000 /dev/zero >> dense.tf
	printf 'x' >> dense.tf
	atf_check -s exit:1 -o match:'TFILE-END-TRAILING' -e save:stats \
		timeout 120 /usr/bin/time -f 'maxrss_kb=%M' "$TL" dense.tf
	rss=$(sed -n 's/^maxrss_kb=//p' stats)
	[ "$rss" -lt 262144 ] || atf_fail "peak RSS ${rss} KB for 100 MB of written zeros"
}

atf_test_case max_errors_warnings
max_errors_warnings_head() { atf_set descr "--max-errors also caps warnings, and says so (TL-MAX-ERRORS, truncated)"; }
max_errors_warnings_body() {
	c="$SRCDIR/corpus/umtrace/invalid/context-mem-32bit"
	atf_check -s exit:1 -o save:out "$TL" --max-errors=2 "$c"
	atf_check -s exit:0 -o inline:'2\n' grep -c ': warning: ' out
	atf_check -s exit:0 -o match:'TL-MAX-ERRORS' -o match:'warnings stopped' cat out
	atf_check -s exit:1 -o save:out.json "$TL" --max-errors=2 -o json "$c"
	atf_check -s exit:0 -o inline:'true\n' jq '.files[0].truncated' out.json
	# Under the limit nothing is said.
	atf_check -s exit:1 -o save:all "$TL" "$c"
	atf_check -s exit:1 grep 'TL-MAX-ERRORS' all
}

atf_init_test_cases() {
	atf_add_test_case fifo_path
	atf_add_test_case devices
	atf_add_test_case symlink_loops
	atf_add_test_case member_is_directory
	atf_add_test_case member_path_too_long
	atf_add_test_case pair_is_a_directory
	atf_add_test_case missing_member_is_a_verdict
	atf_add_test_case unreadable_member
	atf_add_test_case missing_pair
	atf_add_test_case stdin_pipe_and_limit
	atf_add_test_case stdin_file_size_limit
	atf_add_test_case decompressed_file_size_limit
	atf_add_test_case full_tmpdir
	atf_add_test_case tfile_padding
	atf_add_test_case max_errors_warnings
}
