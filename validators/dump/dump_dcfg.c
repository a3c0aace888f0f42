/* DCFG and DCFG-trace dump. Both formats are JSON documents of tables (an
 * array whose first row names the columns) nested in tables; the dump reads
 * the document with the project's JSON reader (validators/json) and writes
 * one line per row of each table named below, its cells keyed by their
 * column names (lowercase, '-' for '_'), with the identifiers of the rows
 * it is nested in (process, image, routine, thread). A *_DATA object's
 * members join its row; a nested table not named below (a routine's NODES)
 * stays in its row as an array of objects. Addresses written as "0x..."
 * strings are written as numbers. The edge sequences of a DCFG-trace are
 * written as they are in the file in its chunk lines, and decoded, an edge
 * a line, after each process's tables (dump_trace_edges.c). */
#include "dump.h"
#include "dump_trace_edges.h"
#include "json_tree.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Tables written as lines of their own: their key, the kind of their lines,
 * and the name their rows give the lines nested in them (the first column). */
struct table_kind {
	const char *key, *kind, *context;
};

static const struct table_kind tables[] = {
	{ "FILE_NAMES", "file-name", NULL },
	{ "EDGE_TYPES", "edge-type", NULL },
	{ "SPECIAL_NODES", "special-node", NULL },
	{ "PROCESSES", "process", "process" },
	{ "IMAGES", "image", "image" },
	{ "SYMBOLS", "symbol", NULL },
	{ "SOURCE_DATA", "source-line", NULL },
	{ "BASIC_BLOCKS", "block", NULL },
	{ "ROUTINES", "routine", "routine" },
	{ "LOOPS", "loop", NULL },
	{ "EDGES", "edge", NULL },
	{ "TRANSITION_TABLE", "transition", NULL },
	{ "THREAD_DATA", "thread", "thread" },
	{ "TRACE_DATA", "chunk", NULL },
};

#define MAX_CONTEXT 8

struct walk {
	struct dump_run *r;
	struct tl_json_doc doc;
	/* the rows the current table is nested in: name and the node of its id */
	const char *ctx_name[MAX_CONTEXT];
	uint32_t ctx_node[MAX_CONTEXT];
	size_t depth;
	bool trace;   /* a DCFG-trace: processes get their decoded edges */
};

static const struct table_kind *table_named(struct tl_json_doc *d, uint32_t key)
{
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (tl_json_str_eq(d, key, tables[i].key))
			return &tables[i];
	return NULL;
}

/* A table: an array whose first element is an array of strings. */
static bool is_table(struct tl_json_doc *d, uint32_t node)
{
	const struct tl_json_node *n = jn(d, node);
	if (n->type != J_ARR || n->first == JNONE)
		return false;
	const struct tl_json_node *h = jn(d, n->first);
	if (h->type != J_ARR)
		return false;
	for (uint32_t c = h->first; c != JNONE; c = jsibling(d, c))
		if (jn(d, c)->type != J_STR)
			return false;
	return true;
}

/* A column or member name as a key: lowercase, '-' for '_'. */
static void key_name(struct tl_json_doc *d, uint32_t str, char *out, size_t outlen)
{
	const struct tl_json_node *n = jn(d, str);
	const uint8_t *s = jstr(d, str);
	size_t k = 0;
	for (uint32_t i = 0; i < n->count && k + 1 < outlen; i++)
		out[k++] = s[i] == '_' ? '-' : (char)tolower(s[i]);
	out[k] = '\0';
}

static bool is_hex_text(const uint8_t *s, size_t n)
{
	if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (size_t i = 2; i < n; i++)
		if (!isxdigit(s[i]))
			return false;
	return true;
}

static void value(struct walk *w, uint32_t node, bool names);

/* The rows of a table not written as lines: an array of objects. */
static void inline_table(struct walk *w, uint32_t table)
{
	struct tl_json_doc *d = &w->doc;
	struct jl *j = &w->r->jl;
	uint32_t header = jn(d, table)->first;
	jl_array_begin(j, NULL);
	for (uint32_t row = jsibling(d, header); row != JNONE; row = jsibling(d, row)) {
		if (jn(d, row)->type != J_ARR) {
			value(w, row, false);
			continue;
		}
		jl_object_begin(j, NULL);
		uint32_t col = jn(d, header)->first, cell = jn(d, row)->first;
		for (; cell != JNONE; cell = jsibling(d, cell)) {
			char key[64] = "extra";
			if (col != JNONE)
				key_name(d, col, key, sizeof key);
			jl_key(j, key);
			value(w, cell, strstr(key, "name") != NULL);
			if (col != JNONE)
				col = jsibling(d, col);
		}
		jl_object_end(j);
	}
	jl_array_end(j);
}

/* Any value as JSON: "0x" strings as numbers unless names (a name column). */
static void value(struct walk *w, uint32_t node, bool names)
{
	struct tl_json_doc *d = &w->doc;
	struct jl *j = &w->r->jl;
	const struct tl_json_node *n = jn(d, node);
	jl_key(j, NULL); /* the comma before it, in an array */
	switch (n->type) {
	case J_NULL: jl_raw(j, "null", 4); break;
	case J_TRUE: jl_raw(j, "true", 4); break;
	case J_FALSE: jl_raw(j, "false", 5); break;
	case J_NUM: jl_raw(j, (const char *)d->buf + n->off, n->count); break;
	case J_STR: {
		const uint8_t *s = jstr(d, node);
		unsigned long long v;
		if (!names && is_hex_text(s, n->count) && sscanf((const char *)s + 2, "%llx", &v) == 1)
			jl_u64(j, NULL, v);
		else
			jl_raw(j, (const char *)d->buf + n->off, n->count + 2u);
		break;
	}
	case J_ARR:
		if (is_table(d, node)) {
			inline_table(w, node);
			break;
		}
		jl_array_begin(j, NULL);
		for (uint32_t c = n->first; c != JNONE; c = jsibling(d, c))
			value(w, c, names);
		jl_array_end(j);
		break;
	case J_OBJ:
		jl_object_begin(j, NULL);
		for (uint32_t k = n->first; k != JNONE; k = jsibling(d, jsibling(d, k))) {
			jl_key(j, NULL);
			jl_raw(j, (const char *)d->buf + jn(d, k)->off, jn(d, k)->count + 2u);
			jl_raw(j, ":", 1);
			j->need_comma = false;
			value(w, jsibling(d, k), names);
		}
		jl_object_end(j);
		break;
	}
	j->need_comma = true;
}

static void key_value(struct walk *w, const char *key, uint32_t node)
{
	jl_key(&w->r->jl, key);
	value(w, node, strstr(key, "name") != NULL);
}

static void tables_in(struct walk *w, uint32_t obj);

/* What a table's header says of one column, worked out once for all its
 * rows: its key, whether it holds names, a *_DATA object or a table of
 * lines of its own. Cells past the last column are "extra". */
struct column {
	char key[64];
	bool names, data;
	const struct table_kind *inner;
};

#define MAX_COLUMNS 16 /* the formats' tables have fewer; bounds the stack of nested tables */

static void column_of(struct tl_json_doc *d, uint32_t col, struct column *c)
{
	if (col == JNONE) {
		snprintf(c->key, sizeof c->key, "extra");
		c->inner = NULL;
	} else {
		key_name(d, col, c->key, sizeof c->key);
		c->inner = table_named(d, col);
	}
	c->names = strstr(c->key, "name") != NULL;
	c->data = strstr(c->key, "-data") != NULL;
}

/* Column i of the header: from the cache, or worked out now past its end. */
static const struct column *column_at(struct tl_json_doc *d, const struct column *cache, size_t n, size_t i,
				      uint32_t col, struct column *spare)
{
	if (i < n)
		return &cache[i];
	column_of(d, col, spare);
	return spare;
}

/* The lines of a table named by kind, and those nested in its rows. */
static void table_lines(struct walk *w, const struct table_kind *kind, uint32_t table)
{
	struct tl_json_doc *d = &w->doc;
	struct jl *j = &w->r->jl;
	uint32_t header = jn(d, table)->first;
	struct column cols[MAX_COLUMNS], spare;
	size_t ncols = 0;
	for (uint32_t col = jn(d, header)->first; col != JNONE && ncols < MAX_COLUMNS; col = jsibling(d, col))
		column_of(d, col, &cols[ncols++]);
	for (uint32_t row = jsibling(d, header); row != JNONE; row = jsibling(d, row)) {
		if (jn(d, row)->type != J_ARR)
			continue;
		bool written = dump_take(w->r);
		if (written) {
			jl_begin(j, kind->kind);
			for (size_t i = 0; i < w->depth; i++)
				key_value(w, w->ctx_name[i], w->ctx_node[i]);
		}
		/* first the cells (and *_DATA members) that stay in the line ... */
		uint32_t col = jn(d, header)->first;
		size_t i = 0;
		for (uint32_t cell = jn(d, row)->first; cell != JNONE; cell = jsibling(d, cell), i++) {
			const struct column *k = column_at(d, cols, ncols, i, col, &spare);
			const struct tl_json_node *c = jn(d, cell);
			bool data = c->type == J_OBJ && k->data;
			bool lines = k->inner && is_table(d, cell);
			if (written && data) {
				for (uint32_t m = c->first; m != JNONE; m = jsibling(d, jsibling(d, m))) {
					uint32_t v = jsibling(d, m);
					if (is_table(d, v) && table_named(d, m))
						continue;
					char member[64];
					key_name(d, m, member, sizeof member);
					key_value(w, member, v);
				}
			} else if (written && !lines) {
				jl_key(j, k->key);
				value(w, cell, k->names);
			}
			if (col != JNONE)
				col = jsibling(d, col);
		}
		if (written)
			jl_end(j);
		/* ... then the tables nested in the row, as lines of their own */
		uint32_t first = jn(d, row)->first;
		bool pushed = kind->context && first != JNONE && w->depth < MAX_CONTEXT;
		if (pushed) {
			w->ctx_name[w->depth] = kind->context;
			w->ctx_node[w->depth++] = first;
		}
		col = jn(d, header)->first;
		i = 0;
		for (uint32_t cell = first; cell != JNONE; cell = jsibling(d, cell), i++) {
			const struct tl_json_node *c = jn(d, cell);
			const struct table_kind *inner = NULL;
			if (col != JNONE && c->type == J_ARR && is_table(d, cell))
				inner = column_at(d, cols, ncols, i, col, &spare)->inner;
			if (inner)
				table_lines(w, inner, cell);
			else if (c->type == J_OBJ)
				tables_in(w, cell);
			if (col != JNONE)
				col = jsibling(d, col);
		}
		if (pushed)
			w->depth--;
		if (w->trace && !strcmp(kind->kind, "process"))
			dump_trace_edges(w->r, d, header, row);
	}
}

/* The named tables among an object's members, in document order. */
static void tables_in(struct walk *w, uint32_t obj)
{
	struct tl_json_doc *d = &w->doc;
	for (uint32_t k = jn(d, obj)->first; k != JNONE; k = jsibling(d, jsibling(d, k))) {
		uint32_t v = jsibling(d, k);
		const struct table_kind *kind = is_table(d, v) ? table_named(d, k) : NULL;
		if (kind)
			table_lines(w, kind, v);
	}
}

static void dump_json(struct dump_run *r, const char *format)
{
	const struct tl_input *in = r->in;
	struct walk w;
	memset(&w, 0, sizeof w);
	w.r = r;
	w.trace = !strcmp(format, "dcfg-trace");
	struct tl_json_error err;
	if (!in->data || !tl_json_parse(&w.doc, in->data, in->size, &err)) {
		tl_json_free(&w.doc);
		dump_stop(r, in->data ? "the JSON text does not parse (line %u, column %u): nothing is dumped"
				      : "the file is empty%.0u%.0u", err.line, err.col);
		return;
	}
	struct tl_json_doc *d = &w.doc;
	struct jl *j = &r->jl;
	jl_begin(j, "header");
	jl_str(j, "format", format);
	if (jn(d, 0)->type == J_OBJ) {
		/* the top level's plain members (versions) */
		for (uint32_t k = jn(d, 0)->first; k != JNONE; k = jsibling(d, jsibling(d, k))) {
			uint32_t v = jsibling(d, k);
			if (is_table(d, v) && table_named(d, k))
				continue;
			char key[64];
			key_name(d, k, key, sizeof key);
			key_value(&w, key, v);
		}
	}
	jl_end(j);
	if (jn(d, 0)->type == J_OBJ)
		tables_in(&w, 0);
	else
		dump_stop(r, "the document is not an object");
	tl_json_free(&w.doc);
}

void tl_dump_dcfg(struct dump_run *r)
{
	dump_json(r, "dcfg");
}

void tl_dump_dcfg_trace(struct dump_run *r)
{
	dump_json(r, "dcfg-trace");
}
