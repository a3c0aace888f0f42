/* Pass 2: rows of lazy tables, read on demand into an arena that the next
 * row replaces (see json_tree.h). The text was validated by pass 1, so
 * rows are built with the lexer's trusting scans; the end guards only
 * protect against a file that changed under the mapping. */
#include "json_internal.h"
#include "json_lex.h"
#include "bigalloc.h"
#include "input.h"

#include <string.h>

uint32_t tl_json_pin_next(const struct tl_json_doc *d, uint32_t pin)
{
	uint32_t row, l = tl_json_lazy_of(d, pin, &row);
	if (l == NO_LAZY || row + 1 >= d->nodes[d->lazy[l].node].count)
		return JNONE;
	return pin + 1;
}

/* Start of the row after the one ending at end (the text is valid). */
static uint64_t next_start(const struct tl_json_doc *d, uint64_t end)
{
	const uint8_t *p = jlex_blank_end(d->buf + end, d->buf + d->size);
	if (p < d->buf + d->size && *p == ',')
		p = jlex_blank_end(p + 1, d->buf + d->size);
	return (uint64_t)(p - d->buf);
}

/* Pass 2: the nodes of one value that pass 1 has validated, so nothing is
 * checked again; the end guards only protect against a file that changed
 * under the mapping. Returns the offset past the value, UINT64_MAX on no
 * memory or on text that is no longer what pass 1 read. The innermost open
 * container lives in locals (its node, last child and children so far) and
 * the enclosing ones in d->frames: a row costs a few dozen instructions a
 * value, and rows are most of a DCFG. */
static uint64_t build_valid(struct tl_json_doc *d, uint64_t off, uint32_t parent)
{
	struct tl_json_frame *st = d->frames;
	const uint8_t *buf = d->buf, *p = buf + off, *end = buf + d->size;
	uint32_t depth = 0, up = parent, last = JNONE, count = 0;
	bool obj = false, key = false;
	for (;;) {
		if (p >= end || !tl_json_reserve_node(d))
			return UINT64_MAX;
		uint32_t i = d->n++;
		struct tl_json_node *n = &d->nodes[i];
		n->off = (uint64_t)(p - buf);
		n->parent = up;
		n->next = JNONE;
		n->first = JNONE;
		n->count = 0;
		n->idx = count++; /* the top-level value: 0 */
		n->flags = key ? JF_KEY : 0;
		if (depth) {
			if (last == JNONE)
				d->nodes[up].first = i;
			else
				d->nodes[last].next = i;
			last = i;
		}
		uint8_t c = *p;
		if (c == '{' || c == '[') {
			n->type = c == '{' ? J_OBJ : J_ARR;
			if (depth >= JSON_MAX_DEPTH)
				return UINT64_MAX;
			p = jlex_blank_end(p + 1, end);
			if (p < end && (*p == '}' || *p == ']')) {
				p++;
			} else {
				st[depth].node = up;
				st[depth].last = last;
				st[depth].count = count;
				st[depth].obj = obj;
				depth++;
				up = i;
				last = JNONE;
				count = 0;
				obj = key = c == '{';
				continue;
			}
		} else if (c == '"') {
			const uint8_t *s = ++p;
			bool escaped = false;
			p = jlex_string_end(p, end, &escaped);
			if (p >= end)
				return UINT64_MAX;
			if (escaped)
				n->flags |= JF_ESCAPE;
			n->type = J_STR;
			n->count = (uint32_t)(p - s);
			p++;
			if (key) {
				p = jlex_blank_end(p, end);
				p = jlex_blank_end(p + 1, end); /* the ':' */
				key = false;
				continue;
			}
		} else if (c == 't' || c == 'f' || c == 'n') {
			n->type = c == 't' ? J_TRUE : c == 'f' ? J_FALSE : J_NULL;
			p += c == 'f' ? 5 : 4;
		} else {
			const uint8_t *s = p;
			p = jlex_number_end(p, end);
			n->type = J_NUM;
			n->count = (uint32_t)(p - s);
		}
		/* after a complete value */
		for (;;) {
			if (!depth)
				return (uint64_t)(p - buf);
			p = jlex_blank_end(p, end);
			if (p >= end)
				return UINT64_MAX;
			if (*p == ',') {
				p = jlex_blank_end(p + 1, end);
				key = obj;
				break;
			}
			p++; /* the closer */
			d->nodes[up].count = count;
			depth--;
			up = st[depth].node;
			last = st[depth].last;
			count = st[depth].count;
			obj = st[depth].obj;
		}
	}
}

/* A pinned table keeps the start of every ROW_STRIDE-th row, not of every
 * row: a report on a row that is gone skips at most ROW_STRIDE - 1 rows
 * from there, and a table of millions of rows costs 0.5 byte a row
 * instead of 8 (a tenth of a large DCFG's memory). z->known counts the
 * rows walked so far, whose starts are so found. */
#define ROW_STRIDE 16

static void remember(struct tl_json_lazy *z, uint32_t row, uint64_t off)
{
	if (z->row_off && row == z->known) {
		if (row % ROW_STRIDE == 0)
			z->row_off[row / ROW_STRIDE] = off;
		z->known++;
	}
}

/* Start of row `row` < z->known, from the kept row before it. */
static uint64_t known_start(struct tl_json_doc *d, const struct tl_json_lazy *z, uint32_t row)
{
	uint32_t r = row / ROW_STRIDE * ROW_STRIDE;
	uint64_t pos = z->row_off[row / ROW_STRIDE];
	for (; r < row; r++) {
		uint64_t end = tl_json_skip_value(d, pos);
		if (end == UINT64_MAX)
			return UINT64_MAX;
		pos = next_start(d, end);
	}
	return pos;
}

/* Where row `row` of lazy table l starts, from the nearest known row;
 * rows walked over are skipped (nothing built: the current row stays) and
 * remembered when the table is pinned. UINT64_MAX if the text changed. */
static uint64_t row_start(struct tl_json_doc *d, uint32_t l, uint32_t row)
{
	struct tl_json_lazy *z = &d->lazy[l];
	const struct tl_json_node *tbl = &d->nodes[z->node];
	if (z->pinned && !z->row_off) {
		z->row_off = tl_big_malloc(((size_t)tbl->count / ROW_STRIDE + 1) * sizeof *z->row_off);
		if (!z->row_off) {
			d->nomem = true;
			return UINT64_MAX;
		}
	}
	uint32_t r;
	uint64_t pos;
	if (d->cur_lazy == l && d->cur_row == row)
		return d->cur_start; /* its text was read without nodes */
	/* The next rows in order come from the current one (a walk). */
	if (d->cur_lazy == l && d->cur_row < row && d->cur_end != UINT64_MAX &&
	    (row - d->cur_row <= ROW_STRIDE || !z->row_off || row >= z->known)) {
		r = d->cur_row + 1;
		pos = next_start(d, d->cur_end);
	} else if (z->row_off && row < z->known) {
		return known_start(d, z, row);
	} else if (z->row_off && z->known) {
		r = (z->known - 1) / ROW_STRIDE * ROW_STRIDE;
		pos = z->row_off[r / ROW_STRIDE];
	} else {
		r = 0;
		pos = (uint64_t)(jlex_blank_end(d->buf + tbl->off + 1, d->buf + d->size) - d->buf);
	}
	remember(z, r, pos);
	while (r < row) {
		uint64_t end = tl_json_skip_value(d, pos);
		if (end == UINT64_MAX)
			return UINT64_MAX;
		pos = next_start(d, end);
		remember(z, ++r, pos);
	}
	return pos;
}

/* Row `row` of lazy table l without nodes: its start, or UINT64_MAX. The
 * previous row's nodes are gone. */
static uint64_t enter_row(struct tl_json_doc *d, uint32_t l, uint32_t row)
{
	uint64_t pos = row_start(d, l, row);
	d->n = d->nskel;
	d->cur_lazy = NO_LAZY;
	d->cur_pin = JNONE;
	if (pos == UINT64_MAX)
		return pos;
	if (d->in && (pos < d->release_mark || pos - d->release_mark >= TL_INPUT_RELEASE_STEP)) {
		/* Going back (a second walk over a table): hand everything back and
		 * start releasing again from there. */
		if (pos < d->release_mark)
			tl_input_restart(d->in);
		tl_input_release(d->in, pos);
		d->release_mark = pos;
	}
	return pos;
}

/* Makes row `row` of lazy table l the current row, with its nodes. */
static bool load_row(struct tl_json_doc *d, uint32_t l, uint32_t row)
{
	struct tl_json_lazy *z = &d->lazy[l];
	/* A count, not a pointer: building the row may move d->nodes. */
	uint32_t rows = d->nodes[z->node].count;
	uint32_t pin = JPIN | (z->pin_base + row);
	if (d->cur_pin == pin)
		return true;
	uint64_t pos = enter_row(d, l, row);
	if (pos == UINT64_MAX)
		return false;
	/* build_valid makes the row's node before anything else, so a row read
	 * has one */
	uint64_t end = build_valid(d, pos, z->node);
	if (end == UINT64_MAX)
		return false;
	d->nodes[d->nskel].next = row + 1 < rows ? (JPIN | (z->pin_base + row + 1)) : JNONE;
	d->cur_lazy = l;
	d->cur_row = row;
	d->cur_pin = pin;
	d->cur_start = pos;
	d->cur_end = end;
	return true;
}

const uint8_t *tl_json_row_text(struct tl_json_doc *d, uint32_t pin)
{
	uint32_t row, l = tl_json_lazy_of(d, pin, &row);
	if (l == NO_LAZY)
		return NULL;
	if (d->cur_pin == pin) /* its nodes are built: the text is there too */
		return d->buf + d->cur_start;
	uint64_t pos = enter_row(d, l, row);
	if (pos == UINT64_MAX)
		return NULL;
	d->cur_lazy = l;
	d->cur_row = row;
	d->cur_start = pos;
	d->cur_end = UINT64_MAX;
	return d->buf + pos;
}

void tl_json_row_text_end(struct tl_json_doc *d, const uint8_t *end)
{
	d->cur_end = (uint64_t)(end - d->buf);
}

const struct tl_json_node *tl_json_row(struct tl_json_doc *d, uint32_t pin)
{
	static const struct tl_json_node none = { 0, UINT32_MAX, JNONE, JNONE, 0, 0, J_NULL, 0 };
	uint32_t row, l = tl_json_lazy_of(d, pin, &row);
	if (l == NO_LAZY || !load_row(d, l, row))
		return &none;
	return &d->nodes[d->nskel];
}

uint64_t tl_json_text_off(struct tl_json_doc *d, uint32_t i)
{
	if (!(i & JPIN))
		return i < d->n ? d->nodes[i].off : UINT64_MAX;
	uint32_t row, l = tl_json_lazy_of(d, i, &row);
	if (l == NO_LAZY)
		return UINT64_MAX;
	if (d->cur_lazy == l && d->cur_row == row)
		return d->cur_start;
	const struct tl_json_lazy *z = &d->lazy[l];
	if (z->row_off && row < z->known)
		return known_start(d, z, row);
	if (z->pinned) /* a row not read yet: find it, leaving the current row alone */
		return row_start(d, l, row);
	return UINT64_MAX; /* an unpinned row that is gone */
}

uint64_t tl_json_off(struct tl_json_doc *d, uint32_t i)
{
	uint64_t off = tl_json_text_off(d, i);
	if (off != UINT64_MAX)
		return off;
	uint32_t row, l = (i & JPIN) ? tl_json_lazy_of(d, i, &row) : NO_LAZY;
	return l == NO_LAZY ? 0 : d->nodes[d->lazy[l].node].off; /* a row that is gone: its table */
}
