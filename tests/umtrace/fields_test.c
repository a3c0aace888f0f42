/* umt_get_fields_at, the one checked read of a row's fields, against the field
 * by field reads it replaces (umt_get, umt_get_s): the same values for every
 * layout inside the row, and a failure, with nothing written, for every layout
 * that reaches past it. */
#include <atf-c.h>

#include <string.h>

#include "validators/umtrace/umt.h"

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* The slow path: each field on its own, as the checkers read them before. */
static bool one_by_one(const struct tl_cursor *row, uint64_t base, const struct umt_field *layout,
		       size_t n, uint64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int64_t s;
		if (!layout[i].sign) {
			if (!umt_get(row, base + layout[i].off, layout[i].width, &out[i]))
				return false;
		} else if (umt_get_s(row, base + layout[i].off, layout[i].width, &s)) {
			out[i] = (uint64_t)s;
		} else {
			return false;
		}
	}
	return true;
}

ATF_TC_WITHOUT_HEAD(same_as_field_reads);
ATF_TC_BODY(same_as_field_reads, tc)
{
	uint8_t bytes[96];
	unsigned inside = 0, outside = 0;
	for (int round = 0; round < 20000; round++) {
		for (size_t i = 0; i < sizeof bytes; i++)
			bytes[i] = (uint8_t)next();
		struct tl_cursor row;
		size_t len = next() % (sizeof bytes + 1);
		ATF_REQUIRE(tl_cursor_at(&row, bytes, sizeof bytes, 0, len));
		struct umt_field layout[6];
		size_t n = 1 + next() % 6;
		for (size_t i = 0; i < n; i++)
			layout[i] = (struct umt_field){ (uint16_t)(next() % 64), (uint8_t)(1 + next() % 8),
							(next() & 1) != 0 };
		uint64_t base = next() % 48, fast[6], slow[6];
		memset(fast, 0xa5, sizeof fast);
		bool ok = umt_get_fields_at(&row, base, layout, n, fast);
		ATF_REQUIRE_EQ(ok, one_by_one(&row, base, layout, n, slow));
		if (ok) {
			ATF_REQUIRE(memcmp(fast, slow, n * sizeof fast[0]) == 0);
			inside++;
		} else {
			for (size_t i = 0; i < n; i++)
				ATF_REQUIRE_EQ(fast[i], 0xa5a5a5a5a5a5a5a5u);
			outside++;
		}
	}
	/* both outcomes were exercised, many times */
	ATF_REQUIRE(inside > 1000 && outside > 1000);
}

ATF_TC_WITHOUT_HEAD(bad_layouts);
ATF_TC_BODY(bad_layouts, tc)
{
	uint8_t bytes[16] = { 0xff, 2, 3, 4, 5, 6, 7, 0x80, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct tl_cursor row;
	ATF_REQUIRE(tl_cursor_at(&row, bytes, sizeof bytes, 0, 16));
	uint64_t v[2];
	static const struct umt_field last[2] = { { 0, 8, true }, { 8, 8, false } };
	ATF_REQUIRE(umt_get_fields(&row, last, 2, v));
	ATF_REQUIRE_EQ(v[0], 0x80070605040302ffu);
	ATF_REQUIRE(umt_signed(v[0]) < 0);
	ATF_REQUIRE_EQ(v[1], 0x100f0e0d0c0b0a09u);
	static const struct umt_field past[1] = { { 9, 8, false } };
	ATF_REQUIRE(!umt_get_fields(&row, past, 1, v));
	static const struct umt_field zero[1] = { { 0, 0, false } };
	ATF_REQUIRE(!umt_get_fields(&row, zero, 1, v));
	static const struct umt_field wide[1] = { { 0, 9, false } };
	ATF_REQUIRE(!umt_get_fields(&row, wide, 1, v));
	static const struct umt_field byte[1] = { { 0, 1, true } };
	ATF_REQUIRE(umt_get_fields_at(&row, 15, byte, 1, v));
	ATF_REQUIRE_EQ(v[0], 16u);
	ATF_REQUIRE(umt_get_fields_at(&row, 0, byte, 1, v));
	ATF_REQUIRE_EQ(umt_signed(v[0]), -1); /* a signed byte is sign-extended */
	ATF_REQUIRE(!umt_get_fields_at(&row, 16, byte, 1, v));
	ATF_REQUIRE(!umt_get_fields_at(&row, UINT64_MAX, byte, 1, v));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, same_as_field_reads);
	ATF_TP_ADD_TC(tp, bad_layouts);
	return atf_no_error();
}
