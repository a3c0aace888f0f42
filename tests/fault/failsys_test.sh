#! /usr/bin/env atf-sh
# A failing system call at every call site: with tests/fault/failsys.so
# preloaded, the Nth call of open, fopen, fstat, mmap, pread, read, write,
# fsync, close, rename, mkstemp, ftruncate or lseek fails with EIO, for every
# N the run makes. Each run must end with exit 2 and a message that says what
# could not be read or written, or exactly as without the failure (a call
# whose failure is harmless, e.g. close of a file already read); never a
# crash, a sanitizer report or another verdict.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
BIN="$BUILDDIR/tracelint"
SHIM="$BUILDDIR/tests/fault/failsys.so"
EIO=5

sweep_env() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:exitcode=97"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=98"
	export NO_COLOR=1
}

# Same output; under --context, the excerpt lines under a diagnostic (they
# start with two spaces) are best-effort, as for standard input or a
# compressed file: a failing call there may drop them, nothing else.
same_output() {
	cmp -s "$1" "$2" && return 0
	case " $* " in *" --context "*) ;; *) return 1 ;; esac
	[ "$(grep -v '^  ' "$1")" = "$(grep -v '^  ' "$2")" ]
}

# sweep [-i INPUT] ARGS...: runs tracelint ARGS (standard input from INPUT,
# default /dev/null) once unharmed, counting the calls, then once per call
# with that call failing. Prints how many failures ended in exit 2.
sweep() {
	input=/dev/null
	if [ "$1" = -i ]; then
		input=$2
		shift 2
	fi
	sweep_env
	w=$PWD
	"$BIN" "$@" < "$input" > "$w/want.out" 2> "$w/want.err"
	want_rc=$?
	TL_FAIL_SYS_COUNT="$w/count" LD_PRELOAD="$SHIM" "$BIN" "$@" < "$input" > "$w/got.out" 2>/dev/null
	[ $? -eq $want_rc ] || atf_fail "the shim changes the run itself: $*"
	[ -s "$w/count" ] || atf_fail "no call counted: the shim is not in effect"
	refused=0
	while read -r fn count; do
		n=1
		while [ "$n" -le "$count" ]; do
			TL_FAIL_SYS=$fn:$n:$EIO LD_PRELOAD="$SHIM" "$BIN" "$@" < "$input" > "$w/got.out" 2> "$w/got.err"
			rc=$?
			if [ $rc -eq 2 ] && grep -q 'cannot\|could not\|Input/output error' "$w/got.out" "$w/got.err"; then
				refused=$((refused + 1))
			elif [ $rc -ne $want_rc ] || ! same_output "$w/want.out" "$w/got.out" "$@"; then
				echo "$fn call $n of $count failing: exit $rc (unharmed: $want_rc)" >&2
				head -c 2000 "$w/got.err" >&2
				diff "$w/want.out" "$w/got.out" | head -20 >&2
				atf_fail "tracelint $* with $fn call $n failing: exit $rc"
			fi
			n=$((n + 1))
		done
	done < "$w/count"
	echo "$*: $refused failing calls refused with exit 2"
	[ "$refused" -gt 0 ] || atf_fail "no failing call was refused: $*"
}

atf_test_case files
files_head() { atf_set descr "every failing call while reading binary traces, a DCFG pair and a trace directory"; atf_set timeout 600; }
files_body() {
	sweep "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray"
	sweep -f xray --context -o sarif "$SRCDIR/corpus/xray/invalid/header-version.xray"
	sweep --context "$SRCDIR/corpus/tfile/invalid/block-overrun.tf"
	sweep "$SRCDIR/corpus/dcfg-trace/valid/hello_paired.trace.json" --pair="$SRCDIR/corpus/dcfg/valid/hello.dcfg.json"
	sweep "$SRCDIR/corpus/umtrace/valid/aborted-not-last"
}

atf_test_case compressed
compressed_head() { atf_set descr "every failing call while decompressing a gzip trace into its temporary copy"; atf_set timeout 600; }
compressed_body() {
	gzip -c "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray" > t.xray.gz
	sweep t.xray.gz
}

atf_test_case standard_input
standard_input_head() { atf_set descr "every failing call while spooling standard input"; atf_set timeout 600; }
standard_input_body() {
	sweep -i "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray" -f xray -
}

atf_test_case baseline
baseline_head() { atf_set descr "every failing call while writing and reading a baseline and a config file"; atf_set timeout 600; }
baseline_body() {
	cp "$SRCDIR/corpus/xray/invalid/header-version.xray" a.xray
	printf '[tracelint]\nformat = xray\nmax-errors = 3\n' > .tracelint.ini
	sweep --write-baseline=base.txt a.xray
	sweep --baseline=base.txt a.xray
}

atf_test_case read_error_named
read_error_named_head() { atf_set descr "a read that fails (EIO) is named as the system's error, not as a file that shrank"; }
read_error_named_body() {
	sweep_env
	f="$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray"
	# A capacity of its own makes the XRay window pread the file (by default
	# it reads the mapping in place, where no read call can fail).
	TRACELINT_WINDOW_CAPACITY=262144 TL_FAIL_SYS=pread:1:$EIO LD_PRELOAD="$SHIM" "$BIN" "$f" > out.txt 2>&1
	rc=$?
	cat out.txt
	[ "$rc" -eq 2 ] || atf_fail "exit $rc, expected 2 (unreadable)"
	grep -q "cannot read .*gen-fdr-v3-le.xray: Input/output error" out.txt || atf_fail "the system error is not named"
	grep -q shrank out.txt && atf_fail "a read error called a file that shrank"
	return 0
}

atf_init_test_cases() {
	atf_add_test_case read_error_named
	atf_add_test_case files
	atf_add_test_case compressed
	atf_add_test_case standard_input
	atf_add_test_case baseline
}
