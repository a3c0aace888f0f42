#! /usr/bin/env atf-sh
# fuzzers/campaign/triage.sh end to end on a toy libFuzzer target with
# known bugs: crash inputs are grouped by stack signature, one input per
# group is minimised, and each becomes a regression case with .args,
# .expected (from the CLI) and .md (the stack), in a scratch corpus root;
# an input that does not crash there is refused.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# A toy libFuzzer target with four known bugs (an overflow, a null read, a
# leak, an endless loop) and no bug on any other input.
build_toy() {
	cat > toy_fuzzer.c <<'TOY'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static int past_end(const uint8_t *p, size_t n) { return p[n + 8]; }
static int through_null(const uint8_t *p) { const volatile int *z = NULL; return p[0] + *z; }
static void *volatile kept;
static int leaks(size_t n) { char *p = malloc(n + 1); kept = p; kept = NULL; return 0; }
static int spins(void) { volatile unsigned i = 1; while (i) i = i * 3 + 2; return 0; } /* i stays odd: never 0 */
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n >= 4 && memcmp(d, "BOOM", 4) == 0)
		return past_end(d, n);
	if (n >= 4 && memcmp(d, "NULL", 4) == 0)
		return through_null(d);
	if (n >= 4 && memcmp(d, "LEAK", 4) == 0)
		return leaks(n);
	if (n >= 4 && memcmp(d, "LOOP", 4) == 0)
		return spins();
	return (int)(kept != NULL);
}
TOY
	clang -g -O1 -fsanitize=fuzzer,address toy_fuzzer.c -o toy_fuzzer ||
		atf_fail "clang could not build a libFuzzer target"
}

# triage.sh from the source directory into the scratch corpus root root/.
triage() {
	(cd "$SRCDIR" && CORPUS_ROOT="$work/root" MINIMIZE_SECONDS=${MINIMIZE_SECONDS:-5} TIMEOUT_SECONDS=2 \
		TRACELINT="$BUILDDIR/tracelint" sh fuzzers/campaign/triage.sh xray "$work/toy_fuzzer" "$@")
}

atf_test_case groups_minimises_and_pins
groups_minimises_and_pins_head() {
	atf_set descr "two bugs, three crash inputs: two minimised regression cases with sidecars"
	atf_set require.progs "clang jq"
}
groups_minimises_and_pins_body() {
	work=$(pwd)
	build_toy
	printf 'BOOM and a long tail of bytes' > crash-1
	printf 'BOOM-other' > crash-2
	printf 'NULL then more' > crash-3
	triage "$work/crash-1" "$work/crash-2" "$work/crash-3" > "$work/out" 2>&1 ||
		{ cat "$work/out"; atf_fail "triage failed"; }
	cd "$work" || atf_fail "no work directory"
	cat out
	atf_check -o inline:"2\n" sh -c 'grep -c "^regression: " out'
	atf_check -o inline:"1\n" sh -c 'grep -c "^duplicate: " out'
	for c in root/xray/regressions/xray-*; do
		case $c in *.args|*.expected|*.md) continue ;; esac
		for ext in args expected md; do
			[ -s "$c.$ext" ] || atf_fail "$c.$ext missing"
		done
		size=$(wc -c < "$c")
		[ "$size" -eq 4 ] || atf_fail "$c not minimised: $size bytes"
		atf_check -o inline:"--format=xray\n--max-errors=0\n" cat "$c.args"
		# The sidecar is exactly what the CLI reports for the case.
		grep -v '^#' "$c.expected" > want
		"$BUILDDIR/tracelint" --format=xray --max-errors=0 -o json "$c" |
			jq -r '.files[0].diagnostics[] | "\(.offset) \(.severity) \(.rule) \(.message)"' > got
		atf_check -o file:want cat got
	done
	# Each signature names the sanitizer's report and the frame of the bug.
	atf_check -o match:'Signature: `ERROR: AddressSanitizer: heap-buffer-overflow \| past_end( |`)' \
		cat root/xray/regressions/*.md
	atf_check -o match:'Signature: `ERROR: AddressSanitizer: SEGV \| through_null( |`)' \
		cat root/xray/regressions/*.md
}

atf_test_case refuses_clean_input
refuses_clean_input_head() {
	atf_set descr "an input that runs clean under the target is refused: exit status 1, nothing written"
	atf_set require.progs "clang jq"
}
refuses_clean_input_body() {
	work=$(pwd)
	build_toy
	printf 'a valid input' > clean
	status=0
	triage "$work/clean" > out 2> err || status=$?
	atf_check_equal 1 "$status"
	atf_check -o empty cat out
	atf_check -o match:"not a crash: $work/clean" cat err
	atf_check test ! -e root
	# With a real crash beside it, the crash is pinned and the clean input still refused.
	printf 'BOOM' > crash
	status=0
	triage "$work/clean" "$work/crash" > out 2> err || status=$?
	atf_check_equal 1 "$status"
	atf_check -o match:'^regression: ' cat out
	atf_check -o match:'not a crash' cat err
	atf_check -o inline:"4\n" sh -c 'find root -type f | wc -l'
	atf_check -o not-match:clean sh -c 'cat root/xray/regressions/*.md'
}

atf_test_case leaks_and_timeouts
leaks_and_timeouts_head() {
	atf_set descr "a leak and a timeout are findings too, signed by their report and frame"
	atf_set require.progs "clang jq"
}
leaks_and_timeouts_body() {
	work=$(pwd)
	build_toy
	printf 'LEAK' > leak
	printf 'LOOP' > loop
	MINIMIZE_SECONDS=2 triage "$work/leak" "$work/loop" > out 2>&1 || { cat out; atf_fail "triage failed"; }
	atf_check -o inline:"2\n" sh -c 'grep -c "^regression: " out'
	atf_check -o match:'Signature: `ERROR: LeakSanitizer: detected memory leaks \| leaks( |`)' cat root/xray/regressions/*.md
	atf_check -o match:'Signature: `ERROR: libFuzzer: timeout \| spins( |`)' cat root/xray/regressions/*.md
}

atf_init_test_cases() {
	atf_add_test_case groups_minimises_and_pins
	atf_add_test_case refuses_clean_input
	atf_add_test_case leaks_and_timeouts
}
