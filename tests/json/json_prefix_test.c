/* Every prefix of a document whose lazy tables hold every kind of value
 * (numbers in all their spellings, strings with escapes, literals, nested
 * and empty arrays, runs of blanks and newlines) is refused with lazy
 * tables exactly as without: same offset, line, column and message. The
 * table scan of pass 1 meets the end of the text at every point of every
 * value and must hand each case to the general parser's words. */
#include <atf-c.h>
#include <stdio.h>
#include <string.h>

#include "validators/json/json_tree.h"

static const struct tl_json_lazy_key lazy[] = { { "T", true }, { "C", false } };

/* Prefixes of text that the two readings do not refuse alike. */
static unsigned disagreements(const char *text)
{
	size_t len = strlen(text);
	unsigned bad = 0;
	for (size_t k = 0; k <= len; k++) {
		struct tl_json_doc plain, lazied;
		struct tl_json_error e1, e2;
		bool ok1 = tl_json_parse(&plain, (const uint8_t *)text, k, &e1);
		bool ok2 = tl_json_parse_lazy(&lazied, (const uint8_t *)text, k, lazy, 2, NULL, SIZE_MAX, &e2);
		/* only the whole text is a document */
		if (ok1 != (k == len) || ok1 != ok2 || e1.kind != e2.kind || e1.off != e2.off || e1.line != e2.line ||
		    e1.col != e2.col || strcmp(e1.msg, e2.msg)) {
			fprintf(stderr, "prefix of %zu bytes: plain %d at %llu \"%s\", lazy %d at %llu \"%s\"\n", k, ok1,
				(unsigned long long)e1.off, e1.msg, ok2, (unsigned long long)e2.off, e2.msg);
			bad++;
		}
		tl_json_free(&plain);
		tl_json_free(&lazied);
	}
	return bad;
}

/* The rows of a lazy key's table. */
ATF_TC_WITHOUT_HEAD(lazy_table_cut_anywhere);
ATF_TC_BODY(lazy_table_cut_anywhere, tc)
{
	ATF_CHECK_EQ(disagreements("{\"T\": [[1, -2, 0, 3.25, -0.5e+10, 7E-2, 1e5, 20, -0],\n"
				   "  [\"a\", \"b\\n\", \"\\u00e9\", \"\"], [true, false, null],\n"
				   "  [[], [[1]], [ ]], 12, \"x\", true, \t\n  -3.5,\n\n  [ 4 ,\n 5 ]  ]  }"),
		     0);
}

/* A table held as the cell of a lazy column of another table. */
ATF_TC_WITHOUT_HEAD(lazy_column_cut_anywhere);
ATF_TC_BODY(lazy_column_cut_anywhere, tc)
{
	ATF_CHECK_EQ(disagreements("{\"X\": [[\"C\"], [[[1, 2.5e3, true, \"s\"], [-1, null],\n"
				   "  [false]  ,[0.0]]]]}"),
		     0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, lazy_table_cut_anywhere);
	ATF_TP_ADD_TC(tp, lazy_column_cut_anywhere);
	return atf_no_error();
}
