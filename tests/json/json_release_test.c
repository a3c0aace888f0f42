/* A lazy table read from a mapped file larger than the release step: both
 * passes hand pages back behind them, going back to an earlier row hands
 * everything back and starts again, and every row still reads as written
 * (a released page is read again from the file). */
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/core/input.h"
#include "validators/json/json_tree.h"

/* Row r is [r, "r<r>"]: its content says which row it is. */
static bool row_is(struct tl_json_doc *d, uint32_t pin, uint32_t r)
{
	const struct tl_json_node *row = tl_json_row(d, pin);
	if (row->type != J_ARR || row->count != 2)
		return false;
	const struct tl_json_node *num = &d->nodes[row->first], *str = &d->nodes[num->next];
	char want[32];
	int n = snprintf(want, sizeof want, "r%u", r);
	return num->type == J_NUM && strtoull((const char *)d->buf + num->off, NULL, 10) == r &&
	       str->type == J_STR && str->count == (uint32_t)n && !memcmp(d->buf + str->off + 1, want, (size_t)n);
}

ATF_TC_WITHOUT_HEAD(rows_past_the_release_step);
ATF_TC_BODY(rows_past_the_release_step, tc)
{
	const uint32_t rows = 500000; /* about 10 MB: two release steps and more */
	FILE *f = fopen("big.json", "w");
	ATF_REQUIRE(f);
	fprintf(f, "{\"T\": [");
	for (uint32_t r = 0; r < rows; r++)
		fprintf(f, "%s[%u, \"r%u\"]", r ? ",\n" : "", r, r);
	fprintf(f, "]}");
	ATF_REQUIRE(fclose(f) == 0);

	struct tl_input in;
	char msg[256];
	ATF_REQUIRE_MSG(tl_input_open(&in, "big.json", msg, sizeof msg), "%s", msg);
	ATF_REQUIRE(in.size > 2 * (uint64_t)TL_INPUT_RELEASE_STEP);
	static const struct tl_json_lazy_key lazy[] = { { "T", true } };
	struct tl_json_doc d;
	struct tl_json_error err;
	ATF_REQUIRE_MSG(tl_json_parse_lazy(&d, in.data, in.size, lazy, 1, &in, SIZE_MAX, &err), "%s", err.msg);
	ATF_CHECK_EQ(in.released, 0); /* pass 1 hands everything back when done */
	uint32_t t = tl_json_obj_get(&d, 0, "T");
	ATF_REQUIRE(t != JNONE);
	ATF_REQUIRE_EQ(d.nodes[t].count, rows);
	uint32_t pin0 = d.nodes[t].first;

	/* a walk releases behind the current row */
	uint32_t bad = 0;
	for (uint32_t r = 0; r < rows; r++)
		bad += !row_is(&d, pin0 + r, r);
	ATF_CHECK_EQ(bad, 0);
	uint64_t last = tl_json_text_off(&d, pin0 + rows - 1);
	ATF_CHECK(in.released >= TL_INPUT_RELEASE_STEP && in.released <= last);

	/* back to the first row: everything handed back, nothing released yet */
	ATF_CHECK(row_is(&d, pin0, 0));
	ATF_CHECK_EQ(in.released, 0);
	/* forward again, from the remembered row starts */
	ATF_CHECK(row_is(&d, pin0 + rows - 1, rows - 1));
	ATF_CHECK(in.released >= TL_INPUT_RELEASE_STEP && in.released <= last);
	ATF_CHECK(row_is(&d, pin0 + rows / 2, rows / 2));
	ATF_CHECK(!d.nomem);
	tl_json_free(&d);
	tl_input_close(&in);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, rows_past_the_release_step);
	return atf_no_error();
}
