/* The header-row table convention read silently (no context, as a paired
 * DCFG is): shapes a header can be refused for, and columns past the
 * direct-lookup positions found by their header position. */
#include <atf-c.h>
#include <stdio.h>
#include <string.h>

#include "validators/json/json_check.h"

static const struct tl_json_column cols[] = { { "A", true }, { "B", false } };

/* Parses text and opens its top-level "T" as a table of cols. */
static bool open_t(struct tl_json_check *v, const char *text, struct tl_json_table *t)
{
	memset(v, 0, sizeof *v);
	ATF_REQUIRE(tl_jv_parse(v, (const uint8_t *)text, strlen(text), NULL, 0));
	uint32_t tbl = tl_json_obj_get(&v->doc, 0, "T");
	ATF_REQUIRE(tbl != JNONE);
	return tl_dcfg_table_open(v, tbl, cols, 2, "T", false, t);
}

ATF_TC_WITHOUT_HEAD(refused_headers);
ATF_TC_BODY(refused_headers, tc)
{
	static const char *const refused[] = {
		"{\"T\": 5}",                      /* no array */
		"{\"T\": []}",                     /* no header */
		"{\"T\": [5, [1]]}",               /* a header that is no array */
		"{\"T\": [[], [1]]}",              /* an empty header */
		"{\"T\": [[5, \"A\", \"B\"]]}",    /* a column name that is no string */
		"{\"T\": [[\"A\", \"\\u0041\"]]}", /* a name twice, once escaped */
		"{\"T\": [[\"B\"]]}",              /* required column A missing */
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		struct tl_json_check v;
		struct tl_json_table t;
		ATF_CHECK_MSG(!open_t(&v, refused[i], &t), "%s opened", refused[i]);
		ATF_CHECK_MSG(v.failed, "%s: no error counted", refused[i]);
		tl_json_free(&v.doc);
	}
	struct tl_json_check v;
	struct tl_json_table t;
	ATF_CHECK(open_t(&v, "{\"T\": [[\"B\", \"A\"], [1, 2]]}", &t));
	ATF_CHECK(!v.failed);
	tl_json_free(&v.doc);
}

/* Unknown columns push A and B past TABLE_MAX_POS: rows still find them. */
ATF_TC_WITHOUT_HEAD(columns_past_direct_lookup);
ATF_TC_BODY(columns_past_direct_lookup, tc)
{
	char text[2048], *p = text;
	p += sprintf(p, "{\"T\": [[");
	for (int i = 0; i < TABLE_MAX_POS + 2; i++)
		p += sprintf(p, "\"X%d\", ", i);
	p += sprintf(p, "\"A\", \"B\"], [");
	for (int i = 0; i < TABLE_MAX_POS + 2; i++)
		p += sprintf(p, "0, ");
	p += sprintf(p, "7, 8], [");
	for (int i = 0; i < TABLE_MAX_POS + 2; i++)
		p += sprintf(p, "0, ");
	sprintf(p, "9]]}");
	struct tl_json_check v;
	struct tl_json_table t;
	ATF_REQUIRE(open_t(&v, text, &t)); /* unknown columns are warnings only */
	ATF_CHECK_EQ(t.pos[0], TABLE_MAX_POS + 2);
	uint32_t cell[2], r = table_first_row(&v, &t);
	uint64_t x;
	ATF_REQUIRE(tl_dcfg_table_row(&v, &t, r, cell));
	ATF_REQUIRE(cell[0] != JNONE && cell[1] != JNONE);
	ATF_CHECK(tl_jv_int(&v, cell[0], 0, 100, "A", &x) && x == 7);
	ATF_CHECK(tl_jv_int(&v, cell[1], 0, 100, "B", &x) && x == 8);
	r = jnext(&v, r);
	ATF_REQUIRE(tl_dcfg_table_row(&v, &t, r, cell)); /* B is optional */
	ATF_CHECK(tl_jv_int(&v, cell[0], 0, 100, "A", &x) && x == 9);
	ATF_CHECK_EQ(cell[1], JNONE);
	ATF_CHECK(!v.failed);
	tl_json_free(&v.doc);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, refused_headers);
	ATF_TP_ADD_TC(tp, columns_past_direct_lookup);
	return atf_no_error();
}
