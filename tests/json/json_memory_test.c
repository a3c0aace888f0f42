/* The JSON reader's memory promises (validators/json/README.md): 32 bytes a
 * node, repeated keys kept only up to what can be shown, a repeat's value
 * and an unknown top-level key's value never built. */
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_tree.h"

ATF_TC_WITHOUT_HEAD(node_size);
ATF_TC_BODY(node_size, tc)
{
	ATF_CHECK_EQ(sizeof(struct tl_json_node), 32);
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
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, k, NULL, 0, NULL, 100, &err));
	ATF_CHECK_EQ(doc.ndups, 100);
	ATF_CHECK_EQ(doc.dups_dropped, n - 1 - 100);
	ATF_CHECK(doc.capdups <= 128);
	ATF_CHECK_STREQ(doc.dups[99].pointer, "/a");
	ATF_CHECK_EQ(doc.dups[0].key_off, 7); /* the second "a" */
	tl_json_free(&doc);
	free(text);
}

/* Objects nested at random, with keys drawn from three names: an inner
 * object's repeats are found (at its close) before its parent's, though
 * they come after them in report order. */
static size_t put_object(char *out, uint32_t *x, int depth)
{
	size_t k = 0;
	out[k++] = '{';
	unsigned m = 1 + (*x >> 16) % 6;
	for (unsigned j = 0; j < m; j++) {
		*x = *x * 1664525u + 1013904223u;
		k += (size_t)sprintf(out + k, "%s\"%c\": ", j ? ", " : "", "abc"[(*x >> 20) % 3]);
		if (depth < 3 && (*x >> 24) % 3 == 0)
			k += put_object(out + k, x, depth + 1);
		else
			k += (size_t)sprintf(out + k, "%u", j);
	}
	out[k++] = '}';
	return k;
}

/* Keeping only the first keep_dups repeats in report order, however they
 * arrive, keeps exactly the first keep_dups of the full list. */
ATF_TC_WITHOUT_HEAD(repeated_keys_kept_in_report_order);
ATF_TC_BODY(repeated_keys_kept_in_report_order, tc)
{
	static char text[1 << 16];
	unsigned bad = 0;
	for (uint32_t seed = 1; seed <= 40; seed++) {
		uint32_t x = seed * 2654435761u;
		size_t n = put_object(text, &x, 0);
		ATF_REQUIRE(n < sizeof text);
		struct tl_json_doc full;
		struct tl_json_error err;
		ATF_REQUIRE(tl_json_parse(&full, (const uint8_t *)text, n, &err));
		for (size_t keep = 1; keep <= 9; keep++) {
			struct tl_json_doc capped;
			ATF_REQUIRE(tl_json_parse_lazy(&capped, (const uint8_t *)text, n, NULL, 0, NULL, keep, &err));
			size_t want = full.ndups < keep ? full.ndups : keep;
			bool same = capped.ndups == want && capped.dups_dropped == full.ndups - want;
			for (size_t i = 0; same && i < want; i++)
				same = capped.dups[i].key_off == full.dups[i].key_off &&
				       capped.dups[i].first_off == full.dups[i].first_off &&
				       !strcmp(capped.dups[i].pointer, full.dups[i].pointer);
			if (!same) {
				fprintf(stderr, "seed %u, keep %zu: not the first repeats of %zu\n", seed, keep, full.ndups);
				bad++;
			}
			tl_json_free(&capped);
		}
		tl_json_free(&full);
	}
	ATF_CHECK_EQ(bad, 0);
}

/* 10^5 repeats of a key whose value is an array of three: the document
 * holds the first one only (root, key, array, three numbers), and a budget
 * of 64 KiB, which the repeats' nodes would pass 100 times, is enough. */
ATF_TC_WITHOUT_HEAD(repeats_build_nothing);
ATF_TC_BODY(repeats_build_nothing, tc)
{
	size_t n = 100000, k = 0;
	char *text = malloc(n * 16 + 16);
	ATF_REQUIRE(text);
	text[k++] = '{';
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(text + k, "%s\"a\":[1,2,%zu]", i ? "," : "", i % 10);
	text[k++] = '}';
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_budget(&doc, (const uint8_t *)text, k, NULL, 0, NULL, 10, 64 << 10, &err));
	ATF_CHECK_EQ(doc.n, 6);
	ATF_CHECK_EQ(doc.ndups, 10);
	ATF_CHECK_EQ(doc.dups_dropped, n - 1 - 10);
	ATF_CHECK(doc.held <= 64 << 10);
	/* each repeat names the one before it */
	ATF_CHECK_EQ(doc.dups[0].first_off, 1);
	ATF_CHECK_EQ(doc.dups[1].first_off, doc.dups[0].key_off);
	/* the first value is the one read */
	uint32_t arr = tl_json_obj_get(&doc, 0, "a");
	ATF_REQUIRE(arr != JNONE);
	ATF_CHECK_EQ(jn(&doc, arr)->count, 3);
	tl_json_free(&doc);
	free(text);
}

/* With the known keys given, the value of any other top-level key is one
 * node with nothing inside, however deep or long; it is still checked (a
 * syntax error inside it fails the parse) and its repeated keys are still
 * found. */
ATF_TC_WITHOUT_HEAD(unknown_values_dropped);
ATF_TC_BODY(unknown_values_dropped, tc)
{
	static const char *const known[] = { "A" };
	static const char text[] = "{\"A\": [1, 2], \"B\": [[[0, 1], {\"y\": 2}]], \"C\": {\"x\": 1, \"x\": [3]}}";
	struct tl_json_parse_opts o = { NULL, 0, known, 1, NULL, SIZE_MAX, 0 };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_with(&doc, (const uint8_t *)text, sizeof text - 1, &o, &err));
	/* root, A, [1, 2] and its two numbers, B and its value, C and its value */
	ATF_CHECK_EQ(doc.n, 9);
	uint32_t b = tl_json_obj_get(&doc, 0, "B"), c = tl_json_obj_get(&doc, 0, "C");
	ATF_REQUIRE(b != JNONE && c != JNONE);
	ATF_CHECK(jn(&doc, b)->flags & JF_DROPPED);
	ATF_CHECK_EQ(jn(&doc, b)->type, J_ARR);
	ATF_CHECK_EQ(jn(&doc, b)->first, JNONE);
	ATF_CHECK_EQ(jn(&doc, c)->type, J_OBJ);
	ATF_CHECK_EQ(jn(&doc, c)->count, 0);
	ATF_CHECK(!(jn(&doc, tl_json_obj_get(&doc, 0, "A"))->flags & JF_DROPPED));
	ATF_REQUIRE_EQ(doc.ndups, 1);
	ATF_CHECK_STREQ(doc.dups[0].pointer, "/C/x");
	tl_json_free(&doc);

	static const char bad[] = "{\"A\": 1, \"B\": [[0, 1], [2,]]}";
	ATF_CHECK(!tl_json_parse_with(&doc, (const uint8_t *)bad, sizeof bad - 1, &o, &err));
	ATF_CHECK_EQ(err.kind, JE_SYNTAX);
	ATF_CHECK_EQ(err.off, strstr(bad, ",]") - bad + 1);
	tl_json_free(&doc);
}

/* 10^5 distinct keys, then each again: the open keys cost their 24 bytes
 * and a hash slot each, and every repeat is found. */
ATF_TC_WITHOUT_HEAD(distinct_keys_then_repeats);
ATF_TC_BODY(distinct_keys_then_repeats, tc)
{
	size_t n = 100000, k = 0;
	char *text = malloc(2 * n * 16 + 16);
	ATF_REQUIRE(text);
	text[k++] = '{';
	for (size_t r = 0; r < 2; r++)
		for (size_t i = 0; i < n; i++)
			k += (size_t)sprintf(text + k, "%s\"k%zu\":0", r || i ? "," : "", i);
	text[k++] = '}';
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, k, NULL, 0, NULL, 0, &err));
	ATF_CHECK_EQ(doc.dups_dropped, n);
	ATF_CHECK_EQ(doc.n, 1 + 2 * n);
	tl_json_free(&doc);
	free(text);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, node_size);
	ATF_TP_ADD_TC(tp, repeated_keys_capped);
	ATF_TP_ADD_TC(tp, repeated_keys_kept_in_report_order);
	ATF_TP_ADD_TC(tp, repeats_build_nothing);
	ATF_TP_ADD_TC(tp, unknown_values_dropped);
	ATF_TP_ADD_TC(tp, distinct_keys_then_repeats);
	return atf_no_error();
}
