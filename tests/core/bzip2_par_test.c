/* Parallel bzip2 (bzip2_par.h): a file of many blocks and several streams
 * decodes to the same bytes on 2 and 4 threads as on one, and every
 * damaged variant (a flipped byte anywhere, a cut, trailing bytes, a bomb)
 * gives the same bytes or the same message as the sequential decoder. */
#include <atf-c.h>

#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bzip2_par.h"
#include "decompress.h"

/* Varied text (so blocks differ) that still compresses. */
static uint8_t *sample(size_t n, unsigned seed)
{
	uint8_t *p = malloc(n);
	ATF_REQUIRE(p != NULL);
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)("[12, 34, \"ROUTINE\", 56],\n"[i % 24] + ((x >> 28) == 0 ? (x >> 16 & 7) : 0));
	}
	return p;
}

static size_t bzip2_into(uint8_t *out, size_t cap, const uint8_t *in, size_t n, int level)
{
	unsigned len = (unsigned)cap;
	ATF_REQUIRE_EQ(BZ2_bzBuffToBuffCompress((char *)out, &len, (char *)(uintptr_t)in, (unsigned)n, level, 0, 0),
		       BZ_OK);
	return len;
}

/* Two streams of several blocks each (levels 1 and 2), back to back. */
struct file {
	uint8_t *plain, *packed;
	size_t plain_len, packed_len;
};

static struct file two_streams(void)
{
	struct file f;
	size_t a = 450000, b = 520000;
	f.plain_len = a + b;
	f.plain = malloc(f.plain_len);
	uint8_t *pa = sample(a, 1), *pb = sample(b, 2);
	ATF_REQUIRE(f.plain != NULL);
	memcpy(f.plain, pa, a);
	memcpy(f.plain + a, pb, b);
	f.packed = malloc(2 * f.plain_len);
	ATF_REQUIRE(f.packed != NULL);
	f.packed_len = bzip2_into(f.packed, 2 * f.plain_len, pa, a, 1);
	f.packed_len += bzip2_into(f.packed + f.packed_len, 2 * f.plain_len - f.packed_len, pb, b, 2);
	free(pa);
	free(pb);
	return f;
}

struct collected {
	uint8_t *data;
	size_t len, cap;
	size_t calls;
};

static bool collect(void *ctx, const void *data, size_t n)
{
	struct collected *c = ctx;
	if (c->len + n > c->cap) {
		c->cap = (c->len + n) * 2;
		c->data = realloc(c->data, c->cap);
		ATF_REQUIRE(c->data != NULL);
	}
	memcpy(c->data + c->len, data, n);
	c->len += n;
	c->calls++;
	return true;
}

ATF_TC_WITHOUT_HEAD(blocks_decode_in_parallel_to_the_same_bytes);
ATF_TC_BODY(blocks_decode_in_parallel_to_the_same_bytes, tc)
{
	struct file f = two_streams();
	for (unsigned t = 2; t <= 4; t += 2) {
		struct collected c = { 0 };
		ATF_REQUIRE_EQ(tl_bzip2_parallel(f.packed, f.packed_len, t, UINT64_MAX, collect, &c),
			       TL_BZIP2_PAR_DONE);
		ATF_CHECK_EQ(c.len, f.plain_len);
		ATF_CHECK(c.len == f.plain_len && memcmp(c.data, f.plain, c.len) == 0);
		/* one emit per block: 5 of level 1 and 6 of level 2 at least */
		ATF_CHECK_MSG(c.calls >= 8, "only %zu pieces", c.calls);
		free(c.data);
	}
	/* One thread is the sequential decoder's job. */
	struct collected c = { 0 };
	ATF_CHECK_EQ(tl_bzip2_parallel(f.packed, f.packed_len, 1, UINT64_MAX, collect, &c),
		     TL_BZIP2_PAR_SEQUENTIAL);
	ATF_CHECK_EQ(c.len, 0);
	free(f.plain);
	free(f.packed);
}

/* The decompressed bytes, or the message, of one decoding. */
static char *outcome(const uint8_t *packed, size_t len, unsigned threads, size_t *out_len)
{
	char err[512] = "";
	int fd = tl_decompress_to_file(TL_COMPRESSION_BZIP2, packed, len, "f.bz2", threads, err, sizeof err);
	if (fd < 0) {
		*out_len = strlen(err);
		return strdup(err);
	}
	off_t end = lseek(fd, 0, SEEK_END);
	ATF_REQUIRE(end >= 0);
	char *buf = malloc((size_t)end + 1);
	ATF_REQUIRE(buf != NULL);
	ATF_REQUIRE_EQ(pread(fd, buf, (size_t)end, 0), end);
	close(fd);
	*out_len = (size_t)end;
	return buf;
}

static void check_same(const uint8_t *packed, size_t len, const char *what)
{
	size_t n1, n4;
	char *one = outcome(packed, len, 1, &n1), *four = outcome(packed, len, 4, &n4);
	ATF_CHECK_MSG(n1 == n4 && memcmp(one, four, n1) == 0, "%s: 1 and 4 threads differ (%zu vs %zu bytes): %.200s | %.200s",
		      what, n1, n4, one, four);
	free(one);
	free(four);
}

ATF_TC_WITHOUT_HEAD(damaged_files_give_the_sequential_outcome);
ATF_TC_BODY(damaged_files_give_the_sequential_outcome, tc)
{
	struct file f = two_streams();
	check_same(f.packed, f.packed_len, "intact");
	uint8_t *bad = malloc(f.packed_len + 16);
	ATF_REQUIRE(bad != NULL);
	/* A flipped byte in headers, magics, CRCs and block data alike. */
	for (size_t i = 0; i < 48; i++) {
		size_t at = i < 16 ? i : (i * 7919u * 131u) % f.packed_len;
		memcpy(bad, f.packed, f.packed_len);
		bad[at] ^= (uint8_t)(1u << (i % 8));
		char what[64];
		snprintf(what, sizeof what, "bit flipped at byte %zu", at);
		check_same(bad, f.packed_len, what);
	}
	for (size_t cut = 1; cut < f.packed_len; cut += f.packed_len / 9)
		check_same(f.packed, cut, "cut short");
	memcpy(bad, f.packed, f.packed_len);
	memcpy(bad + f.packed_len, "trailing", 8);
	check_same(bad, f.packed_len + 8, "trailing bytes");
	free(bad);
	free(f.plain);
	free(f.packed);
}

/* The sink's bomb check, for a limit of 1 MiB. */
static bool at_most_a_mib(void *ctx, const void *data, size_t n)
{
	struct collected *c = ctx;
	ATF_CHECK(n <= 1048577);
	return c->len + n <= 1048576 && collect(ctx, data, n);
}

ATF_TC_WITHOUT_HEAD(bombs_stop_at_the_same_limit);
ATF_TC_BODY(bombs_stop_at_the_same_limit, tc)
{
	/* Zeros compress past 10000x: 16 MB, several blocks, against a 1 MB floor. */
	size_t n = 16u << 20;
	uint8_t *zeros = calloc(n, 1), *packed = malloc(n);
	ATF_REQUIRE(zeros != NULL && packed != NULL);
	size_t len = bzip2_into(packed, n, zeros, n, 1);
	ATF_REQUIRE_EQ(setenv("TRACELINT_DECOMPRESS_FLOOR", "1048576", 1), 0);
	size_t n1;
	char *msg = outcome(packed, len, 4, &n1);
	ATF_CHECK_MSG(strstr(msg, "exceed 1048576 bytes") != NULL, "%s", msg);
	check_same(packed, len, "bomb");
	/* The parallel decoder did take it, and no piece outgrew the limit. */
	struct collected c = { 0 };
	ATF_CHECK_EQ(tl_bzip2_parallel(packed, len, 4, 1048576, at_most_a_mib, &c), TL_BZIP2_PAR_STOPPED);
	ATF_CHECK_EQ(c.len, 0);
	free(msg);
	free(zeros);
	free(packed);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, blocks_decode_in_parallel_to_the_same_bytes);
	ATF_TP_ADD_TC(tp, damaged_files_give_the_sequential_outcome);
	ATF_TP_ADD_TC(tp, bombs_stop_at_the_same_limit);
	return atf_no_error();
}
