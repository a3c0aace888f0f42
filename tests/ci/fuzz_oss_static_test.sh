#! /usr/bin/env atf-sh
# The targets fuzzers/build.sh builds for OSS-Fuzz start on a runner image
# that has none of the builder's packages: they link json-c, expat, zlib,
# bzip2 and zstd statically and need only what OSS-Fuzz's base-runner image
# has. Both cases read the build oss_build_test checks (one run, shared).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# The shared objects of OSS-Fuzz's base-runner image that a C target may use.
RUNNER_LIBS="linux-vdso.so.1 ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libstdc++.so.6 libgcc_s.so.1"

# The shared OSS-Fuzz build: oss_build sets $root and $out.
. "$SRCDIR/tests/ci/oss_build.subr"

# The targets in $out: executables without a dot, as ClusterFuzz finds them.
targets() {
	for t in "$out"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		case ${t##*/} in *.*) ;; *) echo "$t" ;; esac
	done
}

runner_lib() {
	case " $RUNNER_LIBS " in *" $1 "*) return 0 ;; esac
	return 1
}

atf_test_case links_only_runner_libraries
links_only_runner_libraries_head() {
	atf_set descr "ldd and the ELF NEEDED entries of every OSS-Fuzz target name only base-runner libraries"
	atf_set require.progs "clang zip unzip ldd readelf flock"
	atf_set timeout 600
}
links_only_runner_libraries_body() {
	oss_build
	targets > list
	# One target per fuzzers/*_fuzzer.c (and the structure-aware variants).
	for src in "$SRCDIR"/fuzzers/*_fuzzer.c; do
		n=$(basename "$src" .c)
		grep -q "/$n\$" list || atf_fail "fuzzers/build.sh built no $n"
	done
	while read -r t; do
		for lib in $(readelf -d "$t" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			runner_lib "$lib" || atf_fail "${t##*/} needs $lib (ELF NEEDED), which the runner image lacks"
		done
		ldd "$t" > ldd.txt || atf_fail "ldd ${t##*/} failed"
		for lib in $(awk '{print $1}' ldd.txt); do
			runner_lib "${lib##*/}" || atf_fail "ldd ${t##*/} lists ${lib}, which the runner image lacks"
		done
	done < list
	# The PR fuzzing workflow shares its budget among this many targets.
	n=$(wc -l < list)
	atf_check -o match:"over the $n targets of fuzzers/build.sh" cat "$SRCDIR/.github/workflows/cflite_pr.yml"
	echo "$n targets checked"
}

atf_test_case starts_without_format_libraries
starts_without_format_libraries_head() {
	atf_set descr "every OSS-Fuzz target runs in a root holding only the base-runner libraries"
	atf_set require.progs "clang zip unzip chroot unshare mount ldd cc flock"
	atf_set require.user root
	atf_set timeout 600
}
starts_without_format_libraries_body() {
	oss_build
	# A root with the runner image's libraries and nothing else.
	mkdir -p root/proc root/lib64 root/lib
	for lib in $RUNNER_LIBS; do
		p=$(ldconfig -p | awk -v n="$lib" '$1 == n && /x86-64/ {print $NF; exit}')
		[ -n "$p" ] && cp -L "$p" root/lib/
	done
	cp -L /lib64/ld-linux-x86-64.so.2 root/lib64/
	# The root hides the format libraries: a program that needs json-c fails there.
	printf 'const char *json_c_version(void);\nint main(void) { return json_c_version() == 0; }\n' > needs.c
	atf_check cc -o root/needs needs.c -ljson-c
	atf_check -s not-exit:0 -e match:'libjson-c' \
		unshare -m sh -c 'mount -t proc proc root/proc && chroot root /needs'
	rm root/needs
	n=0
	for t in $(targets); do
		cp "$t" root/target
		atf_check -s exit:0 -o ignore -e save:err \
			unshare -m sh -c 'mount -t proc proc root/proc && chroot root /target -runs=50'
		grep -q 'Done 50 runs' err || { cat err; atf_fail "${t##*/} did not run in the runner's root"; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || atf_fail "no target"
	echo "$n targets ran"
}

atf_init_test_cases() {
	atf_add_test_case links_only_runner_libraries
	atf_add_test_case starts_without_format_libraries
}
