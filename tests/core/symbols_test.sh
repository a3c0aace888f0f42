#! /usr/bin/env atf-sh
# The library's namespace and state, read off the archive: every global it
# defines is prefixed tl_ (so it cannot collide with a host program's JSON or
# trace code), and it keeps no writable static data, with one documented
# exception: the SIGBUS guard of mapped inputs (core/guard.c), which is
# process-wide by nature (a signal handler) and is lock-free.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
LIB="$BUILDDIR/libtracelint.a"

atf_test_case globals_are_prefixed
globals_are_prefixed_head() { atf_set "descr" "every global symbol the archive defines starts with tl_"; }
globals_are_prefixed_body() {
	# (symbols the sanitizers add, __odr_asan.* and the like, are theirs)
	nm -g --defined-only "$LIB" | awk 'NF == 3 && $3 !~ /^_+(odr_)?asan/ { print $3 }' | sort -u > globals
	[ -s globals ] || atf_fail "nm found no globals in $LIB"
	if grep -v '^tl_' globals > unprefixed; then
		cat unprefixed
		atf_fail "globals without the tl_ prefix (above)"
	fi
}

atf_test_case no_writable_static_data
no_writable_static_data_head() { atf_set "descr" "no object but core/guard.o has symbols in .data or .bss"; }
no_writable_static_data_body() {
	objdump -t "$LIB" | awk '/file format/ { obj = $1 }
		$0 ~ / \.(data|bss)[ \t]/ && $NF !~ /^\./ && $NF !~ /^_+(odr_)?asan/ { print obj " " $NF }' | sort -u > writable
	grep -v '^guard\.o: ' writable > outside_guard
	if [ -s outside_guard ]; then
		cat outside_guard
		atf_fail "writable static data (above): state belongs in the caller's objects"
	fi
}

atf_test_case finds_violations
finds_violations_head() { atf_set "descr" "the checks see an unprefixed global and a static counter"; }
finds_violations_body() {
	printf 'int counter(void) { static int n; return ++n; }\n' > bad.c
	cc -O1 -c bad.c -o bad.o && ar rcs bad.a bad.o || atf_fail "cannot build the sample"
	atf_check -o match:'^counter$' sh -c "nm -g --defined-only bad.a | awk 'NF == 3 { print \$3 }' | grep -v '^tl_'"
	atf_check -o match:'bad\.o: n\.' sh -c "objdump -t bad.a | awk '/file format/ { obj = \$1 } \$0 ~ / \\.(data|bss)[ \\t]/ && \$NF !~ /^\\./ { print obj \" \" \$NF }'"
}

atf_init_test_cases() {
	atf_add_test_case globals_are_prefixed
	atf_add_test_case no_writable_static_data
	atf_add_test_case finds_violations
}
