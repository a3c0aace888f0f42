/* Address-space limits (ulimit -v): a member or file that cannot be mapped
 * is unreadable (TL_E_IO, the OS reason), never a verdict. Run in a child
 * whose RLIMIT_AS is its current size plus a margin, so the test holds under
 * sanitizers, whose shadow memory no fixed `ulimit -v` could allow. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracelint.h"

#define MARGIN ((rlim_t)256 << 20)
#define BIG ((off_t)4 << 30)

static rlim_t address_space_now(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (rlim_t)kb << 10;
}

/* Validates path in a child limited to its current address space plus
 * MARGIN; the child's exit code is the status, 100 + errno-like on setup. */
static void expect_unreadable(const char *path)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = address_space_now() + MARGIN;
		if (rl.rlim_cur == MARGIN || setrlimit(RLIMIT_AS, &rl) != 0)
			_exit(100);
		struct tl_options opts;
		struct tl_result result;
		char err[512] = "";
		tl_options_init(&opts);
		enum tl_status s = tl_validate_path(path, &opts, &result, err, sizeof err);
		if (s != TL_E_IO)
			_exit(10 + (int)s);
		if (!strstr(err, "Cannot allocate memory"))
			_exit(20);
		_exit(0);
	}
	int status;
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	ATF_REQUIRE_MSG(WIFEXITED(status), "child ended by signal %d", WTERMSIG(status));
	ATF_CHECK_MSG(WEXITSTATUS(status) == 0,
		      "child exit %d (10+status: not TL_E_IO; 20: no OS reason; 100: setup)",
		      WEXITSTATUS(status));
}

ATF_TC_WITHOUT_HEAD(file_too_large_to_map);
ATF_TC_BODY(file_too_large_to_map, tc)
{
	FILE *f = fopen("big.xray", "wb");
	ATF_REQUIRE(f != NULL);
	fclose(f);
	ATF_REQUIRE(truncate("big.xray", BIG) == 0);
	expect_unreadable("big.xray");
}

ATF_TC_WITHOUT_HEAD(member_too_large_to_map);
ATF_TC_BODY(member_too_large_to_map, tc)
{
	ATF_REQUIRE(system("cp -R '" TL_SOURCE_DIR "/corpus/umtrace/valid/xml-no-pid' t && "
			   "chmod -R u+w t") == 0);
	ATF_REQUIRE(truncate("t/exec.vtable", BIG) == 0);
	expect_unreadable("t");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, file_too_large_to_map);
	ATF_TP_ADD_TC(tp, member_too_large_to_map);
	return 0;
}
