#! /usr/bin/env atf-sh
# fuzzers/build.sh run as the OSS-Fuzz / ClusterFuzzLite base builder runs
# it (tests/ci/oss-build.sh: $SRC/tracelint, $SRC/build.sh, $WORK, $OUT and
# the libFuzzer + ASan compiler variables), then every target over its seed
# zip. The AFL++, UBSan and coverage variants run in `make check-heavy`.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# Sets $root and $out to a `tests/ci/oss-build.sh libfuzzer-address` run of
# the current sources (fuzzers/build.sh as the base builder runs it, every
# target over its seeds). The CI tests that read it share one run under the
# build directory, redone when what it reads changes; Kyua may run them at
# once: one builds, the others wait for it.
oss_build() {
	b=$BUILDDIR/ci-oss-libfuzzer-address
	root=$b/root
	out=$root/out
	key=$(cd "$SRCDIR" && find GNUmakefile fuzzers validators specs corpus .clusterfuzzlite \
		tests/ci/oss-build.sh -type f ! -name '*.1' ! -name 'README*' |
		LC_ALL=C sort | xargs sha1sum | sha1sum | cut -c1-40)
	exec 9> "$b.lock"
	flock 9
	if [ "$(cat "$b/sources" 2>/dev/null)" != "$key" ]; then
		rm -rf "$b" && mkdir -p "$root"
		sh "$SRCDIR/tests/ci/oss-build.sh" libfuzzer-address "$SRCDIR" "$root" > "$b/log" 2> "$b/err" ||
			{ tail -n 30 "$b/err"; atf_fail "oss-build.sh libfuzzer-address failed"; }
		echo "$key" > "$b/sources"
	fi
	exec 9>&-
}

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
