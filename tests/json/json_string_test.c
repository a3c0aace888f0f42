/* Strings compared as a JSON reader sees them: escapes decoded in key
 * comparisons, duplicate keys, table lookups and pointers. */
#include <atf-c.h>
#include <string.h>

#include "validators/json/json_string.h"
#include "validators/json/json_tree.h"

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

ATF_TC_WITHOUT_HEAD(decoding);
ATF_TC_BODY(decoding, tc)
{
	ATF_CHECK(tl_json_decoded_eq(S("PROCESSE\\u0053"), "PROCESSES", 9));
	ATF_CHECK(tl_json_decoded_eq(S("MAJOR\\u005fVERSION"), "MAJOR_VERSION", 13));
	ATF_CHECK(tl_json_decoded_eq(S("a\\/b\\\\c\\\"\\n"), "a/b\\c\"\n", 7));
	ATF_CHECK(!tl_json_decoded_eq(S("PROCESSE\\u0053"), "PROCESSE", 8));
	ATF_CHECK(!tl_json_decoded_eq(S("PROCESSE\\u0053X"), "PROCESSES", 9));
	ATF_CHECK(tl_json_decoded_eq(S("\\u00e9"), "\xc3\xa9", 2));
	ATF_CHECK(tl_json_decoded_eq(S("\\ud834\\udd1e"), "\xf0\x9d\x84\x9e", 4)); /* a surrogate pair */
	ATF_CHECK_EQ(tl_json_decoded_len(S("\\ud834\\udd1e")), 4);
	ATF_CHECK_EQ(tl_json_decoded_len(S("\\ud834")), 3); /* lone: its own three bytes */
	ATF_CHECK(tl_json_decoded_cmp(S("\\ud834"), S("\\ud834x")) < 0);
	ATF_CHECK_EQ(tl_json_decoded_cmp(S("A"), S("\\u0041")), 0);
	ATF_CHECK(tl_json_decoded_cmp(S("A"), S("\\u0042")) < 0);
	uint8_t out[4];
	ATF_CHECK_EQ(tl_json_decode(S("\\u0041BCDEF"), out, sizeof out), 4);
	ATF_CHECK(!memcmp(out, "ABCD", 4));
}

/* A key that reads as an earlier one repeats it; lookups and pointers see
 * the decoded name; the reports keep document order. */
ATF_TC_WITHOUT_HEAD(escaped_keys);
ATF_TC_BODY(escaped_keys, tc)
{
	static const char text[] = "{\"PROCESSES\": 1, \"B\": 2, \"PROCESSE\\u0053\": 3, \"\\u0042\": 4, \"C/\\u007e\": [5]}";
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse(&doc, (const uint8_t *)text, sizeof text - 1, &err));
	ATF_REQUIRE_EQ(doc.ndups, 2);
	ATF_CHECK_STREQ(doc.dups[0].pointer, "/B");
	ATF_CHECK_STREQ(doc.dups[1].pointer, "/PROCESSES");
	ATF_CHECK_EQ(doc.dups[1].key_off, strstr(text, "\"PROCESSE\\") - text);
	ATF_CHECK_EQ(doc.dups[1].first_off, 1);
	uint32_t arr = tl_json_obj_get(&doc, 0, "C/~");
	ATF_REQUIRE(arr != JNONE);
	char ptr[64];
	tl_json_pointer(&doc, jn(&doc, arr)->first, ptr, sizeof ptr);
	ATF_CHECK_STREQ(ptr, "/C~1~0/0");
	tl_json_free(&doc);
}

/* Lazy tables are found under an escaped spelling of their key too. */
ATF_TC_WITHOUT_HEAD(escaped_lazy_key);
ATF_TC_BODY(escaped_lazy_key, tc)
{
	static const char text[] = "{\"\\u0054\": [[\"A\"], [1], [2]]}";
	static const struct tl_json_lazy_key lazy[] = { { "T", true } };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, sizeof text - 1, lazy, 1, NULL, SIZE_MAX, &err));
	uint32_t tbl = tl_json_obj_get(&doc, 0, "T");
	ATF_REQUIRE(tbl != JNONE);
	ATF_CHECK(jn(&doc, tbl)->flags & JF_LAZY);
	ATF_CHECK_EQ(jn(&doc, tbl)->count, 3);
	tl_json_free(&doc);
}

/* The escapes a key comparison meets besides \\u: the control escapes, a
 * backslash ending the text, a \\u cut short, and a high surrogate not
 * followed by a low one (kept as its own three bytes). */
ATF_TC_WITHOUT_HEAD(escape_corners);
ATF_TC_BODY(escape_corners, tc)
{
	ATF_CHECK(tl_json_decoded_eq(S("\\b\\f\\r\\t"), "\b\f\r\t", 4));
	ATF_CHECK(tl_json_decoded_eq(S("a\\u0041\\"), "aA\\", 3));
	ATF_CHECK_EQ(tl_json_decoded_len(S("a\\u00")), 1);
	ATF_CHECK(tl_json_decoded_eq(S("\\ud834\\u0041"), "\xed\xa0\xb4" "A", 4));
	ATF_CHECK(tl_json_decoded_eq(S("\\ud834\\n12345"), "\xed\xa0\xb4\n12345", 9));
	ATF_CHECK(tl_json_decoded_cmp(S("a\\u00"), S("a")) == 0);
	/* a low surrogate first, a high one before a non-escape and before a
	 * non-surrogate escape: each kept as its own three bytes */
	ATF_CHECK_EQ(tl_json_decoded_len(S("\\udd1e\\ud834")), 6);
	ATF_CHECK_EQ(tl_json_decoded_len(S("\\ud834abcdef")), 9);
	ATF_CHECK_EQ(tl_json_decoded_len(S("\\ud834\\ue000")), 6);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, decoding);
	ATF_TP_ADD_TC(tp, escaped_keys);
	ATF_TP_ADD_TC(tp, escaped_lazy_key);
	ATF_TP_ADD_TC(tp, escape_corners);
	return atf_no_error();
}
