#! /usr/bin/env atf-sh
# fuzzers/build.sh run as the OSS-Fuzz / ClusterFuzzLite base builder runs
# it (tests/ci/oss-build.sh: $SRC/tracelint, $SRC/build.sh, $WORK, $OUT and
# the libFuzzer + ASan compiler variables), then every target over its seed
# zip. The AFL++, UBSan and coverage variants run in `make check-heavy`.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# The shared OSS-Fuzz build: oss_build sets $root and $out.
. "$SRCDIR/tests/ci/oss_build.subr"

atf_test_case libfuzzer_address
libfuzzer_address_head() {
	atf_set descr "build.sh with the base builder's libFuzzer+ASan variables: every target runs its seeds"
	atf_set require.progs "clang zip unzip flock"
	atf_set timeout 900
}
libfuzzer_address_body() {
	oss_build
	cp "$b/log" log
	# One target per fuzzers/*_fuzzer.c, plus the structure-aware variants.
	expected=$(ls "$SRCDIR"/fuzzers/*_fuzzer.c | wc -l)
	built=$(ls "$out" | grep -c -v '\.')
	[ "$built" -gt "$expected" ] || atf_fail "$built targets in \$OUT for $expected fuzzers/*_fuzzer.c"
	atf_check -o match:"libfuzzer-address: $built targets" cat log
	# Dictionaries and options as ClusterFuzz reads them.
	atf_check -o match:'^dict = xray_fuzzer.dict$' cat "$out/xray_fuzzer.options"
	atf_check test -s "$out/xray_fuzzer.dict"
	# The sources stay where coverage builds look for them, and nothing is
	# written into the checkout but what build.sh writes in $WORK.
	atf_check test -f "$root/src/tracelint/fuzzers/xray_fuzzer.c"
	atf_check -o empty find "$root/src/tracelint" -newer "$root/src/build.sh" -name '*.o'
}

atf_init_test_cases() {
	atf_add_test_case libfuzzer_address
}
