#! /usr/bin/env atf-sh
# In the coverage build (`make coverage-suite` compiles with TL_COVERAGE) a
# branch marked TL_ALWAYS/TL_NEVER is no branch at all, so the ratchet does
# not count the direction no input takes; elsewhere it is the plain test.

SRCDIR='@SRCDIR@'

write_sample() {
	cat > t.c <<'EOS'
#include <stdbool.h>
#include "invariant.h"
static int f(int a)
{
	bool ok = a > 3;
	if (TL_NEVER(!ok))
		return 1;
	if (TL_ALWAYS(a != 7))
		return 2;
	return 3;
}
int main(void) { return f(5) == 2 ? 0 : 1; }
EOS
}

atf_test_case coverage_build_counts_no_branch
coverage_build_counts_no_branch_head() {
	atf_set descr "gcov finds no branch in marked conditions built with TL_COVERAGE, and four (two untaken) without it"
	atf_set require.progs "gcc gcov"
}
coverage_build_counts_no_branch_body() {
	write_sample
	# -Werror: the marked condition's variables still count as used
	atf_check gcc -std=c11 -Wall -Wextra -Werror -O0 --coverage -DTL_COVERAGE \
		-I"$SRCDIR/validators/core" t.c -o marked
	atf_check ./marked
	atf_check -o match:'^No branches$' -o not-match:'Branches executed' gcov -b -o . marked-t.gcda
	rm -f ./*.gcda ./*.gcno ./*.gcov
	atf_check gcc -std=c11 -Wall -Wextra -Werror -O0 --coverage \
		-I"$SRCDIR/validators/core" t.c -o plain
	atf_check ./plain
	atf_check -o match:'Taken at least once:50.00% of 4' gcov -b -o . plain-t.gcda
}

atf_init_test_cases() {
	atf_add_test_case coverage_build_counts_no_branch
}
