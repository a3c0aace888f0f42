/* invariant.h: TL_ALWAYS/TL_NEVER give their condition's value while the
 * invariant holds, and in the sanitizer build (TL_ASSERT_INVARIANTS, which
 * `make check` compiles this test with) a broken one aborts. */
#include <atf-c.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "invariant.h"

/* Runs TL_NEVER (never_ == 1) or TL_ALWAYS over a broken invariant in a
 * child; returns the signal that ended it, or 0 when it exited normally. */
static int broken_in_child(int never_)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		volatile int x = never_;
		int taken = never_ ? TL_NEVER(x == 1) : TL_ALWAYS(x == 1);
		_exit(taken ? 3 : 4);
	}
	int status;
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

ATF_TC_WITHOUT_HEAD(holding_invariants_give_the_condition);
ATF_TC_BODY(holding_invariants_give_the_condition, tc)
{
	volatile int n = 5;
	ATF_CHECK_EQ(TL_ALWAYS(n == 5), 1);
	ATF_CHECK_EQ(TL_NEVER(n != 5), 0);
	int calls = 0;
	if (TL_ALWAYS(n > 0))
		calls++;
	if (TL_NEVER(n < 0))
		calls += 10;
	ATF_CHECK_EQ(calls, 1);
}

ATF_TC_WITHOUT_HEAD(broken_invariant_aborts);
ATF_TC_BODY(broken_invariant_aborts, tc)
{
#if defined(TL_ASSERT_INVARIANTS) && !defined(NDEBUG)
	ATF_CHECK_EQ(broken_in_child(1), SIGABRT);
	ATF_CHECK_EQ(broken_in_child(0), SIGABRT);
#else
	(void)broken_in_child;
	atf_tc_skip("built without TL_ASSERT_INVARIANTS (make check builds with it)");
#endif
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, holding_invariants_give_the_condition);
	ATF_TP_ADD_TC(tp, broken_invariant_aborts);
	return atf_no_error();
}
