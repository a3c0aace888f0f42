/* The JSON reader's memory promises (validators/json/README.md): 32 bytes a
 * node, repeated keys kept only up to what can be shown. */
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_tree.h"

ATF_TC_WITHOUT_HEAD(node_size);
ATF_TC_BODY(node_size, tc)
{
	ATF_CHECK_EQ(sizeof(struct jnode), 32);
}

/* 10^5 repeats of one key: the first keep_dups in report order are kept
 * with their pointer, the rest only counted. */
ATF_TC_WITHOUT_HEAD(repeated_keys_capped);
ATF_TC_BODY(repeated_keys_capped, tc)
{
	size_t n = 100000, k = 0;
	char *text = malloc(n * 10 + 16);
	ATF_REQUIRE(text);
	text[k++] = '{';
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(text + k, "%s\"a\":%zu", i ? "," : "", i % 10);
	text[k++] = '}';
	struct jdoc doc;
	struct jerror err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, k, NULL, 0, NULL, 100, &err));
	ATF_CHECK_EQ(doc.ndups, 100);
	ATF_CHECK_EQ(doc.dups_dropped, n - 1 - 100);
	ATF_CHECK(doc.capdups <= 128);
	ATF_CHECK_STREQ(doc.dups[99].pointer, "/a");
	ATF_CHECK_EQ(doc.dups[0].key_off, 7); /* the second "a" */
	tl_json_free(&doc);
	free(text);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, node_size);
	ATF_TP_ADD_TC(tp, repeated_keys_capped);
	return atf_no_error();
}
