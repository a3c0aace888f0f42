/* The XRay header: byte order by content, --endian overriding it, and the
 * verdict detail that names what was read. */
#include <atf-c.h>

#include <string.h>

#include "tracelint.h"

/* An FDR version-5 header with no records, in the given byte order. */
static void fdr_header(uint8_t h[32], bool big)
{
	memset(h, 0, 32);
	const uint8_t le[16] = { 5, 0, 1, 0, 3, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0 };
	const uint8_t be[16] = { 0, 5, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00 };
	memcpy(h, big ? be : le, 16);
	if (big)
		h[22] = 0x10; /* buffer_size 4096, big-endian */
	else
		h[17] = 0x10;
}

static struct tl_result run(const uint8_t *h, enum tl_endian endian)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	o.endian = endian;
	struct tl_result r;
	ATF_REQUIRE_EQ(tl_validate_buffer(h, 32, "h.xray", &o, &r, NULL, 0), TL_OK);
	return r;
}

ATF_TC_WITHOUT_HEAD(detects_both_byte_orders);
ATF_TC_BODY(detects_both_byte_orders, tc)
{
	uint8_t h[32];
	fdr_header(h, false);
	struct tl_result r = run(h, TL_ENDIAN_AUTO);
	ATF_CHECK(r.valid);
	ATF_CHECK_STREQ(r.detail, "FDR version 5, little-endian (detected)");
	fdr_header(h, true);
	r = run(h, TL_ENDIAN_AUTO);
	ATF_CHECK(r.valid);
	ATF_CHECK_STREQ(r.detail, "FDR version 5, big-endian (detected)");
}

ATF_TC_WITHOUT_HEAD(forced_byte_order_wins);
ATF_TC_BODY(forced_byte_order_wins, tc)
{
	uint8_t h[32];
	fdr_header(h, true);
	/* Read little-endian, the version is 0x0500 and the type 0x0100: rejected. */
	struct tl_result r = run(h, TL_ENDIAN_LITTLE);
	ATF_CHECK(!r.valid);
	ATF_CHECK_EQ(r.errors, 1u);
	r = run(h, TL_ENDIAN_BIG);
	ATF_CHECK(r.valid);
	ATF_CHECK_STREQ(r.detail, "FDR version 5, big-endian (forced)");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, detects_both_byte_orders);
	ATF_TP_ADD_TC(tp, forced_byte_order_wins);
	return atf_no_error();
}
