/* The JSON layer against the JSON parser conformance suite (JSONTestSuite's
 * test_parsing, kept in tests/json/JSONTestSuite): every y_ case accepted, every n_ case rejected, and the
 * i_ cases decided as documented in specs/dcfg.md; and every case, wrapped
 * in a lazy table, read exactly as without lazy tables. */
#include <atf-c.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_tree.h"

/* i_ cases we accept: numbers of any size (integer fields check ranges
 * later), well-formed \u escapes whatever their surrogate pairing, and 500
 * levels of nesting. All other i_ cases (bad UTF-8, UTF-16, BOM) are rejected. */
static bool i_accepted(const char *name)
{
	static const char *const escaped_surrogates[] = {
		"i_object_key_lone_2nd_surrogate.json", "i_string_1st_surrogate_but_2nd_missing.json",
		"i_string_1st_valid_surrogate_2nd_invalid.json", "i_string_incomplete_surrogate_and_escape_valid.json",
		"i_string_incomplete_surrogate_pair.json", "i_string_incomplete_surrogates_escape_valid.json",
		"i_string_invalid_lonely_surrogate.json", "i_string_invalid_surrogate.json",
		"i_string_inverted_surrogates_U+1D11E.json", "i_string_lone_second_surrogate.json",
		"i_structure_500_nested_arrays.json",
	};
	if (!strncmp(name, "i_number_", 9))
		return true;
	for (size_t i = 0; i < sizeof escaped_surrogates / sizeof *escaped_surrogates; i++)
		if (!strcmp(name, escaped_surrogates[i]))
			return true;
	return false;
}

/* The suite is kept in the repository (tests/json/JSONTestSuite, MIT), so
 * it is found in every checkout; TRACELINT_JSON_SUITE may name another copy. */
static const char *suite_dir(void)
{
	const char *env = getenv("TRACELINT_JSON_SUITE");
	return env ? env : TL_SOURCE_DIR "/tests/json/JSONTestSuite/test_parsing";
}

/* The same bytes read with and without lazy tables must give the same
 * verdict, error (offset, line, column, message) and repeated keys: the
 * lazy path scans table content with its own loop and must hand every
 * case it does not cover back to the general parser. */
static unsigned lazy_disagreements(const char *name, const uint8_t *text, size_t n)
{
	static const struct tl_json_lazy_key lazy[] = { { "T", true }, { "C", false } };
	static const char *const wraps[][2] = {
		{ "{\"T\": [", "]}" },                  /* a row of a lazy key's table */
		{ "{\"X\": [[\"C\"], [[", "]]]}" },   /* a cell of a lazy column */
	};
	static uint8_t buf[(1 << 20) + 64];
	unsigned bad = 0;
	for (size_t w = 0; w < 2; w++) {
		size_t a = strlen(wraps[w][0]), b = strlen(wraps[w][1]);
		if (n + a + b > sizeof buf)
			continue;
		memcpy(buf, wraps[w][0], a);
		memcpy(buf + a, text, n);
		memcpy(buf + a + n, wraps[w][1], b);
		struct tl_json_doc plain, lazied;
		struct tl_json_error e1, e2;
		bool ok1 = tl_json_parse(&plain, buf, n + a + b, &e1);
		bool ok2 = tl_json_parse_lazy(&lazied, buf, n + a + b, lazy, 2, NULL, SIZE_MAX, &e2);
		if (ok1 != ok2 || e1.off != e2.off || e1.line != e2.line || e1.col != e2.col ||
		    strcmp(e1.msg, e2.msg) || plain.ndups != lazied.ndups) {
			fprintf(stderr, "%s (wrap %zu): plain %d at %llu \"%s\", lazy %d at %llu \"%s\"\n", name, w, ok1,
				(unsigned long long)e1.off, e1.msg, ok2, (unsigned long long)e2.off, e2.msg);
			bad++;
		}
		tl_json_free(&plain);
		tl_json_free(&lazied);
	}
	return bad;
}

static bool parse_file(const char *path, const char *name, bool *ok, unsigned *lazy_bad)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	struct tl_json_doc doc;
	struct tl_json_error err;
	*ok = tl_json_parse(&doc, buf, n, &err);
	tl_json_free(&doc);
	*lazy_bad += lazy_disagreements(name, buf, n);
	return true;
}

ATF_TC(conformance_suite);
ATF_TC_HEAD(conformance_suite, tc)
{
	atf_tc_set_md_var(tc, "descr", "y_ accepted, n_ rejected, i_ as documented");
}
ATF_TC_BODY(conformance_suite, tc)
{
	const char *dir = suite_dir();
	DIR *d = opendir(dir);
	if (!d)
		atf_tc_fail("JSON conformance suite not found at %s", dir);
	struct dirent *e;
	unsigned y = 0, n = 0, i = 0, failures = 0, lazy_bad = 0;
	while ((e = readdir(d))) {
		const char *name = e->d_name;
		if (name[0] == '.' || name[1] != '_')
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, name);
		bool ok;
		if (!parse_file(path, name, &ok, &lazy_bad))
			continue;
		bool want = name[0] == 'y' || (name[0] == 'i' && i_accepted(name));
		if (name[0] == 'y')
			y++;
		else if (name[0] == 'n')
			n++;
		else if (name[0] == 'i')
			i++;
		else
			continue;
		if (ok != want) {
			fprintf(stderr, "%s: expected %s, got %s\n", name, want ? "accept" : "reject", ok ? "accept" : "reject");
			failures++;
		}
	}
	closedir(d);
	ATF_CHECK_MSG(y > 90 && n > 150, "suite incomplete: %u y_, %u n_", y, n);
	ATF_CHECK_EQ_MSG(failures, 0, "%u of %u cases disagree", failures, y + n + i);
	ATF_CHECK_EQ_MSG(lazy_bad, 0, "%u wrapped cases read differently through lazy tables", lazy_bad);
}

ATF_TC_WITHOUT_HEAD(positions_and_pointer);
ATF_TC_BODY(positions_and_pointer, tc)
{
	static const char text[] = "{\n \"a\": [1,\n  {\"b/~\": true}]}";
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse(&doc, (const uint8_t *)text, sizeof text - 1, &err));
	uint32_t t = JNONE;
	for (uint32_t k = 0; k < doc.n; k++)
		if (doc.nodes[k].type == J_TRUE)
			t = k;
	ATF_REQUIRE(t != JNONE);
	uint32_t line, col;
	tl_json_line_col(&doc, doc.nodes[t].off, &line, &col);
	ATF_CHECK_EQ(line, 3);
	ATF_CHECK_EQ(col, 11);
	char ptr[64];
	tl_json_pointer(&doc, t, ptr, sizeof ptr);
	ATF_CHECK_STREQ(ptr, "/a/1/b~1~0");
	tl_json_free(&doc);
}

/* A table under a lazy key: one skeleton node with its row count, rows read
 * on demand through pins, positions and pointers as in a full parse, and
 * duplicate keys inside rows still found by pass 1. */
ATF_TC_WITHOUT_HEAD(lazy_rows);
ATF_TC_BODY(lazy_rows, tc)
{
	static const char text[] = "{\"x\": 1,\n \"T\": [[\"A\", \"B\"],\n  [1, 2],\n  [3, {\"k\": 4, \"k\": 5}]]}";
	static const struct tl_json_lazy_key lazy[] = { { "T", true } };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, sizeof text - 1, lazy, 1, NULL, SIZE_MAX, &err));
	uint32_t tbl = tl_json_obj_get(&doc, 0, "T");
	ATF_REQUIRE(tbl != JNONE);
	ATF_CHECK(jn(&doc, tbl)->flags & JF_LAZY);
	ATF_CHECK_EQ(jn(&doc, tbl)->count, 3);
	ATF_CHECK_EQ(doc.nskel, 5); /* root, 2 keys, 1, the table: nothing of the rows */
	uint32_t header = jn(&doc, tbl)->first, row1 = jsibling(&doc, header), row2 = jsibling(&doc, row1);
	ATF_REQUIRE(header & JPIN);
	ATF_CHECK_EQ(jsibling(&doc, row2), JNONE);
	uint32_t line, col;
	tl_json_line_col(&doc, tl_json_off(&doc, row2), &line, &col); /* before any row is read */
	ATF_CHECK_EQ(line, 4);
	ATF_CHECK_EQ(col, 3);
	ATF_CHECK_EQ(jn(&doc, row2)->count, 2);
	uint32_t obj = jsibling(&doc, jn(&doc, row2)->first);
	ATF_CHECK_EQ(jn(&doc, obj)->type, J_OBJ);
	uint32_t four = tl_json_obj_get(&doc, obj, "k");
	tl_json_line_col(&doc, jn(&doc, four)->off, &line, &col);
	ATF_CHECK_EQ(line, 4);
	ATF_CHECK_EQ(col, 13);
	char ptr[64];
	tl_json_pointer(&doc, four, ptr, sizeof ptr);
	ATF_CHECK_STREQ(ptr, "/T/2/1/k");
	/* back to an earlier row: read again from its remembered offset */
	ATF_CHECK_EQ(jn(&doc, row1)->count, 2);
	ATF_CHECK_EQ(jn(&doc, jn(&doc, row1)->first)->off, 31);
	tl_json_line_col(&doc, tl_json_off(&doc, row2), &line, &col);
	ATF_CHECK_EQ(line, 4);
	ATF_CHECK_EQ(col, 3);
	tl_json_pointer(&doc, row2, ptr, sizeof ptr);
	ATF_CHECK_STREQ(ptr, "/T/2");
	ATF_REQUIRE_EQ(doc.ndups, 1);
	ATF_CHECK_STREQ(doc.dups[0].pointer, "/T/2/1/k");
	tl_json_line_col(&doc, doc.dups[0].first_off, &line, &col);
	ATF_CHECK_EQ(col, 8);
	tl_json_free(&doc);
}

/* Values inside rows located by position from the text (tl_json_locate):
 * in a pinned row not current, in a built node, never reading a row; false
 * where the path leads nowhere or the row's text is gone (unpinned). */
ATF_TC_WITHOUT_HEAD(locate_values_of_rows);
ATF_TC_BODY(locate_values_of_rows, tc)
{
	static const char text[] = "{\"x\": [5, [6, 7]],\n \"T\": [[\"A\", \"B\"],\n  [1, [2, 3]],\n  [4 , [ ]]],\n"
				   " \"U\": [[\"A\"], [8], [9]]}";
	static const struct tl_json_lazy_key lazy[] = { { "T", true }, { "U", false } };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, sizeof text - 1, lazy, 2, NULL, SIZE_MAX, &err));
	uint32_t t = tl_json_obj_get(&doc, 0, "T"), u = tl_json_obj_get(&doc, 0, "U"), x = tl_json_obj_get(&doc, 0, "x");
	uint32_t row1 = jsibling(&doc, jn(&doc, t)->first), row2 = jsibling(&doc, row1);
	uint32_t urow1 = jsibling(&doc, jn(&doc, u)->first), urow2 = jsibling(&doc, urow1);
	char ptr[64];
	uint64_t off;
	uint32_t line, col;
	const uint32_t inner[] = { 1, 1 }, first[] = { 0 }, past[] = { 2 }, empty[] = { 1, 0 }, scalar[] = { 0, 0 };
	ATF_REQUIRE(tl_json_locate(&doc, row1, inner, 2, &off, ptr, sizeof ptr)); /* a row not read yet */
	tl_json_line_col(&doc, off, &line, &col);
	ATF_CHECK_EQ(line, 3);
	ATF_CHECK_EQ(col, 11);
	ATF_CHECK_STREQ(ptr, "/T/1/1/1");
	ATF_CHECK_EQ(jn(&doc, row2)->count, 2); /* row 2 current: row 1 located from its text */
	ATF_REQUIRE(tl_json_locate(&doc, row1, first, 1, &off, ptr, sizeof ptr));
	ATF_CHECK_EQ(off, tl_json_off(&doc, row1) + 1);
	ATF_CHECK_STREQ(ptr, "/T/1/0");
	ATF_CHECK_EQ(doc.cur_row, 2);
	ATF_REQUIRE(tl_json_locate(&doc, row2, NULL, 0, &off, ptr, sizeof ptr));
	ATF_CHECK_EQ(off, tl_json_off(&doc, row2));
	ATF_CHECK_STREQ(ptr, "/T/2");
	strcpy(ptr, "untouched");
	ATF_CHECK(!tl_json_locate(&doc, row2, past, 1, &off, ptr, sizeof ptr));
	ATF_CHECK(!tl_json_locate(&doc, row2, empty, 2, &off, ptr, sizeof ptr));
	ATF_CHECK_STREQ(ptr, "untouched");
	ATF_REQUIRE(tl_json_locate(&doc, x, inner, 2, &off, ptr, sizeof ptr)); /* a built node */
	ATF_CHECK_EQ(text[off], '7');
	ATF_CHECK_STREQ(ptr, "/x/1/1");
	ATF_CHECK(!tl_json_locate(&doc, x, scalar, 2, &off, ptr, sizeof ptr));
	ATF_CHECK_EQ(jn(&doc, urow2)->count, 1);
	ATF_REQUIRE(tl_json_locate(&doc, urow2, first, 1, &off, ptr, sizeof ptr)); /* current */
	ATF_CHECK_EQ(text[off], '9');
	ATF_CHECK_STREQ(ptr, "/U/2/0");
	ATF_CHECK(!tl_json_locate(&doc, urow1, first, 1, &off, ptr, sizeof ptr)); /* unpinned and gone */
	tl_json_free(&doc);
}

/* A pinned table keeps the start of every 16th row only: once its rows
 * are gone, every row is still found (in any order, by position and by
 * reading it again), and a walk in order still reads each row once. */
ATF_TC_WITHOUT_HEAD(pinned_rows_between_kept_starts);
ATF_TC_BODY(pinned_rows_between_kept_starts, tc)
{
	enum { ROWS = 53 };
	char text[ROWS * 24 + 64];
	uint64_t start[ROWS];
	size_t len = (size_t)snprintf(text, sizeof text, "{\"T\": [[\"A\", \"B\"]");
	for (int i = 0; i < ROWS; i++) {
		len += (size_t)snprintf(text + len, sizeof text - len, ",%s", i % 3 ? " " : "\n  ");
		start[i] = len;
		/* rows of different widths: a name of 0 to 6 letters */
		len += (size_t)snprintf(text + len, sizeof text - len, "[%d, \"%.*s\"]", i, i % 7, "abcdefg");
	}
	len += (size_t)snprintf(text + len, sizeof text - len, "]}");
	static const struct tl_json_lazy_key lazy[] = { { "T", true } };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, len, lazy, 1, NULL, SIZE_MAX, &err));
	uint32_t row[ROWS], r = jsibling(&doc, jn(&doc, tl_json_obj_get(&doc, 0, "T"))->first);
	for (int i = 0; i < ROWS; i++, r = jsibling(&doc, r)) {
		ATF_REQUIRE(r != JNONE);
		row[i] = r;
		ATF_CHECK_EQ(jn(&doc, jn(&doc, r)->first)->off, start[i] + 1); /* read in order */
	}
	ATF_CHECK_EQ(r, JNONE);
	for (int i = ROWS - 1; i >= 0; i -= 5) /* gone rows, backwards: their text positions */
		ATF_CHECK_EQ(tl_json_off(&doc, row[i]), start[i]);
	for (int i = 0; i < ROWS; i += 7) { /* read again, skipping around */
		int k = (i * 31) % ROWS;
		ATF_CHECK_EQ(jn(&doc, jn(&doc, row[k])->first)->off, start[k] + 1);
		ATF_CHECK_EQ(jn(&doc, row[k])->off, start[k]);
	}
	tl_json_free(&doc);
}

/* A table whose header row is itself a lazy cell (found by dcfg_fuzzer):
 * looking for a lazy column must not walk into the pins of that header. */
ATF_TC_WITHOUT_HEAD(lazy_header_of_a_nested_table);
ATF_TC_BODY(lazy_header_of_a_nested_table, tc)
{
	static const char text[] = "{\"O\": [[\"C\"], [[1], [[2]]]]}";
	static const struct tl_json_lazy_key lazy[] = { { "C", true } };
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, sizeof text - 1, lazy, 1, NULL, SIZE_MAX, &err));
	uint32_t row = jsibling(&doc, jn(&doc, tl_json_obj_get(&doc, 0, "O"))->first);
	uint32_t cell = jn(&doc, row)->first;
	ATF_CHECK(jn(&doc, cell)->flags & JF_LAZY);
	ATF_CHECK_EQ(jn(&doc, jsibling(&doc, cell))->count, 1);
	tl_json_free(&doc);
}

/* Only the first repeated keys in report order keep their pointer; the
 * outer object's repeat comes first although it is found last (at the
 * outer object's close). */
ATF_TC_WITHOUT_HEAD(kept_duplicates);
ATF_TC_BODY(kept_duplicates, tc)
{
	static const char text[] = "{\"a\": {\"x\": 1, \"x\": 2, \"y\": 3, \"y\": 4}, \"a\": 5}";
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&doc, (const uint8_t *)text, sizeof text - 1, NULL, 0, NULL, 2, &err));
	ATF_REQUIRE_EQ(doc.ndups, 2);
	ATF_CHECK_EQ(doc.dups_dropped, 1);
	ATF_CHECK_STREQ(doc.dups[0].pointer, "/a");
	ATF_CHECK_STREQ(doc.dups[1].pointer, "/a/x");
	ATF_CHECK_EQ(doc.dups[0].key_off, 40);
	tl_json_free(&doc);
	ATF_REQUIRE(tl_json_parse(&doc, (const uint8_t *)text, sizeof text - 1, &err));
	ATF_REQUIRE_EQ(doc.ndups, 3);
	ATF_CHECK_STREQ(doc.dups[2].pointer, "/a/y");
	tl_json_free(&doc);
}

/* Line and column come from a 64 KiB block index: check a value well past
 * several blocks, on a long line that starts in an earlier block. */
ATF_TC_WITHOUT_HEAD(line_index);
ATF_TC_BODY(line_index, tc)
{
	size_t lines = 30000, pad = 100000, n = 1 + lines + pad + 8;
	uint8_t *buf = malloc(n);
	ATF_REQUIRE(buf);
	size_t k = 0;
	buf[k++] = '[';
	memset(buf + k, '\n', lines);
	k += lines;
	memset(buf + k, ' ', pad);
	k += pad;
	memcpy(buf + k, "true]", 5);
	k += 5;
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse(&doc, buf, k, &err));
	uint32_t line, col;
	tl_json_line_col(&doc, doc.nodes[1].off, &line, &col);
	ATF_CHECK_EQ(line, lines + 1);
	ATF_CHECK_EQ(col, pad + 1);
	tl_json_free(&doc);
	free(buf);
}

/* A pointer into a buffer too short for it is a NUL-terminated prefix of
 * the whole (none at all into no buffer); an offset past the text is placed
 * at its end. */
ATF_TC_WITHOUT_HEAD(pointer_truncated_and_offset_past_end);
ATF_TC_BODY(pointer_truncated_and_offset_past_end, tc)
{
	static const char text[] = "{\"abc\": {\"d/e\": [1, 2]}}";
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse(&doc, (const uint8_t *)text, sizeof text - 1, &err));
	uint32_t arr = tl_json_obj_get(&doc, tl_json_obj_get(&doc, 0, "abc"), "d/e");
	ATF_REQUIRE(arr != JNONE);
	uint32_t two = jsibling(&doc, jn(&doc, arr)->first);
	char full[64], part[64];
	tl_json_pointer(&doc, two, full, sizeof full);
	ATF_CHECK_STREQ(full, "/abc/d~1e/1");
	for (size_t n = 1; n < strlen(full); n++) {
		memset(part, 'x', sizeof part);
		tl_json_pointer(&doc, two, part, n);
		ATF_CHECK_MSG(memchr(part, 0, n) != NULL, "no NUL within %zu bytes", n);
		ATF_CHECK_MSG(!strncmp(full, part, strlen(part)), "%zu bytes: \"%s\" is no prefix", n, part);
		ATF_CHECK_EQ(part[n], 'x');
	}
	tl_json_pointer(&doc, two, NULL, 0);
	ATF_CHECK(!tl_json_str_eq(&doc, two, "2")); /* a number never reads as a name */
	uint32_t line, col;
	tl_json_line_col(&doc, sizeof text + 100, &line, &col);
	ATF_CHECK_EQ(line, 1);
	ATF_CHECK_EQ(col, sizeof text); /* just past the last byte */
	tl_json_free(&doc);
}

ATF_TC_WITHOUT_HEAD(depth_bounded);
ATF_TC_BODY(depth_bounded, tc)
{
	size_t n = 100000;
	uint8_t *buf = malloc(n);
	ATF_REQUIRE(buf);
	memset(buf, '[', n);
	struct tl_json_doc doc;
	struct tl_json_error err;
	ATF_CHECK(!tl_json_parse(&doc, buf, n, &err));
	ATF_CHECK_EQ(err.kind, JE_DEPTH);
	ATF_CHECK_EQ(err.col, JSON_MAX_DEPTH + 1);
	tl_json_free(&doc);
	free(buf);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, conformance_suite);
	ATF_TP_ADD_TC(tp, positions_and_pointer);
	ATF_TP_ADD_TC(tp, depth_bounded);
	ATF_TP_ADD_TC(tp, lazy_rows);
	ATF_TP_ADD_TC(tp, locate_values_of_rows);
	ATF_TP_ADD_TC(tp, line_index);
	ATF_TP_ADD_TC(tp, kept_duplicates);
	ATF_TP_ADD_TC(tp, lazy_header_of_a_nested_table);
	ATF_TP_ADD_TC(tp, pinned_rows_between_kept_starts);
	ATF_TP_ADD_TC(tp, pointer_truncated_and_offset_past_end);
	return atf_no_error();
}
