/* Salvage of DCFG and DCFG-trace JSON (specs/dcfg.md, specs/dcfg-trace.md;
 * man page, REPAIR).
 *
 * A scanner follows the JSON framing: the open arrays and objects, where
 * each one's last complete child ends, and which arrays are tables (their
 * first element an array of strings, the header row). A document cut short
 * or broken in its syntax is closed after the last complete child of the
 * innermost table (or object, if that validates), else of the one around
 * it, and so on outwards, so a partial row goes and every whole row before
 * it stays; a row broken in its syntax, or damage between two rows, is
 * dropped up to the next row that frames with the header's column count.
 * Errors in a well-formed document drop every table row they lie in at
 * once (a DCFG routine rule: the whole routine), and the validator is
 * asked again, so rows that referred to them go in the next round; every
 * drop is reported. */
#include "repair.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256
#define ROUNDS 16

struct level {
	char type;            /* '[' or '{' */
	size_t done;          /* where its last complete child ends (just after the opener at first) */
	size_t child;         /* where the child being read starts */
	size_t children;      /* complete children */
	bool table;           /* an array whose first child is an array of strings */
	bool strings_only;    /* (arrays) every complete child so far is a string */
	size_t key, key_len;  /* (objects) the key of the member being read */
	size_t name, name_len; /* the key this container is the value of, if any */
	size_t first, first_len; /* (arrays) the first string child: a header's first column */
	size_t col, col_len;  /* (tables) the header's first column, naming a table not under a key */
	size_t hdr, hdr_end;  /* (tables) the header row's text */
};

enum expect { VALUE, AFTER_VALUE, KEY, COLON, END };

struct scan {
	const char *t;
	size_t n;
	struct level lv[MAX_DEPTH];
	size_t depth;
	enum expect want;
	bool first;           /* the container just opened: a closer may come instead */
	size_t pos;           /* where scanning stopped */
	bool failed;          /* syntax broken at pos (or depth too great) */
	bool complete;        /* the top-level value is complete */
	/* table rows completed: counted, and named for the report */
	void (*on_row)(struct scan *s, const struct level *table, size_t end, void *user);
	void *user;
	size_t top_children;  /* children of the top-level container, once it closed */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A child of the innermost container (or the document) ended at end. */
static void child_done(struct scan *s, size_t end, bool was_string, bool was_string_array,
		       size_t first, size_t first_len)
{
	s->want = AFTER_VALUE;
	if (s->depth == 0) {
		s->complete = true;
		s->want = END;
		return;
	}
	struct level *l = &s->lv[s->depth - 1];
	if (l->type == '[') {
		if (l->children == 0) {
			l->table = was_string_array;
			l->hdr = l->child;
			l->hdr_end = end;
			l->col = first;
			l->col_len = first_len;
		}
		if (was_string && l->children == 0) {
			l->first = first;
			l->first_len = first_len;
		}
		if (l->children > 0 && l->table && s->on_row)
			s->on_row(s, l, end, s->user);
		l->strings_only = l->strings_only && was_string;
	}
	l->children++;
	l->done = end;
}

static size_t string_end(const char *t, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		unsigned char c = (unsigned char)t[i];
		if (c == '"')
			return i + 1;
		if (c == '\\')
			i++;
		else if (c < 0x20)
			return 0;
	}
	return 0;
}

static size_t scalar_end(const char *t, size_t n, size_t i)
{
	static const char *const words[] = { "true", "false", "null" };
	for (size_t w = 0; w < 3; w++) {
		size_t len = strlen(words[w]);
		if (n - i >= len && memcmp(t + i, words[w], len) == 0)
			return i + len;
	}
	size_t j = i;
	while (j < n && ((t[j] && strchr("+-.eE", t[j])) || (t[j] >= '0' && t[j] <= '9')))
		j++;
	return j > i && t[j - 1] != '-' && t[j - 1] != '+' && t[j - 1] != '.' && t[j - 1] != 'e' && t[j - 1] != 'E'
		       ? j : 0;
}

/* Scans on from where the last scan stopped to limit (limit <= n); stops
 * at the first syntax error. */
static void scan_more(struct scan *s, size_t limit)
{
	size_t i = s->pos;
	while (!s->failed && i < limit) {
		char c = s->t[i];
		if (is_space(c)) {
			i++;
			continue;
		}
		struct level *l = s->depth ? &s->lv[s->depth - 1] : NULL;
		if (s->want == END) {
			s->failed = true;
			break;
		}
		if ((c == ']' || c == '}') && l && l->type == (c == ']' ? '[' : '{') &&
		    (s->want == AFTER_VALUE || (s->first && (s->want == VALUE || s->want == KEY)))) {
			bool strings = l->type == '[' && l->strings_only && l->children > 0;
			size_t first = l->first, first_len = l->first_len;
			if (s->depth == 1)
				s->top_children = l->children;
			s->depth--;
			s->first = false;
			i++;
			child_done(s, i, false, strings, first, first_len);
			continue;
		}
		if (s->want == AFTER_VALUE) {
			if (c != ',' || !l) {
				s->failed = true;
				break;
			}
			s->want = l->type == '[' ? VALUE : KEY;
			s->first = false;
			i++;
			continue;
		}
		if (s->want == COLON) {
			if (c != ':') {
				s->failed = true;
				break;
			}
			s->want = VALUE;
			i++;
			continue;
		}
		if (s->want == KEY) {
			size_t e = c == '"' ? string_end(s->t, limit, i) : 0;
			if (!e) {
				s->failed = true;
				break;
			}
			l->child = i;
			l->key = i + 1;
			l->key_len = e - i - 2;
			s->want = COLON;
			s->first = false;
			i = e;
			continue;
		}
		/* a value */
		if (l && l->type == '[')
			l->child = i;
		if (c == '[' || c == '{') {
			if (s->depth == MAX_DEPTH) {
				s->failed = true;
				break;
			}
			struct level *nl = &s->lv[s->depth++];
			memset(nl, 0, sizeof *nl);
			nl->type = c;
			nl->done = i + 1;
			nl->strings_only = true;
			if (l && l->type == '{') {
				nl->name = l->key;
				nl->name_len = l->key_len;
			}
			s->want = c == '[' ? VALUE : KEY;
			s->first = true;
			i++;
			continue;
		}
		size_t e = c == '"' ? string_end(s->t, limit, i) : scalar_end(s->t, limit, i);
		/* a number running into the limit may be cut: 12 of 123 */
		if (!e || (c != '"' && e == limit)) {
			s->failed = true;
			break;
		}
		s->first = false;
		child_done(s, e, c == '"', false, i + 1, c == '"' ? e - i - 2 : 0);
		i = e;
	}
	s->pos = i;
}

/* Scans t[0, limit) from the start. */
static void scan_to(struct scan *s, size_t limit)
{
	s->pos = 0;
	s->depth = 0;
	s->want = VALUE;
	s->first = false;
	s->failed = s->complete = false;
	scan_more(s, limit);
}

/* ---- rows, counted per table name ---- */

struct tally {
	struct { char name[64]; uint64_t rows; } t[64];
	size_t count;
	uint64_t total;
	uint64_t before;        /* count only rows ending at or before this offset */
};

static void count_row(struct scan *s, const struct level *table, size_t end, void *user)
{
	struct tally *y = user;
	if (end > y->before)
		return;
	y->total++;
	char name[64];
	if (table->name_len)
		snprintf(name, sizeof name, "%.*s", (int)(table->name_len < 60 ? table->name_len : 60),
			 s->t + table->name);
	else
		snprintf(name, sizeof name, "[%.*s, ...]", (int)(table->col_len < 50 ? table->col_len : 50),
			 s->t + table->col);
	for (size_t i = 0; i < y->count; i++)
		if (strcmp(y->t[i].name, name) == 0) {
			y->t[i].rows++;
			return;
		}
	if (y->count < sizeof y->t / sizeof y->t[0]) {
		snprintf(y->t[y->count].name, sizeof y->t[0].name, "%s", name);
		y->t[y->count++].rows = 1;
	}
}

static void tally(const char *t, size_t n, uint64_t before, struct tally *y)
{
	struct scan *s = calloc(1, sizeof *s);
	memset(y, 0, sizeof *y);
	y->before = before;
	if (!s)
		return;
	s->t = t;
	s->n = n;
	s->on_row = count_row;
	s->user = y;
	scan_to(s, n);
	free(s);
}

uint64_t tl_repair_json_records(const uint8_t *data, size_t size, uint64_t before)
{
	struct tally y;
	tally((const char *)data, size, before, &y);
	return y.total;
}

/* ---- the salvage ---- */

struct removal {
	uint64_t at, len;       /* in the input */
};

struct js {
	struct tl_repair_job *job;
	char *cur;              /* the candidate */
	size_t len;
	struct removal *rm;     /* rows removed so far, in input offsets */
	size_t rm_count, rm_cap;
	struct scan *s;
	struct tally *lost;     /* rows dropped, by table */
	size_t routines_cut;    /* routines dropped one by one */
};

static void lose(struct js *j, const char *name, uint64_t rows)
{
	struct tally *y = j->lost;
	for (size_t i = 0; i < y->count; i++)
		if (strcmp(y->t[i].name, name) == 0) {
			y->t[i].rows += rows;
			return;
		}
	if (rows && y->count < sizeof y->t / sizeof y->t[0]) {
		snprintf(y->t[y->count].name, sizeof y->t[0].name, "%s", name);
		y->t[y->count++].rows = rows;
	}
}

/* The rows of text[0, n) that after holds no more of, as lost. */
static void lose_difference(struct js *j, const char *text, size_t n, const char *after, size_t after_len)
{
	struct tally *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	if (a && b) {
		tally(text, n, UINT64_MAX, a);
		tally(after, after_len, UINT64_MAX, b);
		for (size_t i = 0; i < a->count; i++) {
			uint64_t left = 0;
			for (size_t k = 0; k < b->count; k++)
				if (strcmp(b->t[k].name, a->t[i].name) == 0)
					left = b->t[k].rows;
			if (a->t[i].rows > left)
				lose(j, a->t[i].name, a->t[i].rows - left);
		}
	}
	free(a);
	free(b);
}

static void table_name(const struct scan *s, const struct level *l, char *name, size_t len)
{
	if (l->name_len)
		snprintf(name, len, "%.*s", (int)(l->name_len < 60 ? l->name_len : 60), s->t + l->name);
	else
		snprintf(name, len, "[%.*s, ...]", (int)(l->col_len < 50 ? l->col_len : 50), s->t + l->col);
}

/* One row of the table at level (with the rows of the tables inside it) as lost. */
static void lose_row(struct js *j, const struct level *table, const char *row, size_t len)
{
	char name[64];
	table_name(j->s, table, name, sizeof name);
	lose(j, name, 1);
	if (row)
		lose_difference(j, row, len, "", 0);
}

/* The input offset of candidate offset off. */
static uint64_t to_input(const struct js *j, uint64_t off)
{
	for (size_t i = 0; i < j->rm_count; i++)
		if (j->rm[i].at <= off)
			off += j->rm[i].len;
	return off;
}

/* Candidate bytes [from, end), about to be removed, as dropped: one change
 * per range they make up in the input (bytes dropped before may lie between). */
static void dropped(struct js *j, size_t from, size_t end, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void dropped(struct js *j, size_t from, size_t end, const char *rule, const char *fmt, ...)
{
	char what[sizeof j->job->report->changes->what];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	while (from < end) {
		uint64_t at = to_input(j, from), piece = end - from;
		for (size_t i = 0; i < j->rm_count; i++)
			if (j->rm[i].at > at && j->rm[i].at - at < piece)
				piece = j->rm[i].at - at;
		tl_repair_change(j->job, TL_REPAIR_DROPPED, at, piece, rule, "%s", what);
		from += (size_t)piece;
	}
}

static bool probe(struct js *j, const char *t, size_t n, struct tl_repair_probe *p)
{
	return tl_repair_probe_run(j->job, t, n, p);
}

/* Columns a row cut short lacks that can be given as empty tables, so the
 * row is whole (DCFG-trace's nested tables); other columns cannot be made up. */
static const struct { const char *column, *empty; } empty_columns[] = {
	{ "STRING_DICTIONARY", "{}" },
	{ "TRANSITION_TABLE", "[[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]]" },
	{ "THREAD_DATA", "[[\"THREAD_ID\", \"TRACE_DATA\"]]" },
	{ "TRACE_DATA", "[[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
			"\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"]]" },
};

/* Appends the empty tables for the columns of table's header from column
 * have on; false when one of them has no empty form. */
static bool fill_columns(const struct scan *s, const struct level *table, size_t have, char *out,
			 size_t *n, char *added, size_t added_len)
{
	size_t col = 0;
	for (size_t i = table->hdr; i < table->hdr_end; i++) {
		if (s->t[i] != '"')
			continue;
		size_t e = string_end(s->t, table->hdr_end, i);
		if (!e)
			return false;
		if (col++ >= have) {
			size_t k = 0, len = e - i - 2;
			while (k < sizeof empty_columns / sizeof empty_columns[0] &&
			       (strlen(empty_columns[k].column) != len ||
				memcmp(empty_columns[k].column, s->t + i + 1, len) != 0))
				k++;
			if (k == sizeof empty_columns / sizeof empty_columns[0])
				return false;
			*n += (size_t)sprintf(out + *n, ", %s", empty_columns[k].empty);
			size_t used = strlen(added);
			snprintf(added + used, added_len - used, "%s%s", used ? ", " : "",
				 empty_columns[k].column);
		}
		i = e - 1;
	}
	return true;
}

#define FILL_ROOM 512   /* bytes of empty tables a level may add */

/* Closes the candidate after the last complete child of the level-th open
 * container (counted from the outside), into out; 0 when a row it closes
 * lacks a column that cannot be made up. added names the columns given. */
static size_t close_at(const struct scan *s, size_t level, char *out, char *added, size_t added_len)
{
	size_t n = s->lv[level].done;
	memcpy(out, s->t, n);
	added[0] = '\0';
	for (size_t d = level + 1; d-- > 0;) {
		const struct level *l = &s->lv[d];
		if (d > 0 && l->type == '[' && s->lv[d - 1].type == '[' && s->lv[d - 1].table &&
		    s->lv[d - 1].children >= 1 &&
		    !fill_columns(s, &s->lv[d - 1], l->children + (d < level), out, &n, added, added_len))
			return 0;
		out[n++] = l->type == '[' ? ']' : '}';
	}
	out[n++] = '\n';
	return n;
}

/* A cut or broken document: the first closing the validator accepts. */
static bool close_document(struct js *j, size_t stop, const char *rule, bool check)
{
	struct scan *s = j->s;
	scan_to(s, stop);
	char *out = malloc(stop + (size_t)(s->depth + 1) * FILL_ROOM + 2);
	char added[256];
	if (!out) {
		j->job->report->out_of_memory = true;
		return false;
	}
	struct tl_repair_probe p = { 0 };
	/* after the last whole row of a table, innermost first; else after the
	 * last whole member of the top-level object */
	for (size_t d = s->depth; d-- > 0;) {
		/* an object closed after its last whole member is kept only if it
		 * validates (a member it needs may be the one cut) */
		bool object = s->lv[d].type == '{' && d > 0;
		if (!s->lv[d].table && d > 0 && !object)
			continue;
		size_t n = close_at(s, d, out, added, sizeof added);
		if (!n || ((check || object) && !probe(j, out, n, &p)))
			continue;
		if (added[0])
			tl_repair_change(j->job, TL_REPAIR_ADDED, to_input(j, s->lv[d].done), 0,
					 "JSON-TABLE-COLUMN", "empty %s added, so the rows cut short are whole", added);
		uint64_t from = to_input(j, s->lv[d].done);
		tl_repair_change(j->job, TL_REPAIR_DROPPED, from, j->job->size - from, rule,
				 "%s from here on%s; the document is closed after the last whole %s "
				 "(%zu bracket%s added)",
				 s->failed && s->pos < j->len ? "bytes that do not frame as JSON"
							      : "a document cut short",
				 s->failed && s->pos < j->len ? " (everything after them is dropped)" : "",
				 d + 1 < s->depth ? "element around the cut" : "element", d + 1, d ? "s" : "");
		lose_difference(j, j->cur, stop, out, n);
		free(j->cur);
		j->cur = out;
		j->len = n;
		return true;
	}
	free(out);
	return false;
}

/* Takes candidate bytes [from, end) out, noting where they were in the input. */
static bool remove_span(struct js *j, size_t from, size_t end)
{
	if (j->rm_count == j->rm_cap) {
		size_t cap = j->rm_cap ? j->rm_cap * 2 : 16;
		struct removal *bigger = realloc(j->rm, cap * sizeof *bigger);
		if (!bigger) {
			j->job->report->out_of_memory = true;
			return false;
		}
		j->rm = bigger;
		j->rm_cap = cap;
	}
	/* kept in input offsets, sorted */
	struct removal r = { to_input(j, from), end - from };
	size_t k = j->rm_count;
	while (k > 0 && j->rm[k - 1].at > r.at) {
		j->rm[k] = j->rm[k - 1];
		k--;
	}
	j->rm[k] = r;
	j->rm_count++;
	memmove(j->cur + from, j->cur + end, j->len - end);
	j->len -= end - from;
	return true;
}

/* Columns of a table's header row. */
static size_t header_columns(const struct scan *s, const struct level *table)
{
	size_t cols = 0;
	for (size_t i = table->hdr; i < table->hdr_end; i++)
		if (s->t[i] == '"') {
			size_t e = string_end(s->t, table->hdr_end, i);
			if (!e)
				break;
			cols++;
			i = e - 1;
		}
	return cols;
}

#define RESYNC_ROW_LIMIT 65536   /* longest row a resynchronisation looks at */

/* Just past the array or object starting at t[0], by its brackets (strings
 * skipped); 0 when it does not close. */
static size_t bracket_end(const char *t, size_t n)
{
	size_t depth = 0;
	bool in_str = false;
	for (size_t k = 0; k < n; k++) {
		char c = t[k];
		if (in_str) {
			if (c == '\\')
				k++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '[' || c == '{')
			depth++;
		else if ((c == ']' || c == '}') && depth > 0 && --depth == 0)
			return k + 1;
	}
	return 0;
}

/* Broken framing at candidate offset p inside a table row, or between two
 * rows: the row (between rows, the one before the damage) is dropped up to
 * the next offset that starts a row framing consistently (a whole array with
 * as many values as the header has columns, then ',' or ']'), so the rows
 * after the damage are kept. False when none is found. */
static bool resync_row(struct js *j, size_t p, const char *rule)
{
	struct scan *s = j->s;
	size_t d = s->depth;
	while (d-- > 0)
		if (s->lv[d].type == '[' && s->lv[d].table && s->lv[d].children >= 1)
			break;
	if (d == (size_t)-1 || d >= s->depth)
		return false; /* the damage is not inside a table */
	bool between = d + 1 == s->depth;
	if (between && s->lv[d].children < 2)
		return false; /* only the header is whole: it cannot go */
	size_t cols = header_columns(s, &s->lv[d]);
	size_t from = s->lv[d].child;
	while (from > 0 && is_space(j->cur[from - 1]))
		from--;
	if (from == 0 || j->cur[from - 1] != ',')
		return false;
	struct scan *row = calloc(1, sizeof *row);
	if (!row)
		return false;
	size_t r = p + 1;
	bool found = false;
	for (; r < j->len && !found; r++) {
		if (j->cur[r] != '[')
			continue;
		row->t = j->cur + r;
		row->n = j->len - r < RESYNC_ROW_LIMIT ? j->len - r : RESYNC_ROW_LIMIT;
		scan_to(row, row->n);
		if (!row->complete || row->top_children != cols || row->pos >= row->n ||
		    (row->t[row->pos] != ',' && row->t[row->pos] != ']'))
			continue;
		found = true;
		break;
	}
	free(row);
	if (!found)
		return false;
	/* the comma before the dropped row stays, before the row found */
	dropped(j, from, r, rule,
			 "%s broken by bytes that do not frame as JSON; resynchronised on the next whole row",
			 between ? "the end of a row" : "a row");
	lose_row(j, &s->lv[d], between ? j->cur + s->lv[d].child : NULL,
		 between ? bracket_end(j->cur + s->lv[d].child, p - s->lv[d].child) : 0);
	return remove_span(j, from, r);
}

/* DCFG rules about a ROUTINES table, which is optional and derived from the
 * blocks and edges: when rows cut or dropped elsewhere break it, the table
 * goes whole rather than row by row. */
static bool routine_rule(const char *rule)
{
	static const char *const prefixes[] = { "DCFG-ROUTINE", "DCFG-IDOM", "DCFG-LOOP", "DCFG-NATURAL-LOOP" };
	for (size_t i = 0; rule && i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(rule, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Drops the ROUTINES member holding candidate offset e. */
static bool drop_routines(struct js *j, size_t e, const char *rule)
{
	struct scan *s = j->s;
	scan_to(s, e);
	if (s->failed)
		return false;
	size_t d = s->depth;
	while (d-- > 1)
		if (s->lv[d].type == '[' && s->lv[d].name_len == 8 &&
		    memcmp(j->cur + s->lv[d].name, "ROUTINES", 8) == 0 && s->lv[d - 1].type == '{')
			break;
	if (d == 0 || d >= s->depth)
		return false;
	size_t key = s->lv[d - 1].child, v = key;
	while (v < j->len && j->cur[v] != '[')
		v++;
	size_t len = v < j->len ? bracket_end(j->cur + v, j->len - v) : 0;
	if (!len)
		return false;
	size_t from = key, end = v + len;
	while (from > 0 && is_space(j->cur[from - 1]))
		from--;
	if (from > 0 && j->cur[from - 1] == ',') {
		from--;
	} else {
		while (end < j->len && is_space(j->cur[end]))
			end++;
		if (end < j->len && j->cur[end] == ',')
			end++;
	}
	lose_difference(j, j->cur + v, len, "", 0);
	dropped(j, from, end, rule,
			 "a ROUTINES table that no longer agrees with the blocks and edges kept (optional: dropped whole)");
	return remove_span(j, from, end);
}

/* A row to drop: candidate bytes [from, end) (with the comma before it),
 * the row itself at [start, end), the table it belongs to and the rule. */
struct span {
	size_t from, start, end;
	char table[64];
	const char *rule;
	bool routine;         /* a whole routine */
};

static bool is_routines(const struct scan *s, const struct level *l)
{
	return l->name_len == 8 && memcmp(s->t + l->name, "ROUTINES", 8) == 0;
}

/* The row holding candidate offset e: the innermost table row, or with
 * whole_routine the row of the ROUTINES table (one routine, with its nodes
 * and loops). An offset at a row's opening bracket names that row. */
static bool row_span(struct js *j, size_t e, bool whole_routine, struct span *sp)
{
	struct scan *s = j->s;
	if (s->failed || e < s->pos)
		scan_to(s, e);
	else
		scan_more(s, e);
	if (s->failed)
		return false;
	size_t at = e;
	while (at < j->len && is_space(j->cur[at]))
		at++;
	/* a row opening at e counts as the level below it being entered */
	bool opens = at < j->len && j->cur[at] == '[' && s->depth > 0 && s->want == VALUE &&
		     s->lv[s->depth - 1].type == '[' && s->lv[s->depth - 1].table &&
		     s->lv[s->depth - 1].children >= 1;
	size_t levels = s->depth + (opens ? 1 : 0), d = levels ? levels - 1 : 0;
	while (d-- > 0) {
		const struct level *l = &s->lv[d];
		if (l->type == '[' && l->table && l->children >= 1 && (!whole_routine || is_routines(s, l)))
			break;
	}
	if (d == (size_t)-1 || d + 1 >= levels)
		return false;
	size_t start = d + 1 == s->depth && opens ? at : s->lv[d].child;
	if (start >= j->len || j->cur[start] != '[')
		return false;
	size_t i = bracket_end(j->cur + start, j->len - start);
	if (!i)
		return false;
	/* with the comma before it (a row is never a table's first element) */
	size_t from = start;
	while (from > 0 && is_space(j->cur[from - 1]))
		from--;
	if (from == 0 || j->cur[from - 1] != ',')
		return false;
	sp->from = from - 1;
	sp->start = start;
	sp->end = start + i;
	table_name(s, &s->lv[d], sp->table, sizeof sp->table);
	return true;
}

static int by_from(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->from > y->from) - (x->from < y->from);
}

#define SPANS_PER_ROUND 4096  /* rows dropped per validation at the most */
#define RESCANS_PER_ROUND 8

struct error_at {
	uint64_t offset;
	const char *rule;
};

static int by_offset(const void *a, const void *b)
{
	const struct error_at *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Drops every table row holding an error of probe p (a row inside a row
 * that goes, goes with it). Errors under the ROUTINES rules drop the whole
 * routine, whose nodes, loops and exits are derived from the blocks and
 * edges. False when no error lies in a table row. */
static bool drop_rows(struct js *j, const struct tl_repair_probe *p)
{
	size_t n = p->error_count < SPANS_PER_ROUND ? p->error_count : SPANS_PER_ROUND;
	struct span *sp = malloc((n ? n : 1) * sizeof *sp);
	struct error_at *errs = malloc((n ? n : 1) * sizeof *errs);
	if (!sp || !errs) {
		free(sp);
		free(errs);
		j->job->report->out_of_memory = true;
		return false;
	}
	/* in order, so that one scan of the candidate finds every row */
	for (size_t i = 0; i < n; i++)
		errs[i] = (struct error_at){ p->error_offsets[i], p->error_rules[i] };
	qsort(errs, n, sizeof *errs, by_offset);
	size_t count = 0;
	j->s->failed = true; /* the first lookup scans from the start */
	unsigned rescans = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t e = errs[i].offset;
		/* a scan that stopped inside a token starts over: a few times a
		 * round at most, so a round stays linear in the candidate */
		if ((j->s->failed || e < j->s->pos) && rescans++ == RESCANS_PER_ROUND)
			break;
		bool routine = routine_rule(errs[i].rule);
		sp[count].routine = routine && e < j->len && row_span(j, (size_t)e, true, &sp[count]);
		if (sp[count].routine || (e < j->len && row_span(j, (size_t)e, false, &sp[count]))) {
			sp[count].rule = errs[i].rule ? errs[i].rule : "JSON-SYNTAX";
			count++;
		}
	}
	qsort(sp, count, sizeof *sp, by_from);
	/* rows are nested or apart: keep the outermost of each nest */
	size_t kept = 0;
	for (size_t i = 0; i < count; i++)
		if (kept == 0 || sp[i].from >= sp[kept - 1].end)
			sp[kept++] = sp[i];
	/* from the end, so the offsets of the rows before stay right */
	bool ok = kept > 0;
	for (size_t i = kept; ok && i-- > 0;) {
		lose(j, sp[i].table, 1);
		j->routines_cut += sp[i].routine;
		lose_difference(j, j->cur + sp[i].start, sp[i].end - sp[i].start, "", 0);
		dropped(j, sp[i].from, sp[i].end, sp[i].rule, "a row of table %s that does not validate", sp[i].table);
		ok = remove_span(j, sp[i].from, sp[i].end);
	}
	free(sp);
	free(errs);
	return ok;
}

static void units(struct js *j)
{
	struct tally *out = malloc(sizeof *out);
	if (!out) {
		j->job->report->out_of_memory = true;
		return;
	}
	tally(j->cur, j->len, UINT64_MAX, out);
	char name[96];
	for (size_t k = 0; k < out->count; k++) {
		uint64_t lost = 0;
		for (size_t i = 0; i < j->lost->count; i++)
			if (strcmp(j->lost->t[i].name, out->t[k].name) == 0)
				lost = j->lost->t[i].rows;
		snprintf(name, sizeof name, "table %s", out->t[k].name);
		tl_repair_unit(j->job, name, out->t[k].rows, lost);
	}
	/* tables none of whose rows are left */
	for (size_t i = 0; i < j->lost->count; i++) {
		size_t k = 0;
		while (k < out->count && strcmp(out->t[k].name, j->lost->t[i].name) != 0)
			k++;
		snprintf(name, sizeof name, "table %s", j->lost->t[i].name);
		if (k == out->count)
			tl_repair_unit(j->job, name, 0, j->lost->t[i].rows);
	}
	free(out);
}

/* Back to the input as it came (changes made since changes_before undone). */
static bool restart(struct js *j, size_t changes_before)
{
	char *fresh = malloc(j->job->size ? j->job->size : 1);
	if (!fresh) {
		j->job->report->out_of_memory = true;
		return false;
	}
	memcpy(fresh, j->job->data, j->job->size);
	free(j->cur);
	j->cur = fresh;
	j->len = j->job->size;
	j->rm_count = 0;
	j->job->report->change_count = changes_before;
	memset(j->lost, 0, sizeof *j->lost);
	j->s->t = j->cur;
	j->s->n = j->len;
	return true;
}

/* One salvage of the input: the document closed after its last whole row
 * (if it is cut or broken), rows broken in their syntax resynchronised, then
 * the rows the validator objects to dropped, all of one validation's at
 * once. whole_routines: a ROUTINES table that disagrees goes whole, rather
 * than routine by routine (which takes the routines' blocks and their edges
 * with them). */
static bool salvage(struct js *j, bool whole_routines, size_t changes_before, char *why, size_t why_len)
{
	struct tl_repair_probe p = { .collect_all = true };
	bool valid = false, closed = false;
	size_t stop0 = SIZE_MAX;
	const char *rule0 = "JSON-SYNTAX";
	for (unsigned round = 0; round < ROUNDS; round++) {
		if (probe(j, j->cur, j->len, &p)) {
			valid = true;
			break;
		}
		if (!p.ran)
			break;
		size_t e = p.first_error < j->len ? (size_t)p.first_error : j->len;
		const char *rule = p.first_rule ? p.first_rule : "JSON-SYNTAX";
		j->s->t = j->cur;
		j->s->n = j->len;
		scan_to(j->s, j->len);
		bool broken = j->s->failed || !j->s->complete;
		size_t stop = broken ? j->s->pos : e;
		if (round == 0) {
			stop0 = stop;
			rule0 = rule;
		}
		if (!broken && whole_routines && routine_rule(rule) && drop_routines(j, e, rule))
			continue;
		if (!broken && drop_rows(j, &p))
			continue;
		if (broken && j->s->failed && j->s->pos < j->len && resync_row(j, j->s->pos, rule))
			continue;
		if (closed || !(closed = close_document(j, stop, rule, false)))
			break;
	}
	snprintf(why, why_len, "no closing of the document validates (%s)", p.first_rule ? p.first_rule : "syntax");
	tl_repair_probe_free(&p);
	/* else the closings outwards, each checked, on the input as it came */
	if (!valid && stop0 != SIZE_MAX && !j->job->report->out_of_memory && restart(j, changes_before))
		valid = close_document(j, stop0 < j->len ? stop0 : j->len, rule0, true);
	return valid;
}

enum tl_repair_outcome tl_repair_json(struct tl_repair_job *job)
{
	struct js j = { .job = job };
	j.s = calloc(1, sizeof *j.s);
	j.lost = calloc(1, sizeof *j.lost);
	enum tl_repair_outcome out = TL_REPAIR_NONE_LEFT;
	size_t changes_before = job->report->change_count;
	char why[sizeof job->report->reason];
	if (!j.s || !j.lost || !restart(&j, changes_before)) {
		job->report->out_of_memory = true;
		goto done;
	}
	j.routines_cut = 0;
	bool valid = salvage(&j, false, changes_before, why, sizeof why);
	if (j.routines_cut && !job->report->out_of_memory) {
		/* routines dropped one by one took their blocks and edges along;
		 * dropping the ROUTINES table instead may keep more: the better wins */
		struct js first = j;
		struct tally *lost = malloc(sizeof *lost);
		size_t nchanges = job->report->change_count - changes_before;
		struct tl_repair_change *changes = malloc((nchanges ? nchanges : 1) * sizeof *changes);
		struct tally *rows = malloc(sizeof *rows);
		if (lost && changes && rows) {
			memcpy(lost, j.lost, sizeof *lost);
			memcpy(changes, job->report->changes + changes_before, nchanges * sizeof *changes);
			tally(j.cur, j.len, UINT64_MAX, rows);
			uint64_t kept_first = valid ? rows->total : 0;
			j.cur = NULL;
			j.rm = NULL;
			j.rm_count = j.rm_cap = 0;
			bool valid2 = restart(&j, changes_before) &&
				      salvage(&j, true, changes_before, why, sizeof why);
			if (valid2)
				tally(j.cur, j.len, UINT64_MAX, rows);
			if (!job->report->out_of_memory && (!valid2 || rows->total <= kept_first)) {
				free(j.cur);
				free(j.rm);
				j.cur = first.cur;
				j.len = first.len;
				j.rm = first.rm;
				memcpy(j.lost, lost, sizeof *lost);
				job->report->change_count = changes_before;
				for (size_t i = 0; i < nchanges; i++)
					tl_repair_change(job, changes[i].action, changes[i].offset, changes[i].length,
							 changes[i].rule, "%s", changes[i].what);
			} else {
				free(first.cur);
				free(first.rm);
				valid = valid2;
			}
		}
		free(lost);
		free(changes);
		free(rows);
	}
	if (valid) {
		tl_repair_emit(job, j.cur, j.len);
		units(&j);
		out = TL_REPAIR_REPAIRED;
		if (job->report->kept == 0) {
			snprintf(job->report->reason, sizeof job->report->reason,
				 "no table row could be kept");
			out = TL_REPAIR_NONE_LEFT;
		}
	} else {
		snprintf(job->report->reason, sizeof job->report->reason, "%s", why);
	}
done:
	free(j.s);
	free(j.lost);
	free(j.cur);
	free(j.rm);
	return out;
}
