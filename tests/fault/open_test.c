/* Opening inputs (input.h): the reason of a failed open in in->error (ENOENT
 * tells "absent" from "unreadable"), FIFOs and devices refused without
 * blocking, messages optional, standard input spooled under its limit, and
 * tl_input_first_nonzero over memory, mapped files, sparse files and
 * compressed files. */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(data, 1, n, f), n);
	fclose(f);
}

ATF_TC_WITHOUT_HEAD(reasons_of_failed_opens);
ATF_TC_BODY(reasons_of_failed_opens, tc)
{
	struct tl_input in;
	char err[256];
	ATF_CHECK(!tl_input_open(&in, "absent", err, sizeof err));
	ATF_CHECK_EQ(in.error, ENOENT);
	ATF_CHECK(strstr(err, "No such file") != NULL);
	/* No message buffer: the same answers, nothing written. */
	ATF_CHECK(!tl_input_open(&in, "absent", NULL, 0));
	ATF_CHECK_EQ(in.error, ENOENT);
	ATF_REQUIRE(mkfifo("p", 0600) == 0);
	ATF_CHECK(!tl_input_open(&in, "p", err, sizeof err)); /* returns at once */
	ATF_CHECK_EQ(in.error, EINVAL);
	ATF_CHECK(strstr(err, "FIFO") != NULL);
	ATF_CHECK(!tl_input_open(&in, "p", NULL, 0));
	ATF_CHECK(!tl_input_open(&in, "/dev/null", err, sizeof err));
	ATF_CHECK(strstr(err, "character device") != NULL);
	ATF_REQUIRE(symlink("loop", "loop") == 0);
	ATF_CHECK(!tl_input_open(&in, "loop", err, sizeof err));
	ATF_CHECK_EQ(in.error, ELOOP);
}

/* Runs tl_input_open("-") in a child whose standard input is `path`, with
 * TMPDIR set to tmpdir (NULL: unset); the child exits 0 when the outcome
 * matches `expect_ok` and the message contains `expect`. */
static void stdin_case(const char *path, const char *tmpdir, uint64_t limit, bool expect_ok,
		       const char *expect)
{
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_RDONLY);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			exit(3);
		if (tmpdir)
			setenv("TMPDIR", tmpdir, 1);
		else
			unsetenv("TMPDIR");
		struct tl_input in;
		char err[512] = "";
		bool ok = tl_input_open_limited(&in, "-", limit, err, sizeof err);
		if (ok)
			tl_input_close(&in);
		exit(ok == expect_ok && (!expect || strstr(err, expect)) ? 0 : 4);
	}
	int status;
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s, TMPDIR=%s: status %#x",
		      path, tmpdir ? tmpdir : "(unset)", status);
}

ATF_TC_WITHOUT_HEAD(standard_input_spool);
ATF_TC_BODY(standard_input_spool, tc)
{
	char data[100000];
	memset(data, 'a', sizeof data);
	write_file("in.txt", data, sizeof data);
	stdin_case("in.txt", NULL, UINT64_MAX, true, NULL);
	stdin_case("in.txt", "", 100000, true, NULL);                 /* exactly the limit */
	stdin_case("in.txt", ".", 99999, false, "expected at most 99999 bytes (--stdin-limit)");
	stdin_case("in.txt", "./missing", 0, false, "set TMPDIR");
	/* A directory as standard input cannot be read. */
	stdin_case(".", ".", UINT64_MAX, false, "cannot read standard input");
}

ATF_TC_WITHOUT_HEAD(first_nonzero_in_memory_and_files);
ATF_TC_BODY(first_nonzero_in_memory_and_files, tc)
{
	static unsigned char buf[3 << 20];
	buf[(2 << 20) + 5] = 7;
	struct tl_input in;
	tl_input_from_memory(&in, buf, sizeof buf, "mem");
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), (uint64_t)(2 << 20) + 5);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, (2 << 20) + 6), (uint64_t)sizeof buf);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, sizeof buf), (uint64_t)sizeof buf);

	/* Sparse: data, a hole of 64 MiB, data, a hole to the end. */
	char err[256];
	int fd = open("sparse", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(pwrite(fd, "\0\0x", 3, 0) == 3);
	ATF_REQUIRE(pwrite(fd, "\0\0\0y", 4, 64 << 20) == 4);
	ATF_REQUIRE(ftruncate(fd, 128 << 20) == 0);
	close(fd);
	ATF_REQUIRE(tl_input_open(&in, "sparse", err, sizeof err));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), 2u);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 3), (uint64_t)(64 << 20) + 3);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, (64 << 20) + 4), (uint64_t)128 << 20);
	tl_input_close(&in);

	/* Compressed: the decompressed copy is scanned. */
	write_file("z.bin", buf, sizeof buf);
	ATF_REQUIRE(system("gzip -9 z.bin") == 0);
	ATF_REQUIRE(tl_input_open(&in, "z.bin.gz", err, sizeof err));
	ATF_CHECK_EQ(in.size, sizeof buf);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), (uint64_t)(2 << 20) + 5);
	tl_input_close(&in);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, reasons_of_failed_opens);
	ATF_TP_ADD_TC(tp, standard_input_spool);
	ATF_TP_ADD_TC(tp, first_nonzero_in_memory_and_files);
	return 0;
}
