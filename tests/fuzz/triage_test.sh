#! /usr/bin/env atf-sh
# fuzzers/campaign/triage.sh end to end on a toy libFuzzer target with two
# known bugs: crash inputs are grouped by stack signature, one input per
# group is minimised, and each becomes a regression case with .args,
# .expected (from the CLI) and .md (the stack), in a scratch corpus root.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case groups_minimises_and_pins
groups_minimises_and_pins_head() {
	atf_set descr "two bugs, three crash inputs: two minimised regression cases with sidecars"
	atf_set require.progs "clang jq"
}
groups_minimises_and_pins_body() {
	work=$(pwd)
	cat > toy_fuzzer.c <<'TOY'
#include <stddef.h>
#include <stdint.h>
#include <string.h>
static int past_end(const uint8_t *p, size_t n) { return p[n + 8]; }
static int through_null(const uint8_t *p) { const volatile int *z = NULL; return p[0] + *z; }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n >= 4 && memcmp(d, "BOOM", 4) == 0)
		return past_end(d, n);
	if (n >= 4 && memcmp(d, "NULL", 4) == 0)
		return through_null(d);
	return 0;
}
TOY
	clang -g -O1 -fsanitize=fuzzer,address toy_fuzzer.c -o toy_fuzzer ||
		atf_fail "clang could not build a libFuzzer target"
	printf 'BOOM and a long tail of bytes' > crash-1
	printf 'BOOM-other' > crash-2
	printf 'NULL then more' > crash-3
	cd "$SRCDIR" || atf_fail "no source directory"
	CORPUS_ROOT="$work/root" MINIMIZE_SECONDS=5 TRACELINT="$BUILDDIR/tracelint" \
		sh fuzzers/campaign/triage.sh xray "$work/toy_fuzzer" \
		"$work/crash-1" "$work/crash-2" "$work/crash-3" > "$work/out" 2>&1 ||
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
			jq -r '.files[0].diagnostics[] | "\(.offset) \(.severity) \(.rule)"' > got
		atf_check -o file:want cat got
		grep -q 'Signature:' "$c.md" || atf_fail "$c.md holds no signature"
	done
}

atf_init_test_cases() {
	atf_add_test_case groups_minimises_and_pins
}
