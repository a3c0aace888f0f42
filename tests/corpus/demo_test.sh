#! /usr/bin/env atf-sh
# `make demo` is the first command a newcomer types: the script behind it must
# give every corpus case the verdict the corpus expects, as this build does.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case demo
demo_head() { atf_set "descr" "corpus/demo.sh agrees with the corpus on every case and exits 0"; }
demo_body() {
	sh "$SRCDIR/corpus/demo.sh" "$BUILDDIR/tracelint" > demo.out 2>&1
	rc=$?
	tail -n 1 demo.out
	[ $rc = 0 ] || { grep -E ' error +- +- ' demo.out; atf_fail "demo.sh exited $rc"; }
	total=$(sed -n 's/^\([0-9]*\) files; \([0-9]*\) verdicts as the corpus expects$/\1/p' demo.out)
	agree=$(sed -n 's/^\([0-9]*\) files; \([0-9]*\) verdicts as the corpus expects$/\2/p' demo.out)
	[ -n "$total" ] || atf_fail "no closing count line"
	# every case of the corpus is a row: as many as the corpus test walks
	cases=0
	. "$SRCDIR/corpus/cases.sh"
	for p in "$SRCDIR"/corpus/*/valid/* "$SRCDIR"/corpus/*/invalid/* "$SRCDIR"/corpus/*/regressions/*; do
		is_case "$p" && cases=$((cases + 1))
	done
	[ "$total" = "$cases" ] || atf_fail "demo.sh showed $total cases, the corpus has $cases"
	[ "$agree" = "$total" ] || atf_fail "$agree of $total verdicts as expected"
	# a case that could not be validated, unless its sidecar says it must not be
	if grep -E '^[a-z-]+ +[a-z]+ +[^ ]+ +error +[^ ]+ +[^ ]+ +(valid|invalid)$' demo.out; then
		atf_fail "a case could not be validated"
	fi
}

atf_test_case demo_catches_a_wrong_verdict
demo_catches_a_wrong_verdict_head() { atf_set "descr" "demo.sh exits non-zero when a verdict differs from the corpus"; }
demo_catches_a_wrong_verdict_body() {
	mkdir -p corpus/xray/valid
	cp "$SRCDIR/corpus/demo.sh" "$SRCDIR/corpus/cases.sh" corpus/
	# an invalid trace filed as valid
	cp "$SRCDIR/corpus/xray/invalid/header-version.xray" corpus/xray/valid/
	atf_check -s exit:1 -o match:"1 files; 0 verdicts as the corpus expects" sh corpus/demo.sh "$BUILDDIR/tracelint"
}

atf_init_test_cases() {
	atf_add_test_case demo
	atf_add_test_case demo_catches_a_wrong_verdict
}
