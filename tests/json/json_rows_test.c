/* Rows of lazy tables read back (pass 2) give the nodes the whole-document
 * parse builds for the same text, whatever order the rows are asked in:
 * walks, jumps past the remembered row starts, going back, two tables in
 * turn; and the offsets, pointers and locations of rows that are not the
 * current one, or of ids that name nothing. */
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_tree.h"

#define ROWS 100

/* Row i of a table: every kind of value, empty containers, objects (which
 * send pass 1 to the general parser and make skipped rows hold keys). */
static size_t put_row(char *out, unsigned i, bool objects)
{
	switch (i % 8) {
	case 0: return (size_t)sprintf(out, "[%u, -%u.5e-3, \"s%u\"]", i, i, i);
	case 1: return (size_t)sprintf(out, "[true, false, null, %u]", i);
	case 2: return objects ? (size_t)sprintf(out, "[{}, [], {\"a\": %u, \"b\": [true, null]}]", i)
			       : (size_t)sprintf(out, "[[], [[]], %u]", i);
	case 3: return (size_t)sprintf(out, "[\"esc\\\"aped\\u0041\", [[%u]], 0]", i);
	case 4: return objects ? (size_t)sprintf(out, "{\"k\": %u, \"l\": {\"m\": false}}", i)
			       : (size_t)sprintf(out, "[\"k\", %u]", i);
	case 5: return (size_t)sprintf(out, "%u", i);
	case 6: return (size_t)sprintf(out, "\"str%u\"", i);
	default: return (size_t)sprintf(out, "[ 1 , 2 ,\n %u ]", i);
	}
}

/* {"T": [rows with objects], "U": [rows without]}: T is pinned, U is not. */
static char *make_doc(size_t *len)
{
	char *text = malloc(ROWS * 2 * 64 + 64), *p = text;
	ATF_REQUIRE(text);
	p += sprintf(p, "{\"T\": [");
	for (unsigned i = 0; i < ROWS; i++) {
		p += put_row(p, i, true);
		p += sprintf(p, i + 1 < ROWS ? ",\n" : "],\n\"U\": [");
	}
	for (unsigned i = 0; i < ROWS; i++) {
		p += put_row(p, i, false);
		p += sprintf(p, i + 1 < ROWS ? ", " : "]}");
	}
	*len = (size_t)(p - text);
	return text;
}

static const struct tl_json_lazy_key lazy_keys[] = { { "T", true }, { "U", false } };

struct pair {
	char *text;
	size_t len;
	struct tl_json_doc plain, lazy;
	uint32_t plain_rows[2][ROWS];
	uint32_t pin0[2], table[2], lazy_index[2];
};

/* The document read both ways. */
static void open_pair(struct pair *pr)
{
	struct tl_json_error err;
	pr->text = make_doc(&pr->len);
	const uint8_t *text = (const uint8_t *)pr->text;
	ATF_REQUIRE(tl_json_parse(&pr->plain, text, pr->len, &err));
	ATF_REQUIRE(tl_json_parse_lazy(&pr->lazy, text, pr->len, lazy_keys, 2, NULL, SIZE_MAX, &err));
	for (int t = 0; t < 2; t++) {
		const char *name = t ? "U" : "T";
		uint32_t tbl = tl_json_obj_get(&pr->plain, 0, name), r = pr->plain.nodes[tbl].first;
		for (unsigned i = 0; i < ROWS; i++, r = pr->plain.nodes[r].next)
			pr->plain_rows[t][i] = r;
		pr->table[t] = tl_json_obj_get(&pr->lazy, 0, name);
		ATF_REQUIRE(pr->table[t] != JNONE);
		ATF_REQUIRE_EQ(pr->lazy.nodes[pr->table[t]].count, ROWS);
		pr->pin0[t] = pr->lazy.nodes[pr->table[t]].first;
		ATF_REQUIRE(pr->pin0[t] & JPIN);
		pr->lazy_index[t] = UINT32_MAX;
		for (uint32_t l = 0; l < pr->lazy.nlazy; l++)
			if (pr->lazy.lazy[l].node == pr->table[t])
				pr->lazy_index[t] = l;
		ATF_REQUIRE(pr->lazy_index[t] != UINT32_MAX);
	}
}

static void close_pair(struct pair *pr)
{
	ATF_CHECK(!pr->lazy.nomem);
	tl_json_free(&pr->plain);
	tl_json_free(&pr->lazy);
	free(pr->text);
}

/* Node a of the lazy document and node b of the plain one hold the same
 * value: same type, place, size, flags and children. */
static bool same_tree(const struct tl_json_doc *x, uint32_t a, const struct tl_json_doc *y, uint32_t b)
{
	const struct tl_json_node *m = &x->nodes[a], *n = &y->nodes[b];
	if (m->type != n->type || m->off != n->off || m->count != n->count || m->flags != n->flags)
		return false;
	if (m->type != J_ARR && m->type != J_OBJ)
		return true;
	uint32_t i = m->first, j = n->first;
	for (uint32_t k = 0; i != JNONE && j != JNONE; k++, i = x->nodes[i].next, j = y->nodes[j].next)
		if (x->nodes[i].idx != k || y->nodes[j].idx != k || x->nodes[i].parent != a || !same_tree(x, i, y, j))
			return false;
	return i == JNONE && j == JNONE;
}

/* Reads row r of table t and checks it against the plain parse: its nodes,
 * its pointer, and the pointer of its last node (a cell of the row). */
static bool check_row(struct pair *pr, int t, unsigned r)
{
	uint32_t pin = pr->pin0[t] + r, pr_row = pr->plain_rows[t][r];
	const struct tl_json_node *n = tl_json_row(&pr->lazy, pin);
	if (n != &pr->lazy.nodes[pr->lazy.nskel] || !same_tree(&pr->lazy, pr->lazy.nskel, &pr->plain, pr_row)) {
		fprintf(stderr, "table %d row %u: not the plain parse's nodes\n", t, r);
		return false;
	}
	char a[256], b[256];
	tl_json_pointer(&pr->lazy, pin, a, sizeof a);
	tl_json_pointer(&pr->plain, pr_row, b, sizeof b);
	if (strcmp(a, b)) {
		fprintf(stderr, "table %d row %u: pointer %s, plain %s\n", t, r, a, b);
		return false;
	}
	tl_json_pointer(&pr->lazy, pr->lazy.n - 1, a, sizeof a);
	tl_json_pointer(&pr->plain, pr_row + (pr->lazy.n - 1 - pr->lazy.nskel), b, sizeof b);
	if (strcmp(a, b)) {
		fprintf(stderr, "table %d row %u, last node: pointer %s, plain %s\n", t, r, a, b);
		return false;
	}
	return tl_json_text_off(&pr->lazy, pin) == pr->plain.nodes[pr_row].off;
}

/* Every row in order, then every row of the other table. */
ATF_TC_WITHOUT_HEAD(rows_in_order);
ATF_TC_BODY(rows_in_order, tc)
{
	struct pair pr;
	open_pair(&pr);
	for (int t = 0; t < 2; t++)
		for (unsigned r = 0; r < ROWS; r++)
			ATF_CHECK_MSG(check_row(&pr, t, r), "table %d row %u", t, r);
	close_pair(&pr);
}

/* Rows asked in a scrambled order: next, a few ahead, far ahead (past
 * the remembered starts or not), back, the other table. Before each, the
 * offset of another row, which must leave the current row in place. */
ATF_TC_WITHOUT_HEAD(rows_in_any_order);
ATF_TC_BODY(rows_in_any_order, tc)
{
	for (uint32_t seed = 1; seed <= 8; seed++) {
		struct pair pr;
		open_pair(&pr);
		uint32_t x = seed * 2654435761u;
		unsigned cur[2] = { 0, 0 }, bad = 0;
		for (int step = 0; step < 300; step++) {
			x = x * 1664525u + 1013904223u;
			int t = (x >> 8) % 2;
			unsigned r;
			switch ((x >> 12) % 5) {
			case 0: r = cur[t] + 1; break;
			case 1: r = cur[t] + 2 + (x >> 16) % 15; break;
			case 2: r = cur[t] + 17 + (x >> 16) % 40; break;
			case 3: r = cur[t] - 1 - (x >> 16) % 30; break;
			default: r = (x >> 16) % ROWS;
			}
			r = (r + ROWS) % ROWS;
			/* another row's offset: pinned rows are found, unpinned ones
			 * only while current; the current row stays either way */
			unsigned o = (x >> 20) % ROWS;
			int ot = (x >> 27) % 2;
			uint32_t cl = pr.lazy.cur_lazy, crow = pr.lazy.cur_row;
			uint64_t off = tl_json_text_off(&pr.lazy, pr.pin0[ot] + o), want = pr.plain.nodes[pr.plain_rows[ot][o]].off;
			if (!ot || (cl == pr.lazy_index[ot] && crow == o))
				bad += off != want;
			else
				bad += off != UINT64_MAX ||
				       tl_json_off(&pr.lazy, pr.pin0[ot] + o) != pr.lazy.nodes[pr.table[ot]].off;
			bad += pr.lazy.cur_lazy != cl || pr.lazy.cur_row != crow;
			bad += !check_row(&pr, t, r);
			cur[t] = r;
		}
		ATF_CHECK_EQ_MSG(bad, 0, "seed %u: %u wrong answers", seed, bad);
		close_pair(&pr);
	}
}

/* Ids that name no row or no node (a pin past every table, a node past
 * the current row): the empty answers each reader documents, no reading. */
ATF_TC_WITHOUT_HEAD(ids_naming_nothing);
ATF_TC_BODY(ids_naming_nothing, tc)
{
	struct pair pr;
	open_pair(&pr);
	ATF_REQUIRE(check_row(&pr, 0, 3));
	uint32_t stray[] = { JPIN | (2 * ROWS), JPIN | 0x7fffffffu, pr.lazy.n, pr.lazy.cap + 5 };
	for (size_t k = 0; k < sizeof stray / sizeof *stray; k++) {
		uint32_t i = stray[k];
		char ptr[64] = "unchanged";
		tl_json_pointer(&pr.lazy, i, ptr, sizeof ptr);
		ATF_CHECK_STREQ(ptr, "");
		ATF_CHECK_EQ(tl_json_text_off(&pr.lazy, i), UINT64_MAX);
		ATF_CHECK_EQ(tl_json_off(&pr.lazy, i), 0);
		if (i & JPIN) {
			ATF_CHECK_EQ(tl_json_pin_next(&pr.lazy, i), JNONE);
			const struct tl_json_node *n = tl_json_row(&pr.lazy, i);
			ATF_CHECK(n->type == J_NULL && n->parent == UINT32_MAX && n->first == JNONE);
		}
	}
	/* the row read before is still the current one */
	ATF_CHECK_EQ(pr.lazy.cur_row, 3);
	ATF_CHECK(check_row(&pr, 0, 3));
	close_pair(&pr);

	/* a document without lazy tables has no rows at all */
	struct tl_json_doc d;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse(&d, (const uint8_t *)"[1, 2]", 6, &err));
	ATF_CHECK_EQ(tl_json_pin_next(&d, JPIN), JNONE);
	ATF_CHECK_EQ(tl_json_row(&d, JPIN)->type, J_NULL);
	ATF_CHECK_EQ(tl_json_text_off(&d, JPIN), UINT64_MAX);
	tl_json_free(&d);
}

/* tl_json_locate inside a row: paths that lead nowhere give false and
 * leave out alone; a caller wanting only the offset passes no buffer. */
ATF_TC_WITHOUT_HEAD(locate_in_rows);
ATF_TC_BODY(locate_in_rows, tc)
{
	struct pair pr;
	open_pair(&pr);
	/* rows of the unpinned table are located only while current */
	uint32_t row2 = pr.pin0[1] + 2;   /* [[], [[]], 2] */
	uint32_t row3 = pr.pin0[1] + 3;   /* ["esc\"aped\u0041", [[3]], 0] */
	uint64_t off = 0;
	char out[64] = "unchanged";
	static const uint32_t past_empty[] = { 0, 0 }, into_empty[] = { 0, 1 }, past_end[] = { 3 },
			      into_number[] = { 2, 0 }, deep[] = { 1, 0, 0 }, deep_past[] = { 1, 1 };
	ATF_CHECK(!tl_json_locate(&pr.lazy, row2, deep, 1, &off, out, sizeof out)); /* not read yet */
	ATF_REQUIRE(tl_json_row(&pr.lazy, row2)->type == J_ARR);
	ATF_CHECK(!tl_json_locate(&pr.lazy, row2, past_empty, 2, &off, out, sizeof out));
	ATF_CHECK(!tl_json_locate(&pr.lazy, row2, into_empty, 2, &off, out, sizeof out));
	ATF_CHECK(!tl_json_locate(&pr.lazy, row2, past_end, 1, &off, out, sizeof out));
	ATF_CHECK(!tl_json_locate(&pr.lazy, row2, into_number, 2, &off, out, sizeof out));
	ATF_REQUIRE(tl_json_row(&pr.lazy, row3)->type == J_ARR);
	ATF_CHECK(!tl_json_locate(&pr.lazy, row3, deep_past, 2, &off, out, sizeof out));
	ATF_CHECK_STREQ(out, "unchanged");
	ATF_REQUIRE(tl_json_locate(&pr.lazy, row3, deep, 3, &off, out, sizeof out));
	ATF_CHECK_STREQ(out, "/U/3/1/0/0");
	ATF_CHECK_EQ(pr.text[off], '3');
	uint64_t off2 = 0;
	ATF_REQUIRE(tl_json_locate(&pr.lazy, row3, deep, 3, &off2, NULL, 0));
	ATF_CHECK_EQ(off2, off);
	/* a pinned row that is not the current one is found from its start */
	ATF_REQUIRE(tl_json_row(&pr.lazy, pr.pin0[0] + 50)->type == J_ARR);
	ATF_REQUIRE(tl_json_locate(&pr.lazy, pr.pin0[0] + 3, deep, 3, &off, out, sizeof out));
	ATF_CHECK_STREQ(out, "/T/3/1/0/0");
	ATF_CHECK_EQ(pr.text[off], '3');
	ATF_CHECK_EQ(pr.lazy.cur_row, 50);
	close_pair(&pr);
}

/* A table at the top level: its rows are built (no key names the top
 * array), and the cells of a lazy column are read as tables of rows. */
ATF_TC_WITHOUT_HEAD(top_level_table);
ATF_TC_BODY(top_level_table, tc)
{
	static const char text[] = "[[\"T\", \"N\"], [[[1], [2, true]], 5]]";
	struct tl_json_doc d;
	struct tl_json_error err;
	ATF_REQUIRE(tl_json_parse_lazy(&d, (const uint8_t *)text, sizeof text - 1, lazy_keys, 2, NULL, SIZE_MAX, &err));
	uint32_t header = d.nodes[0].first, row = d.nodes[header].next;
	ATF_REQUIRE(!(header & JPIN) && !(row & JPIN));
	ATF_CHECK(d.nodes[header].type == J_ARR && d.nodes[header].count == 2 && !(d.nodes[header].flags & JF_LAZY));
	ATF_CHECK(d.nodes[row].type == J_ARR && d.nodes[row].count == 2);
	uint32_t cell = d.nodes[row].first;
	ATF_REQUIRE_EQ(d.nlazy, 1);
	ATF_CHECK_EQ(d.lazy[0].node, cell);
	ATF_CHECK(d.nodes[cell].flags & JF_LAZY);
	ATF_REQUIRE_EQ(d.nodes[cell].count, 2);
	const struct tl_json_node *r1 = tl_json_row(&d, d.nodes[cell].first + 1);
	ATF_CHECK(r1->type == J_ARR && r1->count == 2 && d.nodes[r1->first].type == J_NUM &&
		  d.nodes[d.nodes[r1->first].next].type == J_TRUE);
	char ptr[64];
	tl_json_pointer(&d, d.nodes[cell].first + 1, ptr, sizeof ptr);
	ATF_CHECK_STREQ(ptr, "/1/0/1");
	tl_json_free(&d);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, rows_in_order);
	ATF_TP_ADD_TC(tp, rows_in_any_order);
	ATF_TP_ADD_TC(tp, ids_naming_nothing);
	ATF_TP_ADD_TC(tp, locate_in_rows);
	ATF_TP_ADD_TC(tp, top_level_table);
	return atf_no_error();
}
