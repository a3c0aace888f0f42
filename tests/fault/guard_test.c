/* The guard's contract with its host process (guard.h): faults outside the
 * guarded mappings reach whatever handled SIGBUS before — a three-argument
 * handler, a one-argument handler, or the default action, which still ends
 * the process by SIGBUS — and the table of guarded ranges grows with the
 * mappings guarded at once, its read errors kept per handle. Each
 * case runs in a child: the handler is installed once per process. */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guard.h"

static sigjmp_buf host_jump;
static volatile sig_atomic_t host_saw_info;

static void host_info_handler(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	host_saw_info = info->si_code > 0;
	siglongjmp(host_jump, sig);
}

/* A mapping whose pages lie past the end of its file: touching it faults. */
static const volatile unsigned char *cut_mapping(const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 2 * page) != 0)
		exit(3);
	const volatile unsigned char *m = mmap(NULL, (size_t)(2 * page), PROT_READ, MAP_PRIVATE,
					       fd, 0);
	if (m == MAP_FAILED || ftruncate(fd, 0) != 0)
		exit(4);
	return m;
}

static int child_status(pid_t pid)
{
	int status;
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	return status;
}

/* Installs the host program's SIGBUS handler: three arguments when info is given. */
static void install_host(void (*plain)(int), void (*info)(int, siginfo_t *, void *))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (info) {
		sa.sa_sigaction = info;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = plain;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Reads m[0]: true when that faulted and the host's handler jumped back. */
static bool host_caught_fault(const volatile unsigned char *m)
{
	if (sigsetjmp(host_jump, 1) == 0) {
		(void)m[0];
		return false;
	}
	return true;
}

ATF_TC_WITHOUT_HEAD(chains_to_a_siginfo_handler);
ATF_TC_BODY(chains_to_a_siginfo_handler, tc)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		install_host(NULL, host_info_handler);
		static int anchor;
		unsigned h = tl_guard_add(&anchor, sizeof anchor);
		const volatile unsigned char *m = cut_mapping("c.bin");
		if (!h)
			exit(5);
		if (!host_caught_fault(m))
			exit(6);
		exit(host_saw_info && !tl_guard_tripped(h) ? 0 : 7);
	}
	int status = child_status(pid);
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}

static volatile sig_atomic_t host_plain_calls;

static void host_plain_handler(int sig)
{
	host_plain_calls++;
	if (host_plain_calls > 1)
		siglongjmp(host_jump, sig);
}

/* A one-argument handler gets both a sent SIGBUS and a fault outside every
 * guarded range, including ranges above the faulting address. */
ATF_TC_WITHOUT_HEAD(chains_to_a_plain_handler);
ATF_TC_BODY(chains_to_a_plain_handler, tc)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		install_host(host_plain_handler, NULL);
		static int anchor;
		unsigned low = tl_guard_add(&anchor, sizeof anchor);
		unsigned high = tl_guard_add((void *)(UINTPTR_MAX - 4096), 1);
		if (!low || !high)
			exit(5);
		raise(SIGBUS);
		if (host_plain_calls != 1)
			exit(6);
		if (!host_caught_fault(cut_mapping("p.bin")))
			exit(7);
		exit(host_plain_calls == 2 && !tl_guard_tripped(low) && !tl_guard_tripped(high) ? 0 : 8);
	}
	int status = child_status(pid);
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}

ATF_TC_WITHOUT_HEAD(default_action_still_ends_the_process);
ATF_TC_BODY(default_action_still_ends_the_process, tc)
{
	/* A fault outside the guard in a process with no SIGBUS handler (the
	 * sanitizers' own is removed first) ends it by SIGBUS, as without us. */
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		static int anchor;
		if (!tl_guard_add(&anchor, sizeof anchor))
			exit(5);
		const volatile unsigned char *m = cut_mapping("d.bin");
		(void)m[0];
		exit(6);
	}
	int status = child_status(pid);
	ATF_CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "child status %#x", status);
}

ATF_TC_WITHOUT_HEAD(sent_sigbus_is_not_swallowed);
ATF_TC_BODY(sent_sigbus_is_not_swallowed, tc)
{
	/* kill(pid, SIGBUS) is no fault: with the default action, it still kills. */
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		static int anchor;
		if (!tl_guard_add(&anchor, sizeof anchor))
			exit(5);
		raise(SIGBUS);
		exit(6);
	}
	int status = child_status(pid);
	ATF_CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "child status %#x", status);
}

/* The table grows with the mappings guarded at once (-j over traces of
 * many files): 5000 ranges at once all get distinct handles, freed slots
 * are reused, handles past the first block trip and keep errors. */
ATF_TC_WITHOUT_HEAD(table_grows);
ATF_TC_BODY(table_grows, tc)
{
	/* Ranges need not be mapped to be registered: the table only compares. */
	enum { MANY = 5000 };
	static unsigned char bytes[MANY];
	static unsigned handles[MANY];
	static unsigned char seen[MANY + 1];
	for (size_t n = 0; n < MANY; n++) {
		handles[n] = tl_guard_add(bytes + n, 1);
		ATF_REQUIRE_MSG(handles[n] != 0 && handles[n] <= MANY && !seen[handles[n]], "range %zu: handle %u", n, handles[n]);
		seen[handles[n]] = 1;
	}
	tl_guard_remove(handles[10]);
	unsigned again = tl_guard_add(bytes, 1);
	ATF_CHECK_EQ(again, handles[10]);
	handles[10] = again;
	unsigned last = handles[MANY - 1];
	ATF_CHECK(!tl_guard_tripped(last));
	tl_guard_mark(last);
	ATF_CHECK(tl_guard_tripped(last));
	tl_guard_mark_error(handles[MANY - 2], EIO);
	ATF_CHECK_EQ(tl_guard_error(handles[MANY - 2]), EIO);
	for (size_t i = 0; i < MANY; i++)
		tl_guard_remove(handles[i]);
	/* Handles outside the table are ignored, never dereferenced. */
	ATF_CHECK_EQ(tl_guard_add(NULL, 1), 0u);
	ATF_CHECK_EQ(tl_guard_add(bytes, 0), 0u);
	ATF_CHECK(!tl_guard_tripped(0));
	ATF_CHECK(!tl_guard_tripped(100000));
	tl_guard_mark(0);
	tl_guard_mark(100000);
	tl_guard_remove(0);
	tl_guard_remove(100000);
	unsigned h = tl_guard_add(bytes, 1);
	ATF_CHECK(!tl_guard_tripped(h));
	tl_guard_mark(h);
	ATF_CHECK(tl_guard_tripped(h));
	tl_guard_remove(h);
	/* A read error is kept per handle, the first one only, and trips it. */
	h = tl_guard_add(bytes, 1);
	ATF_CHECK_EQ(tl_guard_error(h), 0);
	tl_guard_mark_error(h, EIO);
	tl_guard_mark_error(h, ENOMEM);
	ATF_CHECK_EQ(tl_guard_error(h), EIO);
	ATF_CHECK(tl_guard_tripped(h));
	tl_guard_mark_error(0, EIO);
	tl_guard_mark_error(100000, EIO);
	ATF_CHECK_EQ(tl_guard_error(0), 0);
	ATF_CHECK_EQ(tl_guard_error(100000), 0);
	tl_guard_remove(h);
}

/* A fault in a mapping guarded from a later block is absorbed like one in
 * the first: the shrunk file reads as zeros and the handle trips. */
ATF_TC_WITHOUT_HEAD(later_blocks_guard);
ATF_TC_BODY(later_blocks_guard, tc)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		static unsigned char bytes[3000];
		for (size_t n = 0; n < sizeof bytes; n++)
			if (!tl_guard_add(bytes + n, 1))
				_exit(5);
		const volatile unsigned char *m = cut_mapping("cut");
		unsigned h = tl_guard_add((const void *)(uintptr_t)m, (size_t)sysconf(_SC_PAGESIZE));
		if (h <= 2048)
			_exit(6);
		if (m[0] != 0 || !tl_guard_tripped(h))
			_exit(7);
		_exit(0);
	}
	int status = child_status(pid);
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, chains_to_a_siginfo_handler);
	ATF_TP_ADD_TC(tp, chains_to_a_plain_handler);
	ATF_TP_ADD_TC(tp, default_action_still_ends_the_process);
	ATF_TP_ADD_TC(tp, sent_sigbus_is_not_swallowed);
	ATF_TP_ADD_TC(tp, table_grows);
	ATF_TP_ADD_TC(tp, later_blocks_guard);
	return 0;
}
