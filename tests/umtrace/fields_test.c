/* umt_get_fields_at, the one checked read of a row's fields, against the field
 * by field reads it replaces (umt_get, umt_get_s): the same values for every
 * layout inside the row, and a failure, with nothing written, for every layout
 * that reaches past it or has a width outside 1..8. */
#include <atf-c.h>

#include <string.h>

#include "validators/umtrace/umt.h"

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
	uint8_t bytes[48];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(37 * i + 0x91); /* both signs in every width */
	unsigned inside = 0, outside = 0;
	/* every row length, base, offset and width (0 and 9 included) of a field, alone
	 * and after a fixed signed one */
	for (size_t len = 0; len <= 24; len++)
		for (uint64_t base = 0; base <= 20; base++)
			for (uint16_t off = 0; off <= 16; off++)
				for (uint8_t width = 0; width <= 9; width++)
					for (int form = 0; form < 4; form++) {
						struct tl_cursor row;
						ATF_REQUIRE(tl_cursor_at(&row, bytes, sizeof bytes, 0, len));
						struct umt_field layout[2] = { { 3, 2, true }, { off, width, (form & 1) != 0 } };
						size_t n = form < 2 ? 1 : 2;
						const struct umt_field *l = form < 2 ? layout + 1 : layout;
						uint64_t fast[2], slow[2];
						memset(fast, 0xa5, sizeof fast);
						bool ok = umt_get_fields_at(&row, base, l, n, fast);
						ATF_REQUIRE_EQ(ok, one_by_one(&row, base, l, n, slow));
						if (ok) {
							ATF_REQUIRE(memcmp(fast, slow, n * sizeof fast[0]) == 0);
							inside++;
						} else {
							ATF_REQUIRE_EQ(fast[0], 0xa5a5a5a5a5a5a5a5u);
							ATF_REQUIRE_EQ(fast[1], 0xa5a5a5a5a5a5a5a5u);
							outside++;
						}
					}
	/* both outcomes were exercised, many times */
	ATF_REQUIRE(inside > 10000 && outside > 10000);
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

/* umt_get_array against the umt_get_fields_at call per element it replaces: the
 * same values when every element is inside the row, and a failure, with nothing
 * written, when one is not (an offset sum that overflows included). */
static bool element_by_element(const struct tl_cursor *row, uint64_t base, uint64_t stride,
			       uint64_t count, const struct umt_field *layout, size_t nf,
			       uint64_t *out)
{
	for (uint64_t k = 0; k < count; k++)
		if (!umt_get_fields_at(row, base + k * stride, layout, nf, out + k * nf))
			return false;
	return true;
}

ATF_TC_WITHOUT_HEAD(array_same_as_elements);
ATF_TC_BODY(array_same_as_elements, tc)
{
	uint8_t bytes[64];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(29 * i + 0x83);
	static const struct umt_field layouts[3][2] = {
		{ { 0, 2, false }, { 2, 1, true } },
		{ { 1, 8, true }, { 0, 4, false } },
		{ { 0, 9, false }, { 0, 1, false } }, /* a bad width */
	};
	unsigned inside = 0, outside = 0;
	for (size_t len = 0; len <= 40; len += 3)
		for (uint64_t base = 0; base <= 12; base++)
			for (uint64_t stride = 0; stride <= 13; stride++)
				for (uint64_t count = 0; count <= 7; count++)
					for (size_t l = 0; l < 3; l++) {
						struct tl_cursor row;
						ATF_REQUIRE(tl_cursor_at(&row, bytes, sizeof bytes, 0, len));
						uint64_t fast[14], slow[14];
						memset(fast, 0xa5, sizeof fast);
						bool ok = umt_get_array(&row, base, stride, count, layouts[l], 2, fast);
						ATF_REQUIRE_EQ(ok, element_by_element(&row, base, stride, count,
										      layouts[l], 2, slow));
						if (ok && count) {
							ATF_REQUIRE(memcmp(fast, slow, 2 * count * sizeof fast[0]) == 0);
							inside++;
						} else if (!ok) {
							for (size_t i = 0; i < 14; i++)
								ATF_REQUIRE_EQ(fast[i], 0xa5a5a5a5a5a5a5a5u);
							outside++;
						}
					}
	ATF_REQUIRE(inside > 1000 && outside > 1000);
	/* an extent that overflows 64 bits fails instead of wrapping into the row */
	struct tl_cursor row;
	uint64_t v[4];
	ATF_REQUIRE(tl_cursor_at(&row, bytes, sizeof bytes, 0, sizeof bytes));
	ATF_REQUIRE(!umt_get_array(&row, 0, UINT64_MAX / 2 + 1, 3, layouts[0], 2, v));
	ATF_REQUIRE(!umt_get_array(&row, UINT64_MAX - 3, 2, 2, layouts[0], 2, v));
	ATF_REQUIRE(!umt_get_array(&row, 0, 1, UINT64_MAX, layouts[0], 2, v));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, same_as_field_reads);
	ATF_TP_ADD_TC(tp, bad_layouts);
	ATF_TP_ADD_TC(tp, array_same_as_elements);
	return atf_no_error();
}
