#! /usr/bin/env atf-sh
# The library's objects form a layered graph: a walker feeds checkers, the
# checkers use the core, and no two objects call each other (directly or
# through others). Cycles are found with nm over the archive.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case no_cycles
no_cycles_head() { atf_set "descr" "no cycle of calls between the library's object files"; }
no_cycles_body() {
	python3 "$SRCDIR/tests/core/object_cycles.py" "$BUILDDIR/libtracelint.a" > cycles || atf_fail "object_cycles.py failed"
	if [ -s cycles ]; then
		cat cycles
		atf_fail "objects that depend on each other (one cycle per line above)"
	fi
}

atf_test_case finds_a_cycle
finds_a_cycle_head() { atf_set "descr" "the cycle finder reports two objects that call each other"; }
finds_a_cycle_body() {
	printf 'int b(void);\nint a(void) { return b(); }\n' > a.c
	printf 'int a(void);\nint b(void) { return a() + 1; }\n' > b.c
	printf 'int c(void) { return 3; }\n' > c.c
	cc -c a.c b.c c.c && ar rcs lib.a a.o b.o c.o || atf_fail "cannot build the sample archive"
	atf_check -o inline:"a.o b.o\n" python3 "$SRCDIR/tests/core/object_cycles.py" lib.a
}

atf_init_test_cases() {
	atf_add_test_case no_cycles
	atf_add_test_case finds_a_cycle
}
