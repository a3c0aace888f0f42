/* The UMTracer describe hook (the text context's marked column and decoded
 * header or row of a fixed-size table) on what the corpus does not show:
 * offsets between columns, rows of the widest values, and table headers
 * the validator would not accept, which locate no row. */
#include <atf-c.h>

#include <string.h>

#include "validators/umtrace/umt.h"

#include "tests/support/read_back.h"

/* A module.itable: a 48-byte header (RowCount 2, RowSize 48, TableFP 48)
 * and two rows. */
static uint8_t table[48 + 2 * 48];

static void put(size_t at, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		table[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static void module_table(void)
{
	memset(table, 0, sizeof table);
	put(0, 1, 4);
	put(4, 1, 4);
	put(8, 2, 8);
	put(16, 48, 8);
	put(24, 48, 8);
	for (int k = 0; k < 2; k++) {
		size_t r = 48 + 48 * (size_t)k;
		put(r, 10 + (uint64_t)k, 8);
		put(r + 8, (uint64_t)-1, 8);
		put(r + 16, 0x400000, 8);
		put(r + 24, 0x40ffff, 8);
	}
}

static struct tl_field_view describe(const char *member, const char *id, uint64_t off)
{
	return describe_with(tl_umt_describe, table, sizeof table, id, member, off, -1);
}

ATF_TC_WITHOUT_HEAD(row_column_marked);
ATF_TC_BODY(row_column_marked, tc)
{
	module_table();
	struct tl_field_view v = describe("module.itable", "UMT-MODULE-RANGE", 48 + 48 + 20);
	ATF_CHECK_EQ(v.offset, 48u + 48 + 16);
	ATF_CHECK_EQ(v.width, 8u);
	ATF_CHECK_STREQ(v.fields, "moduleRec 1: LoadEid=11 UnloadEid=-1 StartAddr=0x400000 "
				  "EndAddr=0x40ffff WinNameFP=0 DeviceNameFP=0");
}

ATF_TC_WITHOUT_HEAD(between_columns_nothing_marked);
ATF_TC_BODY(between_columns_nothing_marked, tc)
{
	/* an insRec's byte 11 (between CodeSize and Module) is no column: the
	 * writer's one byte stays marked, the row is still decoded */
	module_table();
	put(16, 64, 8);
	put(8, 1, 8);
	struct tl_field_view v = describe("ins.itable", "UMT-INS-MODULE", 48 + 11);
	ATF_CHECK_EQ(v.offset, 48u + 11);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK(strncmp(v.fields, "insRec 0: Id=10 ", 16) == 0);
}

ATF_TC_WITHOUT_HEAD(widest_row_fits_the_line);
ATF_TC_BODY(widest_row_fits_the_line, tc)
{
	/* every column at its widest: the decoded row still fits the line whole */
	module_table();
	memset(table + 48, 0x80, 48);
	struct tl_field_view v = describe("module.itable", "UMT-MODULE-RANGE", 48);
	ATF_CHECK_EQ(v.width, 8u);
	ATF_CHECK(strncmp(v.fields, "moduleRec 0: LoadEid=-9187201950435737472 ", 42) == 0);
	const char *last = " DeviceNameFP=-9187201950435737472";
	size_t n = strlen(v.fields);
	ATF_CHECK(n < sizeof v.fields - 1 && n > strlen(last) &&
		  strcmp(v.fields + n - strlen(last), last) == 0);
}

ATF_TC_WITHOUT_HEAD(header_that_locates_no_row);
ATF_TC_BODY(header_that_locates_no_row, tc)
{
	/* a wrong RowSize, a negative RowCount, a TableFP inside the header, an
	 * offset before TableFP, a row past RowCount: header fields only */
	static const struct {
		size_t at;
		uint64_t v;
		uint64_t off;
	} bad[] = { { 16, 40, 60 }, { 8, (uint64_t)-1, 60 }, { 24, 8, 60 },
		    { 24, 96, 60 }, { 8, 1, 100 } };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		module_table();
		put(bad[i].at, bad[i].v, 8);
		struct tl_field_view v = describe("module.itable", "UMT-MODULE-RANGE", bad[i].off);
		ATF_CHECK_EQ_MSG(v.width, 1u, "case %zu", i);
		ATF_CHECK_STREQ_MSG(v.fields, "", "case %zu", i);
	}
	/* the header itself is still decoded */
	struct tl_field_view v = describe("module.itable", "UMT-TABLE-ROW-COUNT", 9);
	ATF_CHECK_EQ(v.offset, 8u);
	ATF_CHECK_EQ(v.width, 8u);
	ATF_CHECK(strncmp(v.fields, "table header: HeaderVer=1 RecordVer=1 RowCount=1 ", 49) == 0);
	/* members that are not fixed-size tables, and none */
	v = describe("exec.vtable", "UMT-TABLE-ROW-COUNT", 9);
	ATF_CHECK_STREQ(v.fields, "");
	v = describe(NULL, "UMT-TABLE-ROW-COUNT", 9);
	ATF_CHECK_STREQ(v.fields, "");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, row_column_marked);
	ATF_TP_ADD_TC(tp, between_columns_nothing_marked);
	ATF_TP_ADD_TC(tp, widest_row_fits_the_line);
	ATF_TP_ADD_TC(tp, header_that_locates_no_row);
	return 0;
}
