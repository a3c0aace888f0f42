#! /usr/bin/env atf-sh
# Error-heavy inputs cost time in proportion to their defects: ten times the
# defective records must cost about ten times the CPU, not a hundred times.
# Every diagnostic is computed (--max-errors=0) and counted; -q keeps the
# output small. The bound is generous (25x for 10x the input) so that a
# loaded machine does not fail it, while quadratic work (100x) does.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# CPU seconds (user + system) of one run of tracelint with the given arguments;
# its verdict must be invalid with exactly the expected number of errors.
cpu_of() {
	errors=$1; shift
	/usr/bin/time -f 'cpu=%U %S' -o time.out "$TL" -q --max-errors=0 "$@" > verdict.out
	[ $? -eq 1 ] || atf_fail "expected exit 1 from $*: $(cat verdict.out)"
	grep -q "invalid (.*: $errors errors" verdict.out ||
		atf_fail "expected $errors errors: $(cat verdict.out)"
	awk '/^cpu=/ { sub("cpu=", ""); print $1 + $2 }' time.out
}

# Fails when 10x the defects cost more than 25x the CPU time of the small input.
check_ratio() {
	small=$1 large=$2 what=$3
	echo "$what: small ${small}s, large ${large}s"
	awk -v s="$small" -v l="$large" 'BEGIN { exit !(l <= 25 * (s < 0.05 ? 0.05 : s)) }' ||
		atf_fail "$what: 10x the defects cost ${large}s against ${small}s (more than 25x)"
}

atf_test_case xray_basic_record_types
xray_basic_record_types_head() {
	atf_set descr "XRay basic mode: N records of an unknown type cost O(N)"
	atf_set require.progs "/usr/bin/time python3"
}
xray_basic_record_types_body() {
	for n in 100000 1000000; do
		python3 "$SRCDIR/corpus/gen_error_heavy.py" xray "$n" "x$n.xray" > /dev/null || atf_fail "generator failed"
	done
	small=$(cpu_of 100000 -f xray x100000.xray)
	large=$(cpu_of 1000000 -f xray x1000000.xray)
	check_ratio "$small" "$large" xray
}

atf_test_case tfile_frame_numbers
tfile_frame_numbers_head() {
	atf_set descr "tfile: N frames with an out-of-range tracepoint number cost O(N)"
	atf_set require.progs "/usr/bin/time python3"
}
tfile_frame_numbers_body() {
	for n in 100000 1000000; do
		python3 "$SRCDIR/corpus/gen_error_heavy.py" tfile "$n" "t$n.tf" > /dev/null || atf_fail "generator failed"
	done
	small=$(cpu_of 100000 --endian=little t100000.tf)
	large=$(cpu_of 1000000 --endian=little t1000000.tf)
	check_ratio "$small" "$large" tfile
}

atf_test_case umtrace_record_flags
umtrace_record_flags_head() {
	atf_set descr "UMTracer: N instruction records with bad flags cost O(N)"
	atf_set require.progs "/usr/bin/time python3"
}
umtrace_record_flags_body() {
	[ -x "$BUILDDIR/umtgen" ] || atf_skip "umtgen not built"
	for n in 20000 200000; do
		"$BUILDDIR/umtgen" gen "u$n" -n "$n" -t 2 -s 7 -m "u$n.map" > /dev/null ||
			atf_fail "umtgen failed"
		# Clear the flags byte of every instruction record (type 0): one UMT-INS-RECORD-MODE each.
		python3 "$SRCDIR/corpus/gen_error_heavy.py" umtrace "u$n" > "u$n.errors" || atf_fail "generator failed"
	done
	small=$(cpu_of "$(cat u20000.errors)" u20000)
	large=$(cpu_of "$(cat u200000.errors)" u200000)
	check_ratio "$small" "$large" umtrace
}

atf_test_case dcfg_trace_code_duplicates
dcfg_trace_code_duplicates_head() {
	atf_set descr "DCFG-trace: N repeated codes, each pointed at in its row after the table, cost O(N)"
	atf_set require.progs "/usr/bin/time python3"
}
dcfg_trace_code_duplicates_body() {
	for n in 20000 200000; do
		python3 "$SRCDIR/corpus/gen_error_heavy.py" dcfg-trace "$n" "d$n.trace.json" > /dev/null ||
			atf_fail "generator failed"
	done
	small=$(cpu_of 20000 d20000.trace.json)
	large=$(cpu_of 200000 d200000.trace.json)
	check_ratio "$small" "$large" dcfg-trace
}

atf_test_case tfile_endian_walks_release_memory
tfile_endian_walks_release_memory_head() {
	atf_set descr "tfile: when both byte orders fit the frames, the two walks to the end keep memory flat"
	atf_set require.progs "/usr/bin/time python3"
}
tfile_endian_walks_release_memory_body() {
	# 16 million 6-byte frames (96 MB): both orders read them as frames
	python3 "$SRCDIR/corpus/gen_error_heavy.py" tfile 16000000 t.tf > /dev/null || atf_fail "generator failed"
	/usr/bin/time -f '%M' -o rss.out "$TL" -q t.tf > verdict.out
	grep -q 'invalid (tfile: 100 errors' verdict.out || atf_fail "unexpected verdict: $(cat verdict.out)"
	rss=$(tail -n 1 rss.out)
	echo "peak RSS ${rss} KB for a 96 MB file"
	# flat is about 30 MB under ASan; keeping every page read is over 100 MB
	[ "$rss" -lt 61440 ] || atf_fail "peak RSS ${rss} KB grows with the 96 MB file"
}

atf_init_test_cases() {
	atf_add_test_case tfile_endian_walks_release_memory
	atf_add_test_case umtrace_record_flags
	atf_add_test_case dcfg_trace_code_duplicates
	atf_add_test_case xray_basic_record_types
	atf_add_test_case tfile_frame_numbers
}
