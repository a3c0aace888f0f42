/* The byte cursor and checked arithmetic: every read is bounds-checked. */
#include <atf-c.h>

#include "cursor.h"

static const uint8_t bytes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09 };

ATF_TC_WITHOUT_HEAD(reads_both_byte_orders);
ATF_TC_BODY(reads_both_byte_orders, tc)
{
	struct tl_cursor c;
	uint16_t v16;
	uint32_t v32;
	tl_cursor_init(&c, bytes, sizeof bytes, 100);
	ATF_REQUIRE(tl_cursor_u16(&c, false, &v16));
	ATF_CHECK_EQ(v16, 0x0201);
	ATF_REQUIRE(tl_cursor_u16(&c, true, &v16));
	ATF_CHECK_EQ(v16, 0x0304);
	ATF_REQUIRE(tl_cursor_u32(&c, true, &v32));
	ATF_CHECK_EQ(v32, 0x05060708u);
	ATF_CHECK_EQ(tl_cursor_offset(&c), 108u);
	ATF_CHECK_EQ(tl_cursor_left(&c), 1u);
}

ATF_TC_WITHOUT_HEAD(refuses_reads_past_the_end);
ATF_TC_BODY(refuses_reads_past_the_end, tc)
{
	struct tl_cursor c, sub;
	uint64_t v64;
	uint32_t v32;
	const uint8_t *p;
	tl_cursor_init(&c, bytes, 3, 0);
	ATF_CHECK(!tl_cursor_u32(&c, false, &v32));
	ATF_CHECK(!tl_cursor_u64(&c, false, &v64));
	ATF_CHECK(!tl_cursor_bytes(&c, 4, &p));
	ATF_CHECK(!tl_cursor_skip(&c, SIZE_MAX));
	ATF_CHECK(!tl_cursor_sub(&c, 4, &sub));
	/* A failed read leaves the cursor where it was. */
	ATF_CHECK_EQ(tl_cursor_left(&c), 3u);
	ATF_CHECK_EQ(tl_cursor_offset(&c), 0u);
	ATF_REQUIRE(tl_cursor_sub(&c, 2, &sub));
	ATF_CHECK_EQ(tl_cursor_left(&sub), 2u);
	ATF_CHECK(!tl_cursor_u32(&sub, false, &v32));
	ATF_CHECK_EQ(tl_cursor_left(&c), 1u);
}

ATF_TC_WITHOUT_HEAD(odd_widths_and_sign_extension);
ATF_TC_BODY(odd_widths_and_sign_extension, tc)
{
	struct tl_cursor c;
	uint64_t v;
	tl_cursor_init(&c, bytes, sizeof bytes, 0);
	ATF_REQUIRE(tl_cursor_uint(&c, 3, false, &v));
	ATF_CHECK_EQ(v, 0x030201u);
	ATF_CHECK(!tl_cursor_uint(&c, 9, false, &v));
	ATF_CHECK(!tl_cursor_uint(&c, 0, false, &v));
	ATF_CHECK_EQ(tl_sign_extend(0xffff, 16), -1);
	ATF_CHECK_EQ(tl_sign_extend(0x8000, 16), -32768);
	ATF_CHECK_EQ(tl_sign_extend(0x7fff, 16), 32767);
	ATF_CHECK_EQ(tl_sign_extend(UINT64_MAX, 64), -1);
	ATF_CHECK_EQ(tl_sign_extend(0x8000000000000000ull, 64), INT64_MIN);
}

ATF_TC_WITHOUT_HEAD(checked_arithmetic);
ATF_TC_BODY(checked_arithmetic, tc)
{
	uint64_t u;
	int64_t i;
	ATF_CHECK(tl_add_u64(1, 2, &u) && u == 3);
	ATF_CHECK(!tl_add_u64(UINT64_MAX, 1, &u));
	ATF_CHECK(!tl_mul_u64(UINT64_MAX / 2, 3, &u));
	ATF_CHECK(!tl_add_i64(INT64_MAX, 1, &i));
	ATF_CHECK(!tl_mul_i64(INT64_MIN, -1, &i));
	ATF_CHECK(tl_mul_i64(-4, 5, &i) && i == -20);
}

/* Random access: every width in both byte orders equals the byte-by-byte
 * value; ranges partly or wholly outside, or overflowing, are refused. */
ATF_TC_WITHOUT_HEAD(random_access_reads);
ATF_TC_BODY(random_access_reads, tc)
{
	uint8_t d[16];
	for (unsigned i = 0; i < sizeof d; i++)
		d[i] = (uint8_t)(0x11 * (i + 1));
	for (size_t off = 0; off < sizeof d; off++) {
		for (size_t w = 1; w <= 8; w++) {
			for (int big = 0; big < 2; big++) {
				uint64_t v = 0, want = 0;
				bool inside = off + w <= sizeof d;
				ATF_CHECK_EQ(tl_read_uint_at(d, sizeof d, off, w, big, &v), inside);
				if (!inside)
					continue;
				for (size_t i = 0; i < w; i++)
					want = (want << 8) | d[off + (big ? i : w - 1 - i)];
				ATF_CHECK_MSG(v == want, "off %zu width %zu big %d: %llx, want %llx", off, w, big,
					      (unsigned long long)v, (unsigned long long)want);
			}
		}
	}
	uint64_t v;
	ATF_CHECK(!tl_read_uint_at(d, sizeof d, 0, 9, false, &v));
	ATF_CHECK(!tl_read_uint_at(d, sizeof d, 0, 0, false, &v));
	ATF_CHECK(!tl_read_uint_at(NULL, 0, 0, 1, false, &v));
	ATF_CHECK(!tl_read_uint_at(d, sizeof d, UINT64_MAX, 1, false, &v));

	struct tl_cursor c;
	ATF_REQUIRE(tl_cursor_at(&c, d, sizeof d, 4, 8));
	ATF_CHECK_EQ(tl_cursor_offset(&c), 4);
	ATF_CHECK_EQ(tl_cursor_left(&c), 8);
	uint32_t u;
	ATF_REQUIRE(tl_cursor_u32(&c, false, &u));
	ATF_CHECK_EQ(u, 0x88776655u);
	ATF_CHECK(tl_cursor_at(&c, d, sizeof d, 16, 0));
	ATF_CHECK(!tl_cursor_at(&c, d, sizeof d, 12, 5));
	ATF_CHECK(!tl_cursor_at(&c, d, sizeof d, 17, 0));
	ATF_CHECK(!tl_cursor_at(&c, d, sizeof d, 8, UINT64_MAX));
	ATF_CHECK(!tl_cursor_at(&c, d, sizeof d, UINT64_MAX, 2));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, random_access_reads);
	ATF_TP_ADD_TC(tp, reads_both_byte_orders);
	ATF_TP_ADD_TC(tp, refuses_reads_past_the_end);
	ATF_TP_ADD_TC(tp, odd_widths_and_sign_extension);
	ATF_TP_ADD_TC(tp, checked_arithmetic);
	return atf_no_error();
}
