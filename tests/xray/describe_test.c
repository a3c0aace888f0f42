/* The XRay describe hook (the text context's marked field and decoded record)
 * on diagnostics the corpus does not produce: basic-mode headers, fields
 * inside a basic-mode record, metadata kinds no corpus diagnostic names, and
 * headers it must not trust. */
#include <atf-c.h>

#include <string.h>

#include "validators/xray/xray.h"

#include "record_bytes.h"
#include "tests/support/read_back.h"

static struct tl_field_view describe(const uint8_t *p, size_t n, const char *id, uint64_t off,
				     int64_t record)
{
	return describe_with(tl_xray_describe, p, n, id, NULL, off, record);
}

/* The marker spans width bytes from offset. */
#define CHECK_MARK(v, off, w)                                                                   \
	do {                                                                                       \
		ATF_CHECK_EQ((v).offset, (uint64_t)(off));                                         \
		ATF_CHECK_EQ((v).width, (uint64_t)(w));                                            \
	} while (0)

/* A little-endian header of `type` and `version`. */
static size_t header(uint8_t *p, unsigned type, unsigned version)
{
	memset(p, 0xee, 32); /* basic-mode writers leave the tail uninitialised */
	put(p, version, 2);
	put(p + 2, type, 2);
	put(p + 4, 1, 4);
	put(p + 8, 2000000000, 8);
	if (type == XRAY_TYPE_FDR)
		put(p + 16, 4096, 8);
	return 32;
}

ATF_TC_WITHOUT_HEAD(basic_header_has_no_buffer_size);
ATF_TC_BODY(basic_header_has_no_buffer_size, tc)
{
	uint8_t p[32];
	header(p, XRAY_TYPE_BASIC, 3);
	struct tl_field_view v = describe(p, sizeof p, "XRAY-HEADER-CYCLE-RANGE", 9, -1);
	CHECK_MARK(v, 8u, 8u);
	ATF_CHECK_STREQ(v.fields, "header: version=3 type=basic flags=0x1 cycle_frequency=2000000000");
	header(p, XRAY_TYPE_FDR, 5);
	v = describe(p, sizeof p, "XRAY-HEADER-BUFFER-SIZE", 16, -1);
	ATF_CHECK_EQ(v.width, 8u);
	ATF_CHECK(strstr(v.fields, "type=fdr") && strstr(v.fields, " buffer_size=4096"));
}

ATF_TC_WITHOUT_HEAD(unsupported_header_is_not_decoded);
ATF_TC_BODY(unsupported_header_is_not_decoded, tc)
{
	/* versions outside 1..5 (FDR) and 1..3 (basic) in either byte order,
	 * a type of neither, and a cut header: the view stays as it was */
	static const unsigned bad[][2] = { { XRAY_TYPE_FDR, 6 }, { XRAY_TYPE_FDR, 0 }, { XRAY_TYPE_BASIC, 4 },
					   { XRAY_TYPE_BASIC, 0 }, { 7, 1 } };
	uint8_t p[32];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		header(p, bad[i][0], bad[i][1]);
		struct tl_field_view v = describe(p, sizeof p, "XRAY-HEADER-VERSION", 0, -1);
		ATF_CHECK_EQ_MSG(v.width, 1u, "type %u version %u", bad[i][0], bad[i][1]);
		ATF_CHECK_STREQ(v.fields, "");
	}
	header(p, XRAY_TYPE_FDR, 5);
	struct tl_field_view v = describe(p, 31, "XRAY-HEADER-SIZE", 0, -1);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK_STREQ(v.fields, "");
}

ATF_TC_WITHOUT_HEAD(basic_record_field_inside);
ATF_TC_BODY(basic_record_field_inside, tc)
{
	/* A function record (type 0, cpu 1, entry 5) then an argument payload
	 * (type 1); diagnostics pointing inside them mark the field there. */
	uint8_t p[96] = { 0 };
	header(p, XRAY_TYPE_BASIC, 3);
	uint8_t *f = p + 32, *a = p + 64;
	put(f, 0, 2);
	f[2] = 1;
	f[3] = 5;
	put(f + 4, 9, 4);
	put(f + 8, 1234, 8);
	put(f + 16, 77, 4);
	put(f + 20, 88, 4);
	put(a, 1, 2);
	put(a + 4, 9, 4);
	put(a + 8, 77, 4);
	put(a + 12, 88, 4);
	put(a + 16, 42, 8);

	struct tl_field_view v = describe(p, sizeof p, "XRAY-BASIC-ENTRY-TYPE", 35, 0);
	CHECK_MARK(v, 35u, 1u);
	ATF_CHECK_STREQ(v.fields, "record: type=function cpu=1 entry=undefined func=9 tsc=1234 tid=77 pid=88");

	v = describe(p, sizeof p, "XRAY-BASIC-ARGUMENT-ORPHAN", 64 + 9, 1);
	CHECK_MARK(v, 64u + 8, 4u);
	ATF_CHECK_STREQ(v.fields, "record: type=argument func=9 tid=77 pid=88 arg=42");

	/* the record type itself: its two bytes, not the whole record */
	put(a, 3, 2);
	v = describe(p, sizeof p, "XRAY-BASIC-RECORD-TYPE", 64, 1);
	CHECK_MARK(v, 64u, 2u);
	ATF_CHECK_STREQ(v.fields, "record: type=3 (undefined)");

	/* one byte into the record: the 2-byte field there, not the record */
	v = describe(p, sizeof p, "XRAY-BASIC-RECORD-TYPE", 65, 1);
	CHECK_MARK(v, 64u, 2u);

	/* a record cut by the end of the file is left as it is */
	v = describe(p, 80, "XRAY-BASIC-SIZE", 64, 1);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK_STREQ(v.fields, "");
}

ATF_TC_WITHOUT_HEAD(fdr_metadata_kinds);
ATF_TC_BODY(fdr_metadata_kinds, tc)
{
	/* Each metadata kind at offset 32, named by a rule that means the whole
	 * record: its decoded fields. */
	static const struct {
		unsigned kind;
		uint64_t a;
		int wa;
		const char *fields;
	} kinds[] = {
		{ XRAY_END_OF_BUFFER, 0, 1, "record: kind=end-of-buffer" },
		{ XRAY_TSC_WRAP, 0x10, 8, "record: kind=tsc-wrap tsc=16" },
		{ XRAY_CALL_ARGUMENT, 99, 8, "record: kind=call-argument arg=99" },
		{ XRAY_PID, 4321, 4, "record: kind=pid pid=4321" },
		{ 0x55, 0, 1, "record: kind=metadata-85 (undefined)" },
	};
	uint8_t p[48];
	header(p, XRAY_TYPE_FDR, 5);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		meta(p + 32, kinds[i].kind, kinds[i].a, kinds[i].wa);
		struct tl_field_view v = describe(p, sizeof p, "XRAY-FDR-PREAMBLE-IN-BODY", 32, 0);
		CHECK_MARK(v, 32u, 16u);
		ATF_CHECK_STREQ(v.fields, kinds[i].fields);
	}
	/* an event before version 5 has no TSC delta */
	header(p, XRAY_TYPE_FDR, 4);
	meta(p + 32, XRAY_TYPED_EVENT, 0, 4);
	struct tl_field_view v = describe(p, sizeof p, "XRAY-FDR-PREAMBLE-IN-BODY", 32, 0);
	ATF_CHECK_STREQ(v.fields, "record: kind=typed-event size=0");
}

ATF_TC_WITHOUT_HEAD(field_marked_per_rule);
ATF_TC_BODY(field_marked_per_rule, tc)
{
	/* TSC-BACKWARDS marks TSCWrap's 8-byte TSC at byte 1 and the whole of a
	 * metadata kind without a TSC; WALLCLOCK-MICROS marks the 4 bytes at 9,
	 * and nothing when its offset leaves no room for the record after the
	 * header (no fields decoded then). */
	static const struct {
		unsigned kind;
		const char *rule;
		uint64_t off, mark, width;
		bool decoded;
	} cases[] = {
		{ XRAY_TSC_WRAP, "XRAY-FDR-TSC-BACKWARDS", 32, 33, 8, true },
		{ XRAY_WALLCLOCK, "XRAY-FDR-TSC-BACKWARDS", 32, 32, 16, true },
		{ XRAY_WALLCLOCK, "XRAY-FDR-WALLCLOCK-MICROS", 41, 41, 4, true },
		{ XRAY_WALLCLOCK, "XRAY-FDR-WALLCLOCK-MICROS", 35, 35, 1, false },
	};
	uint8_t p[48];
	header(p, XRAY_TYPE_FDR, 5);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		meta(p + 32, cases[i].kind, 5, 8);
		struct tl_field_view v = describe(p, sizeof p, cases[i].rule, cases[i].off, 3);
		ATF_CHECK_EQ_MSG(v.offset, cases[i].mark, "case %zu", i);
		ATF_CHECK_EQ_MSG(v.width, cases[i].width, "case %zu", i);
		ATF_CHECK_EQ_MSG(v.fields[0] != '\0', cases[i].decoded, "case %zu: \"%s\"", i, v.fields);
	}
	/* a function record: its 4-byte delta (function exit of id 1, delta 7) */
	put(p + 32, 1u << 4 | 1u << 1, 4);
	put(p + 36, 7, 4);
	struct tl_field_view v = describe(p, 40, "XRAY-FDR-TSC-BACKWARDS", 32, 3);
	CHECK_MARK(v, 36, 4);
	ATF_CHECK_STREQ(v.fields, "record: kind=function-exit func=1 tsc_delta=7");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, basic_header_has_no_buffer_size);
	ATF_TP_ADD_TC(tp, unsupported_header_is_not_decoded);
	ATF_TP_ADD_TC(tp, basic_record_field_inside);
	ATF_TP_ADD_TC(tp, fdr_metadata_kinds);
	ATF_TP_ADD_TC(tp, field_marked_per_rule);
	return 0;
}
