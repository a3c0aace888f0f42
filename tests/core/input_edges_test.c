#define _GNU_SOURCE /* O_PATH */
/* Input edges: compression magic that is almost right (each byte of each
 * magic wrong in turn), reads at and past the end of a descriptor input,
 * and a read that fails, the first non-zero byte of sparse and all-hole
 * files and of files grown past the size they were opened with, page
 * release of a large mapping in big steps only, what decompression
 * refuses, the kinds of files that are refused, and a mapping refused when
 * no guard is left for it. */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zlib.h>

#include "decompress.h"
#include "guard.h"
#include "input.h"
#include "tracelint.h"

static const uint8_t gzip_magic[] = { 0x1f, 0x8b, 0x08 };
static const uint8_t bzip2_block[] = { 'B', 'Z', 'h', '9', 0x31, 0x41, 0x59, 0x26, 0x53, 0x59 };
static const uint8_t bzip2_end[] = { 'B', 'Z', 'h', '1', 0x17, 0x72, 0x45, 0x38, 0x50, 0x90 };
static const uint8_t zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };

/* The magic is recognised whole; any one byte changed, or one byte short, it is not. */
static void near_misses(const uint8_t *magic, size_t n, enum tl_compression kind)
{
	uint8_t b[16];
	memcpy(b, magic, n);
	ATF_CHECK_EQ(tl_compression_sniff(b, n), kind);
	ATF_CHECK_EQ(tl_compression_sniff(b, n - 1), TL_COMPRESSION_NONE);
	for (size_t i = 0; i < n; i++) {
		memcpy(b, magic, n);
		b[i] ^= 0x40;
		ATF_CHECK_MSG(tl_compression_sniff(b, n) == TL_COMPRESSION_NONE, "%s with byte %zu changed",
			      tl_compression_name(kind), i);
	}
}

ATF_TC_WITHOUT_HEAD(magic_near_misses);
ATF_TC_BODY(magic_near_misses, tc)
{
	near_misses(gzip_magic, sizeof gzip_magic, TL_COMPRESSION_GZIP);
	near_misses(bzip2_block, sizeof bzip2_block, TL_COMPRESSION_BZIP2);
	near_misses(bzip2_end, sizeof bzip2_end, TL_COMPRESSION_BZIP2);
	near_misses(zstd_magic, sizeof zstd_magic, TL_COMPRESSION_ZSTD);
	/* The block size digit is 1..9. */
	uint8_t b[10];
	memcpy(b, bzip2_block, sizeof b);
	b[3] = '0';
	ATF_CHECK_EQ(tl_compression_sniff(b, sizeof b), TL_COMPRESSION_NONE);
	b[3] = ':';
	ATF_CHECK_EQ(tl_compression_sniff(b, sizeof b), TL_COMPRESSION_NONE);
	ATF_CHECK_STREQ(tl_compression_name(TL_COMPRESSION_NONE), "none");
	ATF_CHECK_STREQ(tl_compression_name(TL_COMPRESSION_GZIP), "gzip");
	ATF_CHECK_STREQ(tl_compression_name(TL_COMPRESSION_BZIP2), "bzip2");
	ATF_CHECK_STREQ(tl_compression_name(TL_COMPRESSION_ZSTD), "zstd");
}

/* A file of `size` bytes, all holes but `data` at `at`; its descriptor. */
static int sparse_file(const char *path, off_t size, off_t at, const char *data)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(ftruncate(fd, size) == 0);
	if (data)
		ATF_REQUIRE(pwrite(fd, data, strlen(data), at) == (ssize_t)strlen(data));
	return fd;
}

/* A descriptor input that is not mapped (as a stream's is): read by pread,
 * short when the file has fewer bytes than the size says. */
ATF_TC_WITHOUT_HEAD(read_at_through_the_descriptor);
ATF_TC_BODY(read_at_through_the_descriptor, tc)
{
	int fd = sparse_file("f", 10, 0, "0123456789");
	struct tl_input in;
	memset(&in, 0, sizeof in);
	in.fd = fd;
	in.has_fd = true;
	in.size = 20; /* more than the file holds */
	char buf[32];
	ATF_CHECK_EQ(tl_input_read_at(&in, 2, buf, 4), 4);
	ATF_CHECK(memcmp(buf, "2345", 4) == 0);
	ATF_CHECK_EQ(tl_input_read_at(&in, 8, buf, 10), 2);
	ATF_CHECK_EQ(tl_input_read_at(&in, 20, buf, 1), 0);
	/* Neither mapped bytes nor a descriptor: nothing to read. */
	in.has_fd = false;
	ATF_CHECK_EQ(tl_input_read_at(&in, 0, buf, 4), 0);
	close(fd);
}

ATF_TC_WITHOUT_HEAD(first_nonzero_skips_holes);
ATF_TC_BODY(first_nonzero_skips_holes, tc)
{
	const off_t mib = 1 << 20;
	close(sparse_file("data", 8 * mib, 5 * mib + 3, "x"));
	close(sparse_file("holes", 8 * mib, 0, NULL));
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "data", err, sizeof err));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), (uint64_t)(5 * mib + 3));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 5 * mib + 4), (uint64_t)(8 * mib));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 8 * mib), (uint64_t)(8 * mib));
	tl_input_close(&in);
	ATF_REQUIRE(tl_input_open(&in, "holes", err, sizeof err));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), (uint64_t)(8 * mib));
	tl_input_close(&in);
	/* The same bytes in memory are scanned, not sought. */
	char *mem = calloc(1, 3 * mib);
	ATF_REQUIRE(mem);
	mem[2 * mib + 1] = 1;
	tl_input_from_memory(&in, mem, 3 * mib, "mem");
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), (uint64_t)(2 * mib + 1));
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 2 * mib + 2), (uint64_t)(3 * mib));
	free(mem);
}

/* Pages go back to the kernel in steps of at least 16 MiB, never past the mapping. */
ATF_TC_WITHOUT_HEAD(release_in_big_steps);
ATF_TC_BODY(release_in_big_steps, tc)
{
	const uint64_t mib = 1 << 20, step = TL_INPUT_RELEASE_STEP;
	close(sparse_file("big", (off_t)(40 * mib), 0, "y"));
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "big", err, sizeof err));
	tl_input_release(&in, step - mib); /* less than a step: nothing yet */
	ATF_CHECK_EQ(in.released, 0);
	tl_input_release(&in, step + mib);
	ATF_CHECK_EQ(in.released, step + mib);
	tl_input_release(&in, 2 * step); /* less than a step more */
	ATF_CHECK_EQ(in.released, step + mib);
	tl_input_release(&in, 1000 * mib);
	ATF_CHECK_EQ(in.released, 40 * mib);
	/* The bytes are still there: released pages read again from the file. */
	ATF_CHECK_EQ(in.data[0], 'y');
	tl_input_restart(&in);
	ATF_CHECK_EQ(in.released, 0);
	tl_input_close(&in);
	/* A memory input has no mapping to release. */
	tl_input_from_memory(&in, "abc", 3, "m");
	tl_input_release(&in, 3);
	tl_input_restart(&in);
	ATF_CHECK_EQ(in.released, 0);
}

/* gzip of n zero bytes, in a buffer the caller frees. */
static uint8_t *gzip_zeros(size_t n, size_t *out)
{
	uint8_t *zeros = calloc(1, n), *z = malloc(n / 100 + 4096);
	ATF_REQUIRE(zeros && z);
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	ATF_REQUIRE(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	zs.next_in = zeros;
	zs.avail_in = (uInt)n;
	zs.next_out = z;
	zs.avail_out = (uInt)(n / 100 + 4096);
	ATF_REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	*out = zs.total_out;
	deflateEnd(&zs);
	free(zeros);
	return z;
}

/* Decompression refuses what is not compressed, a TMPDIR it cannot write
 * to, and data that would pass ulimit -f, saying which limit; so does a stream. */
ATF_TC_WITHOUT_HEAD(decompress_refusals);
ATF_TC_BODY(decompress_refusals, tc)
{
	char err[512] = "";
	size_t n;
	uint8_t *z = gzip_zeros(1 << 20, &n);
	ATF_CHECK_EQ(tl_decompress_to_file(TL_COMPRESSION_NONE, z, n, "x", 1, err, sizeof err), -1);
	ATF_CHECK_STREQ(err, "x: not compressed");
	setenv("TMPDIR", "/nonexistent-tmpdir", 1);
	ATF_CHECK_EQ(tl_decompress_to_file(TL_COMPRESSION_GZIP, z, n, "x", 1, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "cannot create a file for the decompressed data") != NULL, "%s", err);
	/* An empty TMPDIR means /tmp. */
	setenv("TMPDIR", "", 1);
	int fd = tl_decompress_to_file(TL_COMPRESSION_GZIP, z, n, "x", 1, err, sizeof err);
	ATF_CHECK_MSG(fd >= 0, "%s", err);
	if (fd >= 0)
		close(fd);
	unsetenv("TMPDIR");
	/* ulimit -f below the decompressed size: refused before a write could fail. */
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit rl;
	ATF_REQUIRE(getrlimit(RLIMIT_FSIZE, &rl) == 0);
	struct rlimit low = { 65536, rl.rlim_max };
	ATF_REQUIRE(setrlimit(RLIMIT_FSIZE, &low) == 0);
	ATF_CHECK_EQ(tl_decompress_to_file(TL_COMPRESSION_GZIP, z, n, "x", 1, err, sizeof err), -1);
	ATF_CHECK_MSG(strstr(err, "exceed 65536 bytes (the file size limit, ulimit -f)") != NULL, "%s", err);
	/* A stream (its bytes kept in a file too) says the same limit. */
	struct tl_options o;
	struct tl_result r;
	tl_options_init(&o);
	struct tl_stream *s = tl_stream_new(TL_FORMAT_XRAY, "capped", &o, err, sizeof err);
	ATF_REQUIRE(s != NULL);
	static const uint8_t big[70000];
	ATF_CHECK_EQ(tl_stream_feed(s, big, sizeof big), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_finish(s, &r, err, sizeof err), TL_E_IO);
	ATF_CHECK_MSG(strstr(err, "ulimit -f") != NULL, "%s", err);
	ATF_REQUIRE(setrlimit(RLIMIT_FSIZE, &rl) == 0);
	free(z);
}

/* Standard input spooled with no room for a reason (no error buffer, or one
 * of length 0, left as it was): the failure is still reported by the return
 * value; devices and sockets are refused by kind. */
ATF_TC_WITHOUT_HEAD(spool_and_kinds_without_reasons);
ATF_TC_BODY(spool_and_kinds_without_reasons, tc)
{
	int fd = sparse_file("in", 100, 0, "0123456789");
	ATF_REQUIRE(dup2(fd, STDIN_FILENO) == STDIN_FILENO);
	close(fd);
	struct tl_input in;
	char err[256] = "";
	char untouched[16] = "untouched";
	/* Over the limit, with and without an error buffer. */
	ATF_CHECK(!tl_input_open_limited(&in, "-", 10, NULL, 0));
	ATF_REQUIRE(lseek(STDIN_FILENO, 0, SEEK_SET) == 0);
	ATF_CHECK(!tl_input_open_limited(&in, "-", 10, untouched, 0));
	ATF_REQUIRE(lseek(STDIN_FILENO, 0, SEEK_SET) == 0);
	ATF_CHECK(!tl_input_open_limited(&in, "-", 10, err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "expected at most 10 bytes (--stdin-limit)") != NULL, "%s", err);
	/* No place for the spool file. */
	setenv("TMPDIR", "/nonexistent-tmpdir", 1);
	ATF_REQUIRE(lseek(STDIN_FILENO, 0, SEEK_SET) == 0);
	ATF_CHECK(!tl_input_open_limited(&in, "-", 0, NULL, 0));
	ATF_CHECK(!tl_input_open_limited(&in, "-", 0, untouched, 0));
	ATF_CHECK(!tl_input_open_limited(&in, "-", 0, err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "/nonexistent-tmpdir") != NULL, "%s", err);
	/* An empty TMPDIR means /tmp; no limit (0) takes it all. */
	setenv("TMPDIR", "", 1);
	ATF_REQUIRE(lseek(STDIN_FILENO, 0, SEEK_SET) == 0);
	ATF_CHECK(tl_input_open_limited(&in, "-", 0, err, sizeof err));
	ATF_CHECK_EQ(in.size, 100);
	tl_input_close(&in);
	unsetenv("TMPDIR");
	/* A character device and a socket, with and without a reason. */
	ATF_CHECK(!tl_input_open(&in, "/dev/null", err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "a character device") != NULL, "%s", err);
	ATF_CHECK(!tl_input_open(&in, "/dev/null", NULL, 0));
	ATF_CHECK(!tl_input_open(&in, "/dev/null", untouched, 0));
	ATF_CHECK_EQ(in.error, EINVAL);
	ATF_CHECK_STREQ(untouched, "untouched");
	/* A socket cannot be opened by name (ENXIO); as a descriptor it is refused by kind. */
	int sock = socket(AF_UNIX, SOCK_STREAM, 0);
	ATF_REQUIRE(sock >= 0);
	ATF_CHECK(!tl_input_from_fd(&in, sock, "sock", err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "a socket") != NULL, "%s", err);
}

/* A descriptor input whose read fails (a directory: EISDIR) reads nothing
 * and is marked unreadable with the read's reason. */
ATF_TC_WITHOUT_HEAD(read_at_failure_is_kept);
ATF_TC_BODY(read_at_failure_is_kept, tc)
{
	ATF_REQUIRE(mkdir("dir", 0755) == 0);
	static int anchor;
	struct tl_input in;
	memset(&in, 0, sizeof in);
	in.fd = open("dir", O_RDONLY | O_DIRECTORY);
	ATF_REQUIRE(in.fd >= 0);
	in.has_fd = true;
	in.size = 10;
	in.guard = tl_guard_add(&anchor, sizeof anchor);
	ATF_REQUIRE(in.guard != 0);
	char buf[10];
	ATF_CHECK(!tl_input_changed_fast(&in));
	ATF_CHECK_EQ(tl_input_read_at(&in, 0, buf, sizeof buf), 0);
	ATF_CHECK(tl_input_changed_fast(&in));
	ATF_CHECK_STREQ(tl_input_change_reason(&in), strerror(EISDIR));
	tl_guard_remove(in.guard);
	close(in.fd);
}

/* A file that grew after it was opened: bytes past the size it had are not
 * its content, whether they are data after a hole or data right away. */
ATF_TC_WITHOUT_HEAD(first_nonzero_within_the_opened_size);
ATF_TC_BODY(first_nonzero_within_the_opened_size, tc)
{
	struct tl_input in;
	char err[256] = "";
	/* A hole, then data only past the opened size. */
	int fd = sparse_file("grown-hole", 4096, 0, NULL);
	ATF_REQUIRE_MSG(tl_input_open(&in, "grown-hole", err, sizeof err), "%s", err);
	ATF_REQUIRE(pwrite(fd, "x", 1, 2 << 20) == 1);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), 4096);
	tl_input_close(&in);
	close(fd);
	/* Written zeros (data, no hole) running past the opened size. */
	static const char zeros[8192];
	fd = sparse_file("grown-data", 0, 0, NULL);
	ATF_REQUIRE(write(fd, zeros, sizeof zeros) == (ssize_t)sizeof zeros);
	ATF_REQUIRE_MSG(tl_input_open(&in, "grown-data", err, sizeof err), "%s", err);
	ATF_REQUIRE(write(fd, zeros, sizeof zeros) == (ssize_t)sizeof zeros);
	ATF_REQUIRE(write(fd, "x", 1) == 1);
	ATF_CHECK_EQ(tl_input_first_nonzero(&in, 0), sizeof zeros);
	tl_input_close(&in);
	close(fd);
}

/* Descriptors of a block device and of a symbolic link itself (O_PATH) are
 * refused by kind, never read. */
ATF_TC_WITHOUT_HEAD(block_devices_and_links_refused);
ATF_TC_BODY(block_devices_and_links_refused, tc)
{
	struct tl_input in;
	char err[256] = "";
	ATF_REQUIRE(symlink("target", "link") == 0);
	int fd = open("link", O_PATH | O_NOFOLLOW);
	ATF_REQUIRE(fd >= 0);
	ATF_CHECK(!tl_input_from_fd(&in, fd, "link", err, sizeof err));
	ATF_CHECK_STREQ(err, "cannot read link: it is not a regular file");
	/* A node of its own when the system's loop device is absent. */
	fd = open("/dev/loop0", O_PATH);
	if (fd < 0 && mknod("blk", S_IFBLK | 0600, makedev(7, 0)) == 0)
		fd = open("blk", O_PATH);
	if (fd < 0)
		atf_tc_skip("no block device node can be opened here");
	ATF_CHECK(!tl_input_from_fd(&in, fd, "blk", err, sizeof err));
	ATF_CHECK_STREQ(err, "cannot read blk: it is a block device");
	ATF_CHECK_EQ(in.error, EINVAL);
}

/* With thousands of guarded mappings open at once (a -j run over traces of
 * many files), one more file is still mapped, and guarded. */
ATF_TC_WITHOUT_HEAD(no_guard_left);
ATF_TC_BODY(no_guard_left, tc)
{
	close(sparse_file("f", 10, 0, "0123456789"));
	static unsigned char bytes[3000];
	static unsigned handles[3000];
	for (size_t n = 0; n < sizeof bytes; n++)
		ATF_REQUIRE((handles[n] = tl_guard_add(bytes + n, 1)) != 0);
	struct tl_input in;
	char err[256] = "";
	ATF_REQUIRE_MSG(tl_input_open(&in, "f", err, sizeof err), "%s", err);
	ATF_CHECK_EQ(in.size, 10);
	ATF_CHECK(in.guard > 2048);
	tl_input_close(&in);
	for (size_t i = 0; i < sizeof bytes; i++)
		tl_guard_remove(handles[i]);
}

/* A path longer than the error buffer is cut in its middle; the reason
 * the system gave stays at the end, and short paths are whole. */
ATF_TC_WITHOUT_HEAD(long_paths_keep_the_reason);
ATF_TC_BODY(long_paths_keep_the_reason, tc)
{
	char path[5001], err[256];
	memset(path, 'l', sizeof path - 1);
	path[sizeof path - 1] = 0;
	struct tl_input in;
	ATF_REQUIRE(!tl_input_open(&in, path, err, sizeof err));
	ATF_CHECK_MSG(strlen(err) == sizeof err - 1, "%zu bytes: %s", strlen(err), err);
	ATF_CHECK_MSG(strncmp(err, "cannot open lll", 15) == 0, "%s", err);
	ATF_CHECK_MSG(strstr(err, "l...l") != NULL, "%s", err);
	const char *why = strerror(ENAMETOOLONG);
	ATF_CHECK_MSG(strlen(err) > strlen(why) && strcmp(err + strlen(err) - strlen(why), why) == 0, "%s", err);
	ATF_REQUIRE(!tl_input_open(&in, "no/such/file", err, sizeof err));
	ATF_CHECK_STREQ(err, "cannot open no/such/file: No such file or directory");
	char tiny[24]; /* too small to cut well: the start of the message, as before */
	ATF_REQUIRE(!tl_input_open(&in, path, tiny, sizeof tiny));
	ATF_CHECK_STREQ(tiny, "cannot open lllllllllll");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, long_paths_keep_the_reason);
	ATF_TP_ADD_TC(tp, magic_near_misses);
	ATF_TP_ADD_TC(tp, read_at_through_the_descriptor);
	ATF_TP_ADD_TC(tp, first_nonzero_skips_holes);
	ATF_TP_ADD_TC(tp, release_in_big_steps);
	ATF_TP_ADD_TC(tp, decompress_refusals);
	ATF_TP_ADD_TC(tp, spool_and_kinds_without_reasons);
	ATF_TP_ADD_TC(tp, read_at_failure_is_kept);
	ATF_TP_ADD_TC(tp, first_nonzero_within_the_opened_size);
	ATF_TP_ADD_TC(tp, block_devices_and_links_refused);
	ATF_TP_ADD_TC(tp, no_guard_left);
	return atf_no_error();
}
