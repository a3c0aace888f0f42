/* Parallel bzip2 (bzip2_par.h): a file of many blocks and several streams
 * decodes to the same bytes on 2 and 4 threads as on one, and every
 * damaged variant (a flipped byte anywhere, a cut, trailing bytes, a bomb)
 * gives the same bytes or the same message as the sequential decoder.
 * Files the structure check turns away (a trailing partial header, a cut
 * inside the last CRC, a span too long for a block, magics denser than
 * blocks can be, a false magic whose stream CRC was made to match) are
 * left to the sequential decoder; more blocks than threads, and more
 * threads than the most, decode the same; no piece grows past the limit
 * even when the limit is below a block's buffer. */
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
	/* The parallel decoder did take it, and no piece outgrew the limit
	 * (pieces reach emit in steps, so the first steps are taken). */
	struct collected c = { 0 };
	ATF_CHECK_EQ(tl_bzip2_parallel(packed, len, 4, 1048576, at_most_a_mib, &c), TL_BZIP2_PAR_STOPPED);
	ATF_CHECK(c.len <= 1048576);
	free(c.data);
	free(msg);
	free(zeros);
	free(packed);
}

/* Bytes that do not compress (every stream a block of its own size). */
static uint8_t *noise(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n);
	ATF_REQUIRE(p != NULL);
	uint32_t x = seed * 2654435761u | 1;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)(x >> 24);
	}
	return p;
}

/* count streams of `each` bytes of noise back to back, and their plain bytes. */
static struct file many_streams(size_t count, size_t each, uint32_t seed)
{
	struct file f;
	f.plain_len = count * each;
	f.plain = malloc(f.plain_len);
	size_t cap = count * (each + each / 50 + 600);
	f.packed = malloc(cap);
	ATF_REQUIRE(f.plain != NULL && f.packed != NULL);
	f.packed_len = 0;
	for (size_t i = 0; i < count; i++) {
		uint8_t *p = noise(each, seed + (uint32_t)i);
		memcpy(f.plain + i * each, p, each);
		f.packed_len += bzip2_into(f.packed + f.packed_len, cap - f.packed_len, p, each, 1);
		free(p);
	}
	return f;
}

/* The bytes one decoding gives equal the plain bytes. */
static void check_decodes_to(const struct file *f, unsigned threads)
{
	size_t n;
	char *got = outcome(f->packed, f->packed_len, threads, &n);
	ATF_CHECK_MSG(n == f->plain_len && memcmp(got, f->plain, n) == 0, "%zu bytes, %zu expected: %.200s", n,
		      f->plain_len, got);
	free(got);
}

/* tl_bzip2_parallel on the bytes gives want, and with a file its plain
 * bytes (else none); returns the emit calls. */
static size_t parallel(const uint8_t *packed, size_t len, unsigned threads, enum tl_bzip2_par want,
		       const struct file *f)
{
	struct collected c = { 0 };
	ATF_CHECK_EQ(tl_bzip2_parallel(packed, len, threads, UINT64_MAX, collect, &c), want);
	if (f)
		ATF_CHECK(c.len == f->plain_len && memcmp(c.data, f->plain, c.len) == 0);
	else
		ATF_CHECK_EQ(c.len, 0);
	free(c.data);
	return c.calls;
}

static void free_file(struct file *f)
{
	free(f->plain);
	free(f->packed);
}

ATF_TC_WITHOUT_HEAD(more_blocks_and_threads_than_the_most);
ATF_TC_BODY(more_blocks_and_threads_than_the_most, tc)
{
	/* 70 blocks of about 2 KB: more than 64 magics and pieces. */
	struct file f = many_streams(70, 2000, 1);
	ATF_CHECK_EQ(parallel(f.packed, f.packed_len, 1000, TL_BZIP2_PAR_DONE, &f), 70);
	/* Fewer pieces than threads: one thread a piece. */
	struct file two = many_streams(2, 2000, 1);
	ATF_CHECK_EQ(parallel(two.packed, two.packed_len, 8, TL_BZIP2_PAR_DONE, &two), 2);
	free_file(&two);
	free_file(&f);
}

ATF_TC_WITHOUT_HEAD(magics_denser_than_blocks);
ATF_TC_BODY(magics_denser_than_blocks, tc)
{
	/* 40 streams of 20 bytes: two magics each in about 2 KB, more than one
	 * a kilobyte past the first 16. */
	struct file f = many_streams(40, 20, 1);
	parallel(f.packed, f.packed_len, 4, TL_BZIP2_PAR_SEQUENTIAL, NULL);
	check_decodes_to(&f, 4);
	free_file(&f);
}

/* The limit below the buffer a block is decoded into: no piece is grown past
 * limit + 1 bytes before emit refuses it. */
struct limited {
	struct collected c;
	size_t limit, biggest;
};

static bool within_limit(void *ctx, const void *data, size_t n)
{
	struct limited *l = ctx;
	if (n > l->biggest)
		l->biggest = n;
	return l->c.len + n <= l->limit && collect(&l->c, data, n);
}

ATF_TC_WITHOUT_HEAD(limit_below_a_block_buffer);
ATF_TC_BODY(limit_below_a_block_buffer, tc)
{
	struct file f = two_streams();
	struct limited l = { .limit = 1000 };
	ATF_CHECK_EQ(tl_bzip2_parallel(f.packed, f.packed_len, 4, l.limit, within_limit, &l), TL_BZIP2_PAR_STOPPED);
	ATF_CHECK_EQ(l.c.len, 0);
	ATF_CHECK_EQ(l.biggest, l.limit + 1); /* a piece is cut at limit + 1 bytes */
	free(l.c.data);
	free_file(&f);
}

/* A copy of packed with extra bytes after it. */
static uint8_t *with_tail(const struct file *f, const void *tail, size_t n)
{
	uint8_t *b = malloc(f->packed_len + n);
	ATF_REQUIRE(b != NULL);
	memcpy(b, f->packed, f->packed_len);
	memcpy(b + f->packed_len, tail, n);
	return b;
}

ATF_TC_WITHOUT_HEAD(partial_headers_after_the_last_stream);
ATF_TC_BODY(partial_headers_after_the_last_stream, tc)
{
	struct file f = many_streams(3, 3000, 1);
	/* Too short for a header, a level of 0 and past 9, a header with no block. */
	static const char *const tails[] = { "BZ", "BZh0", "BZhA", "BZh9" };
	for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
		size_t n = strlen(tails[i]);
		uint8_t *b = with_tail(&f, tails[i], n);
		parallel(b, f.packed_len + n, 4, TL_BZIP2_PAR_SEQUENTIAL, NULL);
		check_same(b, f.packed_len + n, tails[i]);
		free(b);
	}
	free_file(&f);
}

/* The stream's last byte holds CRC bits that are all zero: cut off, the
 * structure still reads (missing bits read as zeros) but ends past the file. */
ATF_TC_WITHOUT_HEAD(cut_inside_a_zero_crc_byte);
ATF_TC_BODY(cut_inside_a_zero_crc_byte, tc)
{
	struct file f = { 0 };
	for (uint32_t seed = 1; seed < 20000; seed++) {
		free_file(&f);
		f = many_streams(2, 100, seed * 2);
		if (f.packed[f.packed_len - 1] == 0)
			break;
	}
	ATF_REQUIRE_EQ(f.packed[f.packed_len - 1], 0);
	check_decodes_to(&f, 4);
	parallel(f.packed, f.packed_len - 1, 4, TL_BZIP2_PAR_SEQUENTIAL, NULL);
	check_same(f.packed, f.packed_len - 1, "cut in the last CRC");
	free_file(&f);
}

/* A block whose data was padded past 8 MB, far more than a block takes
 * (about 1 MB compressed): its span is refused before libbz2 sees it. */
ATF_TC_WITHOUT_HEAD(span_too_long_for_a_block);
ATF_TC_BODY(span_too_long_for_a_block, tc)
{
	struct file f = many_streams(2, 3000, 1);
	size_t pad = (8u << 20) + 4096, at = 64;
	uint8_t *b = calloc(f.packed_len + pad, 1);
	ATF_REQUIRE(b != NULL);
	memcpy(b, f.packed, at);
	memcpy(b + at + pad, f.packed + at, f.packed_len - at);
	parallel(b, f.packed_len + pad, 4, TL_BZIP2_PAR_SEQUENTIAL, NULL);
	check_same(b, f.packed_len + pad, "padded block");
	free(b);
	free_file(&f);
}

static uint64_t get_bits(const uint8_t *d, uint64_t bit, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++, bit++)
		v = v << 1 | ((d[bit >> 3] >> (7 - (bit & 7))) & 1u);
	return v;
}

static void put_bits(uint8_t *d, uint64_t bit, uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0; bit++) {
		uint8_t m = (uint8_t)(0x80u >> (bit & 7));
		d[bit >> 3] = (uint8_t)((v >> i & 1u) ? d[bit >> 3] | m : d[bit >> 3] & ~m);
	}
}

/* A block magic written into a block's data, and the stream CRC rewritten
 * to match the two blocks the structure check then sees: the structure
 * holds, but the first piece (a block cut short) is no block to libbz2,
 * so the file is left to the sequential decoder. */
ATF_TC_WITHOUT_HEAD(false_magic_with_a_matching_crc);
ATF_TC_BODY(false_magic_with_a_matching_crc, tc)
{
	struct file f = many_streams(1, 20000, 7);
	uint8_t *b = f.packed;
	size_t len = f.packed_len;
	/* The end-of-stream magic: the last 80 bits but up to 7 of padding. */
	uint64_t end = 0;
	for (unsigned pad = 0; pad < 8 && !end; pad++)
		if (get_bits(b, (uint64_t)len * 8 - 80 - pad, 48) == UINT64_C(0x177245385090))
			end = (uint64_t)len * 8 - 80 - pad;
	ATF_REQUIRE(end != 0);
	size_t at = len / 2;
	static const uint8_t magic[6] = { 0x31, 0x41, 0x59, 0x26, 0x53, 0x59 };
	memcpy(b + at, magic, sizeof magic);
	uint32_t first = (uint32_t)get_bits(b, 80, 32), second = (uint32_t)get_bits(b, (uint64_t)at * 8 + 48, 32);
	put_bits(b, end + 48, (uint32_t)(first << 1 | first >> 31) ^ second, 32);
	parallel(b, len, 4, TL_BZIP2_PAR_SEQUENTIAL, NULL);
	check_same(b, len, "false magic");
	free_file(&f);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, blocks_decode_in_parallel_to_the_same_bytes);
	ATF_TP_ADD_TC(tp, damaged_files_give_the_sequential_outcome);
	ATF_TP_ADD_TC(tp, bombs_stop_at_the_same_limit);
	ATF_TP_ADD_TC(tp, more_blocks_and_threads_than_the_most);
	ATF_TP_ADD_TC(tp, magics_denser_than_blocks);
	ATF_TP_ADD_TC(tp, limit_below_a_block_buffer);
	ATF_TP_ADD_TC(tp, partial_headers_after_the_last_stream);
	ATF_TP_ADD_TC(tp, cut_inside_a_zero_crc_byte);
	ATF_TP_ADD_TC(tp, span_too_long_for_a_block);
	ATF_TP_ADD_TC(tp, false_magic_with_a_matching_crc);
	return atf_no_error();
}
