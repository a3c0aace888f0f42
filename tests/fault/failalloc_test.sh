#! /usr/bin/env atf-sh
# Out of memory at every allocation: with tests/fault/failalloc.so preloaded,
# the Nth allocation of a tracelint run fails, for every N the run makes.
# Each run must end with exit 2 and "out of memory" said, or with exactly the
# output of the run without the failure (an allocation whose failure is
# harmless); never a crash, a sanitizer report or another verdict. Runs are
# single-threaded (-j 1): AddressSanitizer's runtime aborts by itself when an
# allocation fails while it sets up a new thread.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
BIN="$BUILDDIR/tracelint"
SHIM="$BUILDDIR/tests/fault/failalloc.so"

# The shim comes before the sanitizer runtime in the preload order; sanitizer
# reports get exit statuses of their own, distinct from tracelint's 0, 1 and 2.
sweep_env() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:exitcode=97:detect_leaks=1"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=98"
	export NO_COLOR=1
}

# Same output: byte for byte, or for a JSON document the same document
# (json-c may lose a line break when memory runs out; the content is
# checked by reading it back, see validators/core/json_out.c).
same_output() {
	cmp -s "$1" "$2" && return 0
	[ "$(head -c 1 "$1")" = "{" ] || return 1
	a=$(jq -S . "$1" 2>/dev/null) && b=$(jq -S . "$2" 2>/dev/null) && [ "$a" = "$b" ]
}

# sweep ARGS...: runs tracelint ARGS once unharmed, then once per allocation
# with that allocation failing: every one of the first 300, then 300 spread
# evenly over the rest (a SARIF report makes ten thousand small allocations
# for its rule catalog, all alike).
sweep() {
	sweep_env
	cd "$SRCDIR"
	"$BIN" "$@" > "$OLDPWD/want.out" 2> "$OLDPWD/want.err"
	want_rc=$?
	TL_FAIL_ALLOC_COUNT="$OLDPWD/count" LD_PRELOAD="$SHIM" "$BIN" "$@" > "$OLDPWD/got.out" 2>/dev/null
	[ $? -eq $want_rc ] || atf_fail "the shim changes the run itself: $*"
	cmp -s "$OLDPWD/want.out" "$OLDPWD/got.out" || atf_fail "the shim changes the output: $*"
	count=$(cat "$OLDPWD/count")
	[ "$count" -gt 0 ] || atf_fail "no allocation counted: the shim is not in effect"
	n=1
	failed=0
	while [ $n -le "$count" ]; do
		TL_FAIL_ALLOC=$n LD_PRELOAD="$SHIM" "$BIN" "$@" > "$OLDPWD/got.out" 2> "$OLDPWD/got.err"
		rc=$?
		if [ $rc -eq 2 ] && grep -qi 'out of memory\|cannot allocate' "$OLDPWD/got.out" "$OLDPWD/got.err"; then
			failed=$((failed + 1))
		elif [ $rc -ne $want_rc ] || ! same_output "$OLDPWD/want.out" "$OLDPWD/got.out"; then
			echo "allocation $n of $count failing: exit $rc (unharmed: $want_rc)" >&2
			head -c 2000 "$OLDPWD/got.err" >&2
			diff "$OLDPWD/want.out" "$OLDPWD/got.out" | head -20 >&2
			cd "$OLDPWD"
			atf_fail "tracelint $* with allocation $n failing: exit $rc"
		fi
		if [ $n -lt 300 ] || [ "$count" -le 600 ]; then
			n=$((n + 1))
		else
			n=$((n + (count - 300) / 300 + 1))
		fi
	done
	cd "$OLDPWD"
	echo "$*: $count allocations, $failed runs ended 'out of memory'"
	[ "$failed" -gt 0 ] || atf_fail "no failed allocation was reported as out of memory: $*"
}

atf_test_case xray
xray_head() { atf_set descr "out of memory at every allocation of XRay runs, in every output style"; atf_set timeout 600; }
xray_body() {
	sweep corpus/xray/valid/gen-fdr-v3-le.xray
	sweep -o json corpus/xray/invalid/header-version.xray
	sweep -j 1 -o sarif corpus/xray/valid/gen-fdr-v3-le.xray corpus/xray/invalid/header-version.xray
}

atf_test_case tfile
tfile_head() { atf_set descr "out of memory at every allocation of tfile runs"; atf_set timeout 600; }
tfile_body() {
	sweep corpus/tfile/valid/block-m-addr32.tf
	sweep --color=always --context corpus/tfile/invalid/block-overrun.tf
}

atf_test_case dcfg
dcfg_head() { atf_set descr "out of memory at every allocation of DCFG and paired DCFG-trace runs"; atf_set timeout 900; }
dcfg_body() {
	sweep corpus/dcfg-trace/valid/hello_paired.trace.json --pair=corpus/dcfg/valid/hello.dcfg.json
	sweep corpus/dcfg-trace/valid/gen_program_s5.trace.json --pair=corpus/dcfg/valid/gen_program_s5.dcfg.json
	sweep corpus/dcfg/valid/hello.dcfg.json
	sweep corpus/dcfg/valid/gen_program_s12.dcfg.json
	sweep -o json corpus/dcfg/invalid/dcfg_loop.dcfg.json
}

atf_test_case umtrace
umtrace_head() { atf_set descr "out of memory at every allocation of a UMTracer directory run"; atf_set timeout 600; }
umtrace_body() {
	sweep corpus/umtrace/valid/aborted-not-last
	sweep -o sarif corpus/umtrace/invalid/after-thread-end
}

atf_test_case cli
cli_head() { atf_set descr "out of memory at every allocation of config, baseline and directory runs"; atf_set timeout 900; }
cli_body() {
	sweep_env
	cp -R "$SRCDIR/corpus/xray/invalid" tree
	printf '[tracelint]\nignore = XRAY-HEADER-VERSION\nmax-errors = 3\n[path "**/header-*"]\nwarning = XRAY-FDR-EXTENTS-EOF\n' > tree/.tracelint.ini
	w=$PWD
	"$BIN" --config tree/.tracelint.ini --write-baseline="$w/base.txt" tree/header-version.xray > /dev/null 2>&1
	sweep --config "$w/tree/.tracelint.ini" --baseline="$w/base.txt" -j 1 "$w/tree"
	sweep --list-rules -o json 'XRAY-*'
	sweep --explain -o json TFILE-HEADER-MAGIC UMT-FILE-MISSING
}

atf_init_test_cases() {
	atf_add_test_case xray
	atf_add_test_case tfile
	atf_add_test_case dcfg
	atf_add_test_case umtrace
	atf_add_test_case cli
}
