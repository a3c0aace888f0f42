/* The XRay FDR record decoder (both byte orders, framing outcomes) and a few
 * whole-buffer behaviours that the corpus cannot pin as directly. */
#include <atf-c.h>

#include <string.h>

#include "validators/xray/xray.h"

#include "record_bytes.h"

static const struct xray_header le5 = { false, 5, XRAY_TYPE_FDR, 3, 1000000000, 4096 };
static const struct xray_header be5 = { true, 5, XRAY_TYPE_FDR, 3, 1000000000, 4096 };

static enum xray_decode_status decode(const uint8_t *p, size_t n, const struct xray_header *h,
				      struct xray_record *rec)
{
	struct tl_cursor c;
	tl_cursor_init(&c, p, n, 1000);
	rec->index = 7;
	return tl_xray_decode(&c, h, rec);
}

ATF_TC_WITHOUT_HEAD(function_record_little_endian);
ATF_TC_BODY(function_record_little_endian, tc)
{
	/* id 5, action Entry_Args (3): word 5 << 4 | 3 << 1 = 0x56; delta 0x01020304 */
	const uint8_t p[] = { 0x56, 0, 0, 0, 0x04, 0x03, 0x02, 0x01 };
	struct xray_record r;
	ATF_REQUIRE_EQ(decode(p, sizeof p, &le5, &r), XRAY_DECODED);
	ATF_CHECK(!r.metadata);
	ATF_CHECK_EQ(r.action, XRAY_ENTRY_ARGS);
	ATF_CHECK_EQ(r.function_id, 5u);
	ATF_CHECK_EQ(r.tsc_delta, 0x01020304u);
	ATF_CHECK_EQ(r.size, 8u);
	ATF_CHECK_EQ(r.offset, 1000u);
	ATF_CHECK_EQ(r.index, 7);
}

ATF_TC_WITHOUT_HEAD(function_record_big_endian);
ATF_TC_BODY(function_record_big_endian, tc)
{
	/* Action in bits 30..28, id in bits 27..0: Tail_Exit of 0x0abcdef. */
	const uint8_t p[] = { 0x20, 0xab, 0xcd, 0xef, 0, 0, 0, 9 };
	struct xray_record r;
	ATF_REQUIRE_EQ(decode(p, sizeof p, &be5, &r), XRAY_DECODED);
	ATF_CHECK(!r.metadata);
	ATF_CHECK_EQ(r.action, XRAY_TAIL_EXIT);
	ATF_CHECK_EQ(r.function_id, 0x0abcdefu);
	ATF_CHECK_EQ(r.tsc_delta, 9u);
}

ATF_TC_WITHOUT_HEAD(metadata_fields_both_orders);
ATF_TC_BODY(metadata_fields_both_orders, tc)
{
	/* NewCPUId: cpu 2, TSC 0x1122334455667788, spare bytes garbage. */
	uint8_t le[16] = { 2 << 1 | 1, 2, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
			   0xa5, 0xa5, 0xa5, 0xa5, 0xa5 };
	uint8_t be[16] = { 0x82, 0, 2, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
			   0xa5, 0xa5, 0xa5, 0xa5, 0xa5 };
	struct xray_record r;
	ATF_REQUIRE_EQ(decode(le, sizeof le, &le5, &r), XRAY_DECODED);
	ATF_CHECK(r.metadata);
	ATF_CHECK_EQ(r.kind, XRAY_NEW_CPU);
	ATF_CHECK_EQ(r.value, 2);
	ATF_CHECK_EQ(r.tsc, UINT64_C(0x1122334455667788));
	ATF_REQUIRE_EQ(decode(be, sizeof be, &be5, &r), XRAY_DECODED);
	ATF_CHECK_EQ(r.kind, XRAY_NEW_CPU);
	ATF_CHECK_EQ(r.value, 2);
	ATF_CHECK_EQ(r.tsc, UINT64_C(0x1122334455667788));
}

ATF_TC_WITHOUT_HEAD(event_payload_framing);
ATF_TC_BODY(event_payload_framing, tc)
{
	/* CustomEventMarker of 3 bytes, delta -2; then the payload. */
	uint8_t p[19] = { 5 << 1 | 1, 3, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff };
	memcpy(p + 16, "abc", 3);
	struct xray_record r;
	ATF_REQUIRE_EQ(decode(p, sizeof p, &le5, &r), XRAY_DECODED);
	ATF_CHECK_EQ(r.kind, XRAY_CUSTOM_EVENT);
	ATF_CHECK_EQ(r.size, 19u);
	ATF_CHECK(r.has_event_delta);
	ATF_CHECK_EQ(r.event_delta, -2);
	/* One payload byte missing: short, and the size says how much was needed. */
	ATF_CHECK_EQ(decode(p, sizeof p - 1, &le5, &r), XRAY_SHORT);
	ATF_CHECK_EQ(r.size, 19u);
	/* A negative size cannot be framed. */
	p[1] = 0xf8, p[2] = 0xff, p[3] = 0xff, p[4] = 0xff;
	ATF_CHECK_EQ(decode(p, sizeof p, &le5, &r), XRAY_NEGATIVE_EVENT);
}

ATF_TC_WITHOUT_HEAD(short_records);
ATF_TC_BODY(short_records, tc)
{
	const uint8_t p[15] = { 1 };
	struct xray_record r;
	ATF_CHECK_EQ(decode(p, 15, &le5, &r), XRAY_SHORT);
	ATF_CHECK_EQ(decode(p + 1, 7, &le5, &r), XRAY_SHORT);
	ATF_CHECK_EQ(decode(p, 0, &le5, &r), XRAY_SHORT);
}

/* ---- whole traces through the public API ---- */

struct seen {
	unsigned count;
	const char *rules[8];
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	if (s->count < 8)
		s->rules[s->count] = d->rule->id;
	s->count++;
}

static size_t fn(uint8_t *p, unsigned action, uint32_t id)
{
	put(p, (uint64_t)id << 4 | action << 1, 4);
	return 4 + put(p + 4, 1, 4);
}

/* A version-5 trace of one buffer whose body is `body`. */
static struct seen validate_body(const uint8_t *body, size_t n)
{
	uint8_t t[512];
	size_t k = 0;
	k += put(t + k, 5, 2);
	k += put(t + k, 1, 2);
	k += put(t + k, 3, 4);
	k += put(t + k, 1000000000, 8);
	k += put(t + k, 4096, 8);
	k += put(t + k, 0, 8);
	k += meta(t + k, XRAY_BUFFER_EXTENTS, 64 + n, 8);
	k += meta(t + k, XRAY_NEW_BUFFER, 42, 4);
	k += meta(t + k, XRAY_WALLCLOCK, 1, 8);
	put(t + k - 16 + 9, 5, 4);
	k += meta(t + k, XRAY_PID, 41, 4);
	k += meta(t + k, XRAY_NEW_CPU, 0, 2);
	ATF_REQUIRE(k + n <= sizeof t);
	memcpy(t + k, body, n);
	struct seen s = { 0, { 0 } };
	struct tl_options o;
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	o.on_diag = collect;
	o.user = &s;
	struct tl_result r;
	ATF_REQUIRE_EQ(tl_validate_buffer(t, k + n, "t.xray", &o, &r, NULL, 0), TL_OK);
	return s;
}

ATF_TC_WITHOUT_HEAD(exit_on_empty_stack_is_normal);
ATF_TC_BODY(exit_on_empty_stack_is_normal, tc)
{
	/* The buffer starts mid-call: exits of functions entered in older buffers. */
	uint8_t b[64];
	size_t n = 0;
	n += fn(b + n, XRAY_EXIT, 3);
	n += fn(b + n, XRAY_TAIL_EXIT, 2);
	n += fn(b + n, XRAY_ENTRY, 4);
	n += fn(b + n, XRAY_EXIT, 4);
	n += fn(b + n, XRAY_EXIT, 1);
	struct seen s = validate_body(b, n);
	ATF_CHECK_EQ(s.count, 0u);
}

ATF_TC_WITHOUT_HEAD(exit_mismatch_while_stack_open);
ATF_TC_BODY(exit_mismatch_while_stack_open, tc)
{
	uint8_t b[64];
	size_t n = 0;
	n += fn(b + n, XRAY_ENTRY, 1);
	n += fn(b + n, XRAY_EXIT, 2);
	struct seen s = validate_body(b, n);
	ATF_REQUIRE_EQ(s.count, 1u);
	ATF_CHECK_STREQ(s.rules[0], "XRAY-FDR-EXIT-MISMATCH");
}

ATF_TC_WITHOUT_HEAD(entry_args_takes_its_argument);
ATF_TC_BODY(entry_args_takes_its_argument, tc)
{
	uint8_t b[64];
	size_t n = 0;
	n += fn(b + n, XRAY_ENTRY_ARGS, 1);
	n += meta(b + n, XRAY_CALL_ARGUMENT, 99, 8);
	n += fn(b + n, XRAY_EXIT, 1);
	ATF_CHECK_EQ(validate_body(b, n).count, 0u);
	/* Without it: a warning at the Entry_Args. */
	n = fn(b, XRAY_ENTRY_ARGS, 1);
	n += fn(b + n, XRAY_EXIT, 1);
	struct seen s = validate_body(b, n);
	ATF_REQUIRE_EQ(s.count, 1u);
	ATF_CHECK_STREQ(s.rules[0], "XRAY-FDR-ENTRY-ARGS-WITHOUT-ARGUMENT");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, function_record_little_endian);
	ATF_TP_ADD_TC(tp, function_record_big_endian);
	ATF_TP_ADD_TC(tp, metadata_fields_both_orders);
	ATF_TP_ADD_TC(tp, event_payload_framing);
	ATF_TP_ADD_TC(tp, short_records);
	ATF_TP_ADD_TC(tp, exit_on_empty_stack_is_normal);
	ATF_TP_ADD_TC(tp, exit_mismatch_while_stack_open);
	ATF_TP_ADD_TC(tp, entry_args_takes_its_argument);
	return atf_no_error();
}
