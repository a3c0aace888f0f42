/* A file that shrinks while it is read: every format gives "changed while
 * being read" (TL_E_IO), never SIGBUS and never a verdict. Deterministic:
 * the input is opened (mapped) first, then cut, then validated. The guard's
 * own contract is tested too: zeros and a flag past the new end, and a
 * fault outside guarded mappings still reaches the handler installed before. */
#include <atf-c.h>

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format.h"
#include "guard.h"
#include "input.h"

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	ATF_REQUIRE(in != NULL && out != NULL);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ATF_REQUIRE_EQ(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

/* Errors and warnings only: notes such as "validating a table alone" come first. */
static void count_diag(const struct tl_diagnostic *d, void *user)
{
	if (d->severity != TL_NOTE)
		++*(int *)user;
}

/* Validates `path` as `format` after cutting it to `keep` bytes, once it
 * is open; the same file uncut must give a verdict. When the cut is on a
 * page boundary the read past it faults, and from there nothing is
 * reported: the file is valid, so any diagnostic would be about zeros. */
static void check_shrink(const char *path, enum tl_format_id format, off_t keep)
{
	int delivered = 0;
	struct tl_options opts;
	struct tl_result result;
	struct tl_input in;
	char err[512] = "";
	tl_options_init(&opts);
	opts.format = format;
	opts.max_errors = 0;

	ATF_REQUIRE(tl_input_open(&in, path, err, sizeof err));
	ATF_REQUIRE_MSG(in.size > (size_t)keep + 8192, "%s is too small to cut", path);
	ATF_CHECK_EQ(tl_validate_input(&in, path, &opts, &result, err, sizeof err), TL_OK);
	tl_input_close(&in);

	ATF_REQUIRE(tl_input_open(&in, path, err, sizeof err));
	ATF_REQUIRE(truncate(path, keep) == 0);
	opts.on_diag = count_diag;
	opts.user = &delivered;
	enum tl_status s = tl_validate_input(&in, path, &opts, &result, err, sizeof err);
	ATF_CHECK_EQ_MSG(s, TL_E_IO, "%s: status %d, expected TL_E_IO", path, (int)s);
	ATF_CHECK_MSG(strstr(err, "changed (shrank) while being read") != NULL, "message: %s", err);
	ATF_CHECK(!result.valid);
	if (keep % 4096 == 0)
		ATF_CHECK_EQ_MSG(delivered, 0, "%d diagnostics about the zeros past the cut", delivered);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(dcfg);
ATF_TC_BODY(dcfg, tc)
{
	copy_file(TL_SOURCE_DIR "/corpus/dcfg/valid/gen_program_s12.dcfg.json", "t.json");
	check_shrink("t.json", TL_FORMAT_DCFG, 4096);
}

ATF_TC_WITHOUT_HEAD(dcfg_trace);
ATF_TC_BODY(dcfg_trace, tc)
{
	copy_file(TL_SOURCE_DIR "/corpus/dcfg-trace/valid/gen_program_s12.trace.json", "t.json");
	check_shrink("t.json", TL_FORMAT_DCFG_TRACE, 4096);
}

ATF_TC_WITHOUT_HEAD(dcfg_cut_inside_last_page);
ATF_TC_BODY(dcfg_cut_inside_last_page, tc)
{
	/* No fault at all: the bytes past the cut share a page with the kept
	 * ones and read as zeros; the size check still tells. */
	copy_file(TL_SOURCE_DIR "/corpus/dcfg/valid/gen_program_s12.dcfg.json", "t.json");
	check_shrink("t.json", TL_FORMAT_DCFG, 100000);
}

ATF_TC_WITHOUT_HEAD(tfile);
ATF_TC_BODY(tfile, tc)
{
	copy_file(TL_SOURCE_DIR "/corpus/tfile/valid/gdb-large-memory.tf", "t.tf");
	check_shrink("t.tf", TL_FORMAT_TFILE, 8192);
}

ATF_TC_WITHOUT_HEAD(umtrace_table);
ATF_TC_BODY(umtrace_table, tc)
{
	copy_file(TL_SOURCE_DIR "/corpus/umtrace/valid/xml-no-pid/context_map.itable",
		  "context_map.itable");
	check_shrink("context_map.itable", TL_FORMAT_UMTRACE, 4096);
}

ATF_TC_WITHOUT_HEAD(xray);
ATF_TC_BODY(xray, tc)
{
	/* A basic-mode log: its header, then its records repeated to 2 MiB,
	 * more than one window step, so reads after the cut come short. */
	FILE *f = fopen(TL_SOURCE_DIR "/corpus/xray/valid/gen-basic-v1-le.xray", "rb");
	ATF_REQUIRE(f != NULL);
	unsigned char seed[4096];
	size_t n = fread(seed, 1, sizeof seed, f);
	fclose(f);
	ATF_REQUIRE(n > 32 && (n - 32) % 32 == 0);
	FILE *out = fopen("t.xray", "wb");
	ATF_REQUIRE(out != NULL);
	fwrite(seed, 1, 32, out);
	for (size_t total = 0; total < (2u << 20); total += n - 32)
		fwrite(seed + 32, 1, n - 32, out);
	fclose(out);
	check_shrink("t.xray", TL_FORMAT_XRAY, 65536);
}

ATF_TC_WITHOUT_HEAD(xray_fdr);
ATF_TC_BODY(xray_fdr, tc)
{
	/* An FDR version 3 log: its first buffer (BufferExtents and the bytes
	 * it counts) repeated to about 4 MiB. */
	FILE *f = fopen(TL_SOURCE_DIR "/corpus/xray/valid/gen-fdr-v3-le.xray", "rb");
	ATF_REQUIRE(f != NULL);
	unsigned char seed[4096];
	size_t n = fread(seed, 1, sizeof seed, f);
	fclose(f);
	ATF_REQUIRE(n > 48 && seed[32] == 0x0f); /* a BufferExtents record first */
	uint64_t extents = 0;
	for (int i = 8; i >= 1; i--)
		extents = extents << 8 | seed[32 + i];
	ATF_REQUIRE(48 + extents <= n);
	FILE *out = fopen("t.xray", "wb");
	ATF_REQUIRE(out != NULL);
	fwrite(seed, 1, 32, out);
	for (size_t total = 0; total < (4u << 20); total += 16 + extents)
		fwrite(seed + 32, 1, 16 + extents, out);
	fclose(out);
	check_shrink("t.xray", TL_FORMAT_XRAY, 65536);
}

ATF_TC_WITHOUT_HEAD(member_closed_after_shrinking);
ATF_TC_BODY(member_closed_after_shrinking, tc)
{
	/* A UMTracer member cut while open: closing it makes the call unreadable. */
	ATF_REQUIRE(system("cp -R '" TL_SOURCE_DIR "/corpus/umtrace/valid/xml-no-pid' t && "
			   "chmod -R u+w t") == 0);
	struct tl_options opts;
	struct tl_result result;
	char err[512] = "", why[256] = "";
	tl_options_init(&opts);
	memset(&result, 0, sizeof result);
	struct tl_ctx ctx = { .opts = &opts, .result = &result, .path = "t", .err = err, .errlen = sizeof err };
	struct tl_input m;
	ATF_REQUIRE(tl_open_member(&ctx, "context_map.itable", &m, why, sizeof why));
	ATF_REQUIRE(m.size > 8192);
	ATF_REQUIRE(truncate("t/context_map.itable", 100) == 0);
	volatile uint8_t past = m.data[m.size - 1]; /* faults, reads zero */
	ATF_CHECK_EQ(past, 0);
	tl_close_input(&ctx, &m);
	ATF_CHECK(ctx.unreadable);
	ATF_CHECK(tl_stopped(&ctx));
	ATF_CHECK_MSG(strstr(err, "t/context_map.itable: it changed") != NULL, "message: %s", err);
}

ATF_TC_WITHOUT_HEAD(guard_reads_zeros_and_flags);
ATF_TC_BODY(guard_reads_zeros_and_flags, tc)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("g.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(ftruncate(fd, 4 * page) == 0);
	ATF_REQUIRE(pwrite(fd, "x", 1, 3 * page) == 1);
	const volatile unsigned char *m = mmap(NULL, (size_t)(4 * page), PROT_READ, MAP_PRIVATE, fd, 0);
	ATF_REQUIRE(m != MAP_FAILED);
	unsigned h = tl_guard_add((const void *)(uintptr_t)m, (size_t)(4 * page));
	ATF_REQUIRE(h != 0);
	ATF_CHECK_EQ(m[3 * page], 'x');
	ATF_CHECK(!tl_guard_tripped(h));
	ATF_REQUIRE(ftruncate(fd, page) == 0);
	ATF_CHECK_EQ(m[3 * page], 0);      /* faulted, then zeros */
	ATF_CHECK_EQ(m[2 * page + 7], 0);
	ATF_CHECK(tl_guard_tripped(h));
	tl_guard_remove(h);
	munmap((void *)(uintptr_t)m, (size_t)(4 * page));
	close(fd);
}

static sigjmp_buf host_jump;
static void host_handler(int sig)
{
	siglongjmp(host_jump, sig);
}

ATF_TC_WITHOUT_HEAD(guard_chains_to_the_host_handler);
ATF_TC_BODY(guard_chains_to_the_host_handler, tc)
{
	/* A host program's SIGBUS handler, installed before the guard, still
	 * sees faults in mappings that are not the guard's. */
	pid_t pid = fork();
	ATF_REQUIRE(pid >= 0);
	if (pid == 0) {
		signal(SIGBUS, host_handler);
		long page = sysconf(_SC_PAGESIZE);
		int fd = open("h.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, 2 * page) != 0)
			_exit(3);
		unsigned h = tl_guard_add(&fd, sizeof fd); /* installs the guard's handler */
		const volatile unsigned char *m = mmap(NULL, (size_t)(2 * page), PROT_READ,
						       MAP_PRIVATE, fd, 0);
		if (!h || m == MAP_FAILED || ftruncate(fd, 0) != 0)
			_exit(4);
		if (sigsetjmp(host_jump, 1) == 0) {
			(void)m[page];
			_exit(5); /* the fault was swallowed */
		}
		_exit(0);
	}
	int status;
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	ATF_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dcfg);
	ATF_TP_ADD_TC(tp, dcfg_trace);
	ATF_TP_ADD_TC(tp, dcfg_cut_inside_last_page);
	ATF_TP_ADD_TC(tp, tfile);
	ATF_TP_ADD_TC(tp, umtrace_table);
	ATF_TP_ADD_TC(tp, xray);
	ATF_TP_ADD_TC(tp, xray_fdr);
	ATF_TP_ADD_TC(tp, member_closed_after_shrinking);
	ATF_TP_ADD_TC(tp, guard_reads_zeros_and_flags);
	ATF_TP_ADD_TC(tp, guard_chains_to_the_host_handler);
	return 0;
}
