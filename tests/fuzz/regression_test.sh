#! /usr/bin/env atf-sh
# Every fuzz target, built with the regression driver (no libFuzzer), runs over
# every file of the corpus, of every format, and over its own seeds; a crash,
# a sanitizer report or a peak resident size over 256 MiB (libFuzzer's
# -rss_limit_mb=256; the sanitizer's quarantine kept small so that it is the
# inputs that are measured) fails the test case of that target.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

define_target() {
	name=$1
	eval "${name}_head() { atf_set descr 'fuzz target $name over the whole corpus'; }"
	eval "${name}_body() { run_target '$name'; }"
	atf_add_test_case "$name"
}

run_target() {
	name=$1
	bin="$BUILDDIR/fuzz/regress_$name"
	set -- "$SRCDIR/corpus"
	[ -d "$SRCDIR/fuzzers/seeds/$name" ] && set -- "$@" "$SRCDIR/fuzzers/seeds/$name"
	if ! REGRESSION_RSS_LIMIT_MB=256 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16" \
		"$bin" "$@" > out 2> err; then
		tail -40 err
		atf_fail "regress_$name failed (crash or sanitizer report above)"
	fi
	runs=$(awk '/inputs run/ {print $1}' out)
	[ "${runs:-0}" -gt 0 ] || atf_fail "regress_$name ran no input"
	echo "$runs inputs run"
}

atf_test_case driver_runs_inputs
driver_runs_inputs_head() {
	atf_set descr "at least one fuzz target is built, so the corpus is run through the fuzzers"
}
driver_runs_inputs_body() {
	ls "$BUILDDIR"/fuzz/regress_* > /dev/null 2>&1 || atf_fail "no fuzz target was built"
}

atf_init_test_cases() {
	atf_add_test_case driver_runs_inputs
	for bin in "$BUILDDIR"/fuzz/regress_*; do
		[ -x "$bin" ] || continue
		define_target "${bin##*/regress_}"
	done
}
