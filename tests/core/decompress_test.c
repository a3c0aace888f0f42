/* Compressed inputs (decompress.h): gzip, bzip2 and zstd files are
 * recognised by their magic and read as their decompressed bytes, also
 * through the window; concatenated gzip members and bzip2 streams are one
 * file; truncated, corrupt and trailing data and decompression bombs are
 * refused with a message naming the file. The compressed files are made
 * here with the libraries' own compressors. */
#include <atf-c.h>

#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"
#include "input.h"
#include "window.h"

/* Text that compresses well but is not constant, so offsets are checkable. */
static uint8_t *sample(size_t n)
{
	uint8_t *p = malloc(n);
	ATF_REQUIRE(p != NULL);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)("{\"ID\": 12345, \"NAME\": \"block\"},\n"[i % 32] ^ (i / 4096 % 2));
	return p;
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(data, 1, n, f), n);
	fclose(f);
}

static size_t gzip_into(uint8_t *out, size_t cap, const uint8_t *in, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	ATF_REQUIRE_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	ATF_REQUIRE_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

static size_t bzip2_into(uint8_t *out, size_t cap, const uint8_t *in, size_t n)
{
	unsigned len = (unsigned)cap;
	ATF_REQUIRE_EQ(BZ2_bzBuffToBuffCompress((char *)out, &len, (char *)(uintptr_t)in, (unsigned)n, 9, 0, 0), BZ_OK);
	return len;
}

/* With a content checksum, as the zstd tool writes by default. */
static size_t zstd_into(uint8_t *out, size_t cap, const uint8_t *in, size_t n)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ATF_REQUIRE(c != NULL);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	size_t len = ZSTD_compress2(c, out, cap, in, n);
	ZSTD_freeCCtx(c);
	ATF_REQUIRE(!ZSTD_isError(len));
	return len;
}

typedef size_t (*compressor)(uint8_t *, size_t, const uint8_t *, size_t);

/* Compresses n sample bytes with c into path; returns the compressed size. */
static size_t make_compressed(const char *path, compressor c, size_t n, uint8_t **plain_out)
{
	uint8_t *plain = sample(n);
	size_t cap = n + n / 2 + 1024;
	uint8_t *packed = malloc(cap);
	ATF_REQUIRE(packed != NULL);
	size_t len = c(packed, cap, plain, n);
	write_file(path, packed, len);
	free(packed);
	*plain_out = plain;
	return len;
}

static void check_reads_back(const char *path, compressor c, enum tl_compression kind)
{
	const size_t n = 3u << 20; /* several window steps */
	uint8_t *plain;
	make_compressed(path, c, n, &plain);
	struct tl_input in;
	char err[512];
	ATF_REQUIRE_MSG(tl_input_open(&in, path, err, sizeof err), "%s", err);
	ATF_CHECK_EQ(in.compression, (uint8_t)kind);
	ATF_REQUIRE_EQ(in.size, n);
	ATF_CHECK(memcmp(in.data, plain, n) == 0);
	/* The window reads the decompressed copy too. */
	struct tl_window w;
	tl_window_open(&w, &in, 0);
	size_t got;
	const uint8_t *p = tl_window_at(&w, n - 100, 100, &got);
	ATF_REQUIRE(got >= 100u);
	ATF_CHECK(memcmp(p, plain + n - 100, 100) == 0);
	tl_window_close(&w);
	tl_input_close(&in);
	free(plain);
}

ATF_TC_WITHOUT_HEAD(gzip_file_reads_as_its_content);
ATF_TC_BODY(gzip_file_reads_as_its_content, tc)
{
	check_reads_back("f.gz", gzip_into, TL_COMPRESSION_GZIP);
}

ATF_TC_WITHOUT_HEAD(bzip2_file_reads_as_its_content);
ATF_TC_BODY(bzip2_file_reads_as_its_content, tc)
{
	check_reads_back("f.bz2", bzip2_into, TL_COMPRESSION_BZIP2);
}

ATF_TC_WITHOUT_HEAD(zstd_file_reads_as_its_content);
ATF_TC_BODY(zstd_file_reads_as_its_content, tc)
{
	check_reads_back("f.zst", zstd_into, TL_COMPRESSION_ZSTD);
}

/* Two members (gzip) or streams (bzip2) one after the other are one file. */
static void check_concatenated(compressor c)
{
	uint8_t *a = sample(5000), packed[2][8192];
	size_t la = c(packed[0], sizeof packed[0], a, 5000);
	size_t lb = c(packed[1], sizeof packed[1], a, 3000);
	FILE *f = fopen("cat.bin", "wb");
	ATF_REQUIRE(f != NULL);
	fwrite(packed[0], 1, la, f);
	fwrite(packed[1], 1, lb, f);
	fclose(f);
	struct tl_input in;
	char err[512];
	ATF_REQUIRE_MSG(tl_input_open(&in, "cat.bin", err, sizeof err), "%s", err);
	ATF_REQUIRE_EQ(in.size, 8000u);
	ATF_CHECK(memcmp(in.data, a, 5000) == 0 && memcmp(in.data + 5000, a, 3000) == 0);
	tl_input_close(&in);
	free(a);
}

ATF_TC_WITHOUT_HEAD(concatenated_members_are_one_file);
ATF_TC_BODY(concatenated_members_are_one_file, tc)
{
	check_concatenated(gzip_into);
	check_concatenated(bzip2_into);
	check_concatenated(zstd_into);
}

/* Cuts the compressed file short, or flips a byte inside it, and expects a
 * refusal whose message names the file and the problem. */
static void check_refused(compressor c, size_t keep_from_end, long flip_at, const char *want)
{
	uint8_t *plain = sample(200000), *packed = malloc(300000);
	ATF_REQUIRE(packed != NULL);
	size_t len = c(packed, 300000, plain, 200000);
	if (flip_at >= 0)
		packed[flip_at] ^= 0x5a;
	write_file("bad.bin", packed, len - keep_from_end);
	struct tl_input in;
	char err[512] = "";
	ATF_CHECK(!tl_input_open(&in, "bad.bin", err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "bad.bin") != NULL, "message without the file name: %s", err);
	ATF_CHECK_MSG(strstr(err, want) != NULL, "wanted '%s' in: %s", want, err);
	free(plain);
	free(packed);
}

ATF_TC_WITHOUT_HEAD(truncated_data_are_refused);
ATF_TC_BODY(truncated_data_are_refused, tc)
{
	check_refused(gzip_into, 40, -1, "gzip data end early");
	check_refused(bzip2_into, 40, -1, "bzip2 data end early");
	check_refused(zstd_into, 40, -1, "zstd data end early");
}

ATF_TC_WITHOUT_HEAD(corrupt_data_are_refused);
ATF_TC_BODY(corrupt_data_are_refused, tc)
{
	check_refused(gzip_into, 0, 20, "corrupt gzip data");
	check_refused(bzip2_into, 0, 40, "corrupt bzip2 data");
	check_refused(zstd_into, 0, 30, "corrupt zstd data");
}

ATF_TC_WITHOUT_HEAD(trailing_bytes_are_refused);
ATF_TC_BODY(trailing_bytes_are_refused, tc)
{
	uint8_t *plain = sample(1000), packed[4096];
	size_t len = gzip_into(packed, sizeof packed - 8, plain, 1000);
	memcpy(packed + len, "garbage!", 8);
	write_file("trail.gz", packed, len + 8);
	struct tl_input in;
	char err[512] = "";
	ATF_CHECK(!tl_input_open(&in, "trail.gz", err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "8 bytes after the end of the gzip data") != NULL, "%s", err);
	free(plain);
}

/* 64 MiB of zeros compress to a few KiB with zstd: with the floor of the
 * limit lowered to 1 MiB for the test, decompression stops at 2000 times the
 * file (or the floor) instead of filling the disk. */
ATF_TC_WITHOUT_HEAD(bomb_is_stopped);
ATF_TC_BODY(bomb_is_stopped, tc)
{
	const size_t n = 64u << 20;
	uint8_t *zeros = calloc(n, 1), *packed = malloc(1 << 20);
	ATF_REQUIRE(zeros != NULL && packed != NULL);
	size_t len = zstd_into(packed, 1 << 20, zeros, n);
	write_file("bomb.zst", packed, len);
	setenv("TRACELINT_DECOMPRESS_FLOOR", "1048576", 1);
	struct tl_input in;
	char err[512] = "";
	ATF_CHECK(!tl_input_open(&in, "bomb.zst", err, sizeof err));
	char want[128];
	unsigned long long limit = 2000ull * len > (1u << 20) ? 2000ull * len : (1u << 20);
	snprintf(want, sizeof want, "decompressed data exceed %llu bytes", limit);
	ATF_CHECK_MSG(strstr(err, want) != NULL, "wanted '%s' in: %s", want, err);
	/* The default floor (1 GiB) lets the same file through. */
	unsetenv("TRACELINT_DECOMPRESS_FLOOR");
	ATF_REQUIRE_MSG(tl_input_open(&in, "bomb.zst", err, sizeof err), "%s", err);
	ATF_CHECK_EQ(in.size, n);
	tl_input_close(&in);
	free(zeros);
	free(packed);
}

/* A streamed zstd frame (content size not in the header, as `zstd --long`
 * writes from a pipe) whose window descriptor asks for 2^log bytes: made
 * with a small window, then the descriptor raised, which the data allow
 * (a window only bounds how far back matches reach). */
static size_t zstd_long_into(uint8_t *out, size_t cap, const uint8_t *in, size_t n, unsigned log)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ATF_REQUIRE(c != NULL);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 20);
	ZSTD_outBuffer ob = { out, cap, 0 };
	ZSTD_inBuffer ib = { in, n / 2, 0 };
	ATF_REQUIRE(!ZSTD_isError(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_continue)));
	ib.size = n;
	ATF_REQUIRE_EQ(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_end), 0u);
	ZSTD_freeCCtx(c);
	ATF_REQUIRE((out[4] & 0x20) == 0); /* a window descriptor follows */
	ATF_REQUIRE_EQ(10u + (out[5] >> 3), 20u);
	out[5] = (uint8_t)((log - 10) << 3);
	return ob.pos;
}

/* Windows up to 1 GiB are decoded (--long=28 was once refused as corrupt);
 * a 2 GiB window is refused with what it needs and what the limit is. */
ATF_TC_WITHOUT_HEAD(zstd_long_windows);
ATF_TC_BODY(zstd_long_windows, tc)
{
	const size_t n = 1u << 20;
	uint8_t *plain = sample(n), *packed = malloc(n);
	ATF_REQUIRE(packed != NULL);
	size_t len = zstd_long_into(packed, n, plain, n, 28);
	write_file("long28.zst", packed, len);
	struct tl_input in;
	char err[512] = "";
	ATF_REQUIRE_MSG(tl_input_open(&in, "long28.zst", err, sizeof err), "%s", err);
	ATF_REQUIRE_EQ(in.size, n);
	ATF_CHECK(memcmp(in.data, plain, n) == 0);
	tl_input_close(&in);
	len = zstd_long_into(packed, n, plain, n, 31);
	write_file("long31.zst", packed, len);
	ATF_CHECK(!tl_input_open(&in, "long31.zst", err, sizeof err));
	ATF_CHECK_MSG(strstr(err, "long31.zst: the zstd frame at byte 0 needs a window of 2048 MiB, more than the 1024 MiB") != NULL,
		      "%s", err);
	free(plain);
	free(packed);
}

/* Only the magic decides: a file named .gz that is not gzip is read as is,
 * and "BZh" without a bzip2 block after it is not bzip2. */
ATF_TC_WITHOUT_HEAD(magic_decides_not_the_name);
ATF_TC_BODY(magic_decides_not_the_name, tc)
{
	write_file("plain.gz", "BZh9 is just text", 17);
	struct tl_input in;
	char err[512];
	ATF_REQUIRE(tl_input_open(&in, "plain.gz", err, sizeof err));
	ATF_CHECK_EQ(in.compression, (uint8_t)TL_COMPRESSION_NONE);
	ATF_CHECK_EQ(in.size, 17u);
	tl_input_close(&in);
	ATF_CHECK_EQ(tl_compression_sniff((const uint8_t *)"\x1f\x8b", 2), TL_COMPRESSION_NONE);
	ATF_CHECK_EQ(tl_compression_sniff((const uint8_t *)"\x28\xb5\x2f\xfd", 4), TL_COMPRESSION_ZSTD);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, gzip_file_reads_as_its_content);
	ATF_TP_ADD_TC(tp, bzip2_file_reads_as_its_content);
	ATF_TP_ADD_TC(tp, zstd_file_reads_as_its_content);
	ATF_TP_ADD_TC(tp, concatenated_members_are_one_file);
	ATF_TP_ADD_TC(tp, truncated_data_are_refused);
	ATF_TP_ADD_TC(tp, corrupt_data_are_refused);
	ATF_TP_ADD_TC(tp, trailing_bytes_are_refused);
	ATF_TP_ADD_TC(tp, bomb_is_stopped);
	ATF_TP_ADD_TC(tp, magic_decides_not_the_name);
	ATF_TP_ADD_TC(tp, zstd_long_windows);
	return atf_no_error();
}
