/* Pass 1: validates the whole text (syntax, UTF-8, depth, repeated keys)
 * and builds the skeleton; arrays under lazy keys are only counted. */
#include "json_internal.h"
#include "json_keyset.h"
#include "json_lex.h"
#include "json_string.h"
#include "grow.h"
#include "input.h"
#include "messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct tl_json_doc *d;
	const uint8_t *buf, *p, *end;
	uint32_t line;
	const uint8_t *line_start;
	size_t filled;              /* line-index blocks written */
	bool index_lines, check_dups, build_root;
	uint32_t root_parent;
	struct tl_json_error *err;
	struct tl_json_frame *f;
	uint32_t depth;
	const struct tl_json_lazy_key *lazy;
	size_t nlazy;
	const char *const *known;   /* keys of the top-level object whose values are kept */
	size_t nknown;
	struct tl_json_keyset keys;        /* of the open objects */
	bool skip_next;             /* the next value is a repeated key's: checked, not built */
	bool drop_next;             /* the next value is an unknown key's: one node, nothing inside */
	uint64_t objseq;
	uint64_t next_release;
	bool nomem;
	bool in_release;
};

static bool fail(struct parser *ps, enum tl_json_err kind, const uint8_t *at, const char *msg)
{
	ps->err->kind = kind;
	ps->err->off = (uint64_t)(at - ps->buf);
	ps->err->line = ps->line;
	ps->err->col = (uint32_t)(at - ps->line_start) + 1;
	snprintf(ps->err->msg, sizeof ps->err->msg, "%s", msg);
	return false;
}

static bool fail_nomem(struct parser *ps)
{
	ps->nomem = true;
	if (ps->d->over_budget) {
		ps->err->kind = JE_LIMIT;
		ps->err->off = (uint64_t)(ps->p - ps->buf);
		ps->err->line = ps->line;
		ps->err->col = (uint32_t)(ps->p - ps->line_start) + 1;
		snprintf(ps->err->msg, sizeof ps->err->msg, "more needed after %u JSON values", ps->d->n);
		return false;
	}
	ps->err->kind = JE_NOMEM;
	snprintf(ps->err->msg, sizeof ps->err->msg, "out of memory after %u JSON values", ps->d->n);
	return false;
}

/* What stands at p, for messages. */
static const char *describe(const struct parser *ps, const uint8_t *p, char *buf, size_t len)
{
	if (p >= ps->end)
		return "end of input";
	if (*p >= 0x20 && *p < 0x7f)
		snprintf(buf, len, "'%c'", *p);
	else
		snprintf(buf, len, "byte 0x%02x", *p);
	return buf;
}

static bool fail_at(struct parser *ps, const uint8_t *at, const char *expected)
{
	char what[32], msg[160];
	snprintf(msg, sizeof msg, MSG_JSON_SYNTAX, expected, describe(ps, at, what, sizeof what));
	return fail(ps, JE_SYNTAX, at, msg);
}

/* Records the line state for every 64 KiB block up to the one holding the
 * newline at p (all earlier newlines are counted: they only occur in
 * whitespace), then counts it. */
static void newline(struct parser *ps, const uint8_t *p)
{
	if (ps->index_lines) {
		struct tl_json_doc *d = ps->d;
		/* b < nblk: p is inside the text and nblk is (size >> BLOCK_SHIFT) + 1 */
		size_t b = (size_t)(p - ps->buf) >> BLOCK_SHIFT;
		for (; ps->filled <= b; ps->filled++) {
			d->blk_line[ps->filled] = ps->line - 1;
			d->blk_start[ps->filled] = (uint64_t)(ps->line_start - ps->buf);
		}
	}
	ps->line++;
	ps->line_start = p + 1;
}

static inline void skip_ws(struct parser *ps)
{
	const uint8_t *p = ps->p, *end = ps->end;
	while (p < end) {
		uint8_t c = *p;
		if (tl_json_cls[c] & INLINE_BLANK)
			p++;
		else if (c == '\n')
			newline(ps, p++);
		else
			break;
	}
	ps->p = p;
}

/* A string at ps->p (its quote): length between the quotes and flags. */
static bool scan_string(struct parser *ps, uint32_t *len, uint8_t *flags)
{
	const uint8_t *p = ps->p + 1, *end = ps->end, *start = p;
	*flags = 0;
	for (;;) {
		p = jlex_plain_end(p, end);
		if (p >= end)
			return fail_at(ps, p, "'\"' closing the string");
		uint8_t c = *p;
		if (c == '"')
			break;
		if (c == '\\') {
			*flags |= JF_ESCAPE;
			if (end - p < 2)
				return fail_at(ps, p + 1, "an escape character");
			uint8_t e = p[1];
			if (e == 'u') {
				if (end - p < 6)
					return fail_at(ps, end, "4 hex digits after \\u");
				for (int k = 2; k < 6; k++)
					if (!jlex_is_hex(p[k]))
						return fail_at(ps, p + k, "a hex digit in \\u escape");
				p += 6;
			} else if (e && strchr("\"\\/bfnrt", e)) {
				p += 2;
			} else
				return fail_at(ps, p + 1, "one of \" \\ / b f n r t u after '\\'");
		} else if (c < 0x20) {
			return fail_at(ps, p, "a control character escaped (\\n, \\u00XX) inside a string");
		} else {
			size_t n = jlex_utf8_len(p, end);
			if (!n)
				return fail_at(ps, p, "valid UTF-8 inside a string");
			p += n;
		}
	}
	size_t n = (size_t)(p - start);
	if (n > UINT32_MAX)
		return fail_at(ps, start, "a string shorter than 4 GiB");
	*len = (uint32_t)n;
	ps->p = p + 1;
	return true;
}

static bool scan_number(struct parser *ps, uint32_t *len)
{
	/* called at a '-' or a digit, so p < end */
	const uint8_t *s = ps->p, *p = s, *end = ps->end;
	if (*p == '-')
		p++;
	if (p >= end || !jlex_is_digit(*p))
		return fail_at(ps, p, "a digit");
	if (*p == '0')
		p++;
	else
		while (p < end && jlex_is_digit(*p))
			p++;
	if (p < end && *p == '.') {
		p++;
		if (p >= end || !jlex_is_digit(*p))
			return fail_at(ps, p, "a digit after '.'");
		while (p < end && jlex_is_digit(*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || !jlex_is_digit(*p))
			return fail_at(ps, p, "a digit in the exponent");
		while (p < end && jlex_is_digit(*p))
			p++;
	}
	size_t n = (size_t)(p - s);
	*len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	ps->p = p;
	return true;
}

static bool scan_literal(struct parser *ps, const char *word, size_t n)
{
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail_at(ps, ps->p, "a JSON value");
	ps->p += n;
	return true;
}

static uint32_t new_node(struct parser *ps, uint8_t type, const uint8_t *at)
{
	struct tl_json_doc *d = ps->d;
	if (!tl_json_reserve_node(d))
		return UINT32_MAX;
	uint32_t i = d->n++;
	struct tl_json_node *n = &d->nodes[i];
	n->off = (uint64_t)(at - ps->buf);
	n->parent = ps->depth ? ps->f[ps->depth - 1].node : ps->root_parent;
	n->next = JNONE;
	n->first = JNONE;
	n->count = 0;
	n->idx = 0;
	n->type = type;
	n->flags = 0;
	return i;
}

/* Links child into the innermost open container. */
static void attach(struct parser *ps, uint32_t child)
{
	if (!ps->depth)
		return;
	struct tl_json_frame *fr = &ps->f[ps->depth - 1];
	struct tl_json_node *pn = &ps->d->nodes[fr->node];
	if (fr->last == JNONE)
		pn->first = child;
	else
		ps->d->nodes[fr->last].next = child;
	fr->last = child;
	ps->d->nodes[child].idx = pn->count++;
}

/* Counts a value in its container; builds its node when the container is
 * built. Returns the node, JSKIP when not built, UINT32_MAX on no memory. */
static uint32_t begin_value(struct parser *ps, uint8_t type, const uint8_t *at)
{
	bool build = ps->build_root;
	if (ps->depth) {
		struct tl_json_frame *fr = &ps->f[ps->depth - 1];
		fr->count++;
		build = fr->build;
		if (fr->lazy)
			ps->d->nodes[fr->node].count++;
	}
	if (ps->skip_next) {
		ps->skip_next = false;
		build = false;
	}
	if (!build)
		return JSKIP;
	uint32_t node = new_node(ps, type, at);
	if (node == UINT32_MAX)
		return node;
	attach(ps, node);
	if (ps->drop_next) {
		ps->drop_next = false;
		ps->d->nodes[node].flags |= JF_DROPPED;
	}
	return node;
}

static const struct tl_json_lazy_key *lazy_name(const struct parser *ps, const uint8_t *k, uint32_t len)
{
	for (size_t i = 0; i < ps->nlazy; i++)
		if (tl_json_decoded_eq(k, len, ps->lazy[i].name, strlen(ps->lazy[i].name)))
			return &ps->lazy[i];
	return NULL;
}

/* Positions past this are never looked up in a header: a hostile header of
 * a million names must not make each cell cost a million steps. */
#define MAX_LAZY_COLUMN 16

/* Is the array about to open a lazy table? Either the value of a lazy key,
 * or a cell of a table row whose header names a lazy column (DCFG-trace
 * nests its tables as cells: PROCESSES -> TRANSITION_TABLE, THREAD_DATA ->
 * TRACE_DATA). */
static const struct tl_json_lazy_key *lazy_here(const struct parser *ps)
{
	const struct tl_json_frame *up = &ps->f[ps->depth - 1];
	if (!up->build)
		return NULL;
	if (up->obj)
		return lazy_name(ps, ps->buf + up->key_off + 1, up->key_len);
	if (ps->depth < 2 || up->count >= MAX_LAZY_COLUMN)
		return NULL;
	/* tbl is built (only a built container's values are) and, past its
	 * first value, has its first child: the header row */
	const struct tl_json_frame *tbl = &ps->f[ps->depth - 2];
	if (tbl->obj || tbl->count < 2) /* row 0 is the header itself */
		return NULL;
	const struct tl_json_node *nodes = ps->d->nodes;
	uint32_t h = nodes[tbl->node].first;
	if (nodes[h].type != J_ARR || (nodes[h].flags & JF_LAZY)) /* a lazy header has pins */
		return NULL;
	uint32_t c = nodes[h].first;
	for (uint32_t k = 0; c != JNONE && k < up->count; k++)
		c = nodes[c].next;
	if (c == JNONE || nodes[c].type != J_STR)
		return NULL;
	return lazy_name(ps, ps->buf + nodes[c].off + 1, nodes[c].count);
}

/* The pointer of key k of the innermost (object) frame, from the frames. */
static char *frame_pointer(const struct parser *ps, const struct tl_json_key *k)
{
	char out[256];
	size_t pos = 0;
	out[0] = 0;
	for (uint32_t j = 0; j + 1 < ps->depth; j++) {
		const struct tl_json_frame *fr = &ps->f[j];
		if (fr->obj) {
			pos = tl_json_key_segment(out, pos, sizeof out, ps->buf + fr->key_off + 1, fr->key_len);
		} else {
			char num[24];
			int len = snprintf(num, sizeof num, "%u", fr->count - 1);
			pos = tl_json_pointer_segment(out, pos, sizeof out, (const uint8_t *)num, (size_t)len);
		}
	}
	tl_json_key_segment(out, pos, sizeof out, k->s, k->len);
	return strdup(out);
}

/* Report order: by object in document order, then by key (decoded length,
 * decoded text), then by place, so that the repeats of one key are reported
 * side by side. */
static bool dup_before(const struct tl_json_dup *x, const struct tl_json_dup *y)
{
	if (x->objseq != y->objseq)
		return x->objseq < y->objseq;
	if (x->dlen != y->dlen)
		return x->dlen < y->dlen;
	int c = x->len == x->dlen && y->len == y->dlen ? memcmp(x->text, y->text, x->len)
		: tl_json_decoded_cmp(x->text, x->len, y->text, y->len);
	return c ? c < 0 : x->key_off < y->key_off;
}

/* The kept duplicates form a max-heap (by report order) once keep_dups is
 * reached, so the latest in report order is the one given up. */
static void sift_down(struct tl_json_dup *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && dup_before(&h[m], &h[l]))
			m = l;
		if (r < n && dup_before(&h[m], &h[r]))
			m = r;
		if (m == i)
			return;
		struct tl_json_dup t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static bool keep_dup(struct parser *ps, struct tl_json_dup *u, const struct tl_json_key *k)
{
	struct tl_json_doc *d = ps->d;
	if (d->ndups == d->keep_dups) {
		if (!d->ndups || !dup_before(u, &d->dups[0])) {
			d->dups_dropped++;
			return true;
		}
		free(d->dups[0].pointer);
		d->dups_dropped++;
		u->pointer = frame_pointer(ps, k);
		if (!u->pointer)
			return fail_nomem(ps);
		d->dups[0] = *u;
		sift_down(d->dups, d->ndups, 0);
		return true;
	}
	struct tl_json_dup *dups = tl_grow_array(d->dups, &d->capdups, d->ndups, sizeof *dups, 16);
	if (!dups)
		return fail_nomem(ps);
	d->dups = dups;
	u->pointer = frame_pointer(ps, k);
	if (!u->pointer)
		return fail_nomem(ps);
	size_t i = d->ndups++;
	d->dups[i] = *u;
	for (; i && dup_before(&d->dups[(i - 1) / 2], &d->dups[i]); i = (i - 1) / 2) {
		struct tl_json_dup t = d->dups[i];
		d->dups[i] = d->dups[(i - 1) / 2];
		d->dups[(i - 1) / 2] = t;
	}
	return true;
}

static bool known_key(const struct parser *ps, const uint8_t *s, uint32_t len)
{
	for (size_t i = 0; i < ps->nknown; i++)
		if (tl_json_decoded_eq(s, len, ps->known[i], strlen(ps->known[i])))
			return true;
	return false;
}

/* A key of the innermost object, as it is read: a repeat is kept for
 * tl_jv_check_duplicate_keys (as long as it can be shown) and its value is
 * not built; a new key joins the open keys. *repeat says which. */
static bool note_key(struct parser *ps, const struct tl_json_frame *fr, uint64_t off, uint32_t len, bool escaped,
		     bool *repeat)
{
	struct tl_json_key key;
	size_t found;
	if (!tl_jkeys_find(&ps->keys, fr->keys, ps->buf + off + 1, len, escaped, &found, &key))
		return fail_nomem(ps);
	*repeat = found != SIZE_MAX;
	if (!*repeat)
		return tl_jkeys_add(&ps->keys, ps->d, &key) || fail_nomem(ps);
	struct tl_json_key *first = &ps->keys.keys[found];
	struct tl_json_dup u = { fr->objseq, key.s, key.dlen, off, (uint64_t)(first->s - ps->buf) - 1, len, NULL };
	/* the next repeat names this one as the key it repeats */
	first->s = key.s;
	first->len = len;
	return keep_dup(ps, &u, &key);
}

/* A lazy table is complete: give its rows their pins. */
static bool close_lazy(struct parser *ps, const struct tl_json_frame *fr)
{
	struct tl_json_doc *d = ps->d;
	struct tl_json_node *n = &d->nodes[fr->node];
	if (!n->count)
		return true;
	if (n->count >= JPIN - d->npins)
		return fail_nomem(ps);
	/* every table holds pins, so nlazy <= npins < JPIN */
	struct tl_json_lazy *nl = tl_grow_array(d->lazy, &d->caplazy, d->nlazy, sizeof *nl, 16);
	if (!nl)
		return fail_nomem(ps);
	d->lazy = nl;
	d->lazy[d->nlazy++] = (struct tl_json_lazy){ fr->node, d->npins, 0, fr->pinned, NULL };
	n->first = JPIN | d->npins;
	d->npins += n->count;
	return true;
}

static bool close_container(struct parser *ps)
{
	struct tl_json_frame *fr = &ps->f[ps->depth - 1];
	if (fr->obj && ps->check_dups)
		tl_jkeys_close(&ps->keys, fr->keys);
	if (fr->lazy && !close_lazy(ps, fr))
		return false;
	ps->depth--;
	return true;
}

static inline const uint8_t *skip_blank_lines(struct parser *ps, const uint8_t *p)
{
	/* Most separators are one space or none: test those before looping. */
	if (p < ps->end && *p == ' ')
		p++;
	if (p >= ps->end || !(tl_json_cls[*p] & BLANK))
		return p;
	while (p < ps->end && (tl_json_cls[*p] & BLANK)) {
		if (*p == '\n')
			newline(ps, p);
		p++;
	}
	return p;
}

/* Pass 1 inside a lazy table builds nothing, so most of the file is only
 * scanned: this loop does that for the common content (arrays, numbers,
 * strings, literals) and counts the rows. Anything else (an object, whose
 * keys need the duplicate check, or an error, whose message the general
 * parser words) returns false, and the caller reads the table again the
 * general way from the same point. ps->p is after '[' and its blanks. */
static bool scan_lazy_table(struct parser *ps, uint32_t *rows)
{
	const uint8_t *p = ps->p, *end = ps->end;
	uint32_t depth = 0, n = 0, room = JSON_MAX_DEPTH - ps->depth;
	uint32_t len;
	uint8_t flags;
	for (;;) {
		p = skip_blank_lines(ps, p);
		if (p >= end)
			return false;
		uint8_t c = *p;
		if (!depth) {
			n++;
			if (ps->in_release && (uint64_t)(p - ps->buf) >= ps->next_release) {
				tl_input_release(ps->d->in, (uint64_t)(p - ps->buf));
				ps->next_release += TL_INPUT_RELEASE_STEP;
			}
		}
		if (c == '[') {
			if (++depth >= room)
				return false;
			p = skip_blank_lines(ps, p + 1);
			if (p < end && *p == ']') {
				depth--;
				p++;
			} else
				continue;
		} else if (c == '"') {
			ps->p = p;
			if (!scan_string(ps, &len, &flags))
				return false;
			p = ps->p;
		} else if (jlex_is_digit(c) || c == '-') {
			const uint8_t *q = p + (c == '-');
			if (q >= end || !jlex_is_digit(*q))
				return false;
			if (*q == '0')
				q++;
			else
				while (q < end && jlex_is_digit(*q))
					q++;
			if (q < end && (*q == '.' || *q == 'e' || *q == 'E')) {
				ps->p = p;
				if (!scan_number(ps, &len))
					return false;
				q = ps->p;
			}
			p = q;
		} else if (c == 't' || c == 'f' || c == 'n') {
			size_t w = c == 'f' ? 5 : 4;
			if ((size_t)(end - p) < w || memcmp(p, c == 't' ? "true" : c == 'f' ? "false" : "null", w))
				return false;
			p += w;
		} else
			return false;
		/* after a value */
		for (;;) {
			p = skip_blank_lines(ps, p);
			if (p >= end)
				return false;
			if (*p == ',') {
				p++;
				break;
			}
			if (*p != ']')
				return false;
			p++;
			if (!depth) {
				ps->p = p;
				*rows = n;
				return true;
			}
			depth--;
		}
	}
}

/* Parses one value at ps->p (whitespace before it skipped) and stops right
 * after it. */
static bool parse_value(struct parser *ps)
{
	for (;;) {
		/* --- read one value (or open a container) --- */
		if (ps->p >= ps->end)
			return fail_at(ps, ps->p, "a JSON value");
		const uint8_t *at = ps->p;
		uint8_t c = *at;
		uint32_t node, len;
		uint8_t flags;
		switch (c) {
		case '{':
		case '[': {
			if (ps->depth >= JSON_MAX_DEPTH)
				return fail(ps, JE_DEPTH, at, MSG_JSON_DEPTH);
			const struct tl_json_lazy_key *lk = NULL;
			if (c == '[' && ps->nlazy && ps->depth)
				lk = lazy_here(ps);
			node = begin_value(ps, c == '{' ? J_OBJ : J_ARR, at);
			if (node == UINT32_MAX)
				return fail_nomem(ps);
			struct tl_json_frame *fr = &ps->f[ps->depth];
			fr->node = node;
			fr->last = JNONE;
			fr->count = 0;
			fr->keys = ps->keys.n;
			fr->obj = c == '{';
			fr->objseq = fr->obj ? ++ps->objseq : 0;
			fr->lazy = lk != NULL;
			fr->pinned = lk && lk->pinned;
			fr->build = node != JSKIP && !lk && !(ps->d->nodes[node].flags & JF_DROPPED);
			if (lk)
				ps->d->nodes[node].flags |= JF_LAZY;
			ps->depth++;
			ps->p++;
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == (c == '{' ? '}' : ']')) {
				ps->p++;
				if (!close_container(ps))
					return false;
				break;
			}
			if (c == '{')
				goto key;
			if (lk) {
				const uint8_t *from = ps->p, *line_start = ps->line_start;
				uint32_t line = ps->line, rows;
				size_t filled = ps->filled;
				if (scan_lazy_table(ps, &rows)) {
					ps->d->nodes[node].count = rows;
					if (!close_container(ps))
						return false;
					break;
				}
				ps->p = from; /* read it again the general way */
				ps->line = line;
				ps->line_start = line_start;
				ps->filled = filled;
			}
			continue;
		}
		case '"':
			node = begin_value(ps, J_STR, at);
			if (node == UINT32_MAX)
				return fail_nomem(ps);
			if (!scan_string(ps, &len, &flags))
				return false;
			if (node != JSKIP) {
				ps->d->nodes[node].count = len;
				ps->d->nodes[node].flags |= flags;
			}
			break;
		case 't':
		case 'f':
		case 'n':
			node = begin_value(ps, c == 't' ? J_TRUE : c == 'f' ? J_FALSE : J_NULL, at);
			if (node == UINT32_MAX)
				return fail_nomem(ps);
			if (!scan_literal(ps, c == 't' ? "true" : c == 'f' ? "false" : "null", c == 'f' ? 5 : 4))
				return false;
			break;
		default:
			if (c != '-' && !jlex_is_digit(c))
				return fail_at(ps, at, "a JSON value");
			node = begin_value(ps, J_NUM, at);
			if (node == UINT32_MAX)
				return fail_nomem(ps);
			if (!scan_number(ps, &len))
				return false;
			if (node != JSKIP)
				ps->d->nodes[node].count = len;
		}
		/* --- after a complete value: separators and closers --- */
		for (;;) {
			if (!ps->depth)
				return true;
			skip_ws(ps);
			const struct tl_json_frame *fr = &ps->f[ps->depth - 1];
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				skip_ws(ps);
				if (ps->in_release && (uint64_t)(ps->p - ps->buf) >= ps->next_release) {
					tl_input_release(ps->d->in, (uint64_t)(ps->p - ps->buf));
					ps->next_release += TL_INPUT_RELEASE_STEP;
				}
				if (fr->obj)
					goto key;
				break; /* next array element */
			}
			if (ps->p < ps->end && *ps->p == (fr->obj ? '}' : ']')) {
				ps->p++;
				if (!close_container(ps))
					return false;
				continue;
			}
			return fail_at(ps, ps->p, fr->obj ? "',' or '}'" : "',' or ']'");
		}
		continue;
key:
		if (ps->p >= ps->end || *ps->p != '"')
			return fail_at(ps, ps->p, "a '\"' starting an object key");
		{
			struct tl_json_frame *fr = &ps->f[ps->depth - 1];
			at = ps->p;
			if (!scan_string(ps, &len, &flags))
				return false;
			fr->key_off = (uint64_t)(at - ps->buf);
			fr->key_len = len;
			bool repeat = false;
			if (ps->check_dups && !note_key(ps, fr, fr->key_off, len, flags & JF_ESCAPE, &repeat))
				return false;
			if (repeat) {
				ps->skip_next = true;
			} else if (fr->build) {
				node = new_node(ps, J_STR, at);
				if (node == UINT32_MAX)
					return fail_nomem(ps);
				attach(ps, node);
				ps->d->nodes[node].count = len;
				ps->d->nodes[node].flags |= flags | JF_KEY;
				/* a value under an unknown top-level key is checked, never read */
				ps->drop_next = ps->depth == 1 && ps->known && !known_key(ps, at + 1, len) &&
						!lazy_name(ps, at + 1, len);
			}
		}
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			return fail_at(ps, ps->p, "':' after an object key");
		ps->p++;
		skip_ws(ps);
	}
}

static int cmp_dup(const void *a, const void *b)
{
	const struct tl_json_dup *x = a, *y = b;
	return dup_before(x, y) ? -1 : dup_before(y, x);
}

bool tl_json_parse_lazy(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_lazy_key *lazy,
		     size_t nlazy, const struct tl_input *in, size_t keep_dups, struct tl_json_error *err)
{
	return tl_json_parse_budget(doc, buf, size, lazy, nlazy, in, keep_dups, 0, err);
}

bool tl_json_parse_budget(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_lazy_key *lazy,
			  size_t nlazy, const struct tl_input *in, size_t keep_dups, uint64_t budget,
			  struct tl_json_error *err)
{
	struct tl_json_parse_opts o = { lazy, nlazy, NULL, 0, in, keep_dups, budget };
	return tl_json_parse_with(doc, buf, size, &o, err);
}

bool tl_json_parse_with(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_parse_opts *o,
			struct tl_json_error *err)
{
	const struct tl_json_lazy_key *lazy = o->lazy;
	size_t nlazy = o->nlazy, keep_dups = o->keep_dups;
	const struct tl_input *in = o->in;
	uint64_t budget = o->budget;
	static const uint8_t empty[1];
	if (!buf) /* an empty input maps to no memory at all */
		buf = empty;
	memset(doc, 0, sizeof *doc);
	doc->buf = buf;
	doc->size = size;
	doc->cur_lazy = NO_LAZY;
	doc->in = in;
	doc->keep_dups = keep_dups;
	doc->budget = budget;
	memset(err, 0, sizeof *err);
	struct parser ps = { 0 };
	ps.d = doc;
	ps.buf = ps.p = buf;
	ps.end = buf + size;
	ps.line = 1;
	ps.line_start = buf;
	ps.index_lines = ps.check_dups = ps.build_root = true;
	ps.root_parent = UINT32_MAX;
	ps.err = err;
	ps.lazy = lazy;
	ps.nlazy = nlazy;
	ps.known = o->known;
	ps.nknown = o->nknown;
	ps.in_release = in != NULL;
	ps.next_release = TL_INPUT_RELEASE_STEP;
	bool ok = false;
	doc->nblk = (size >> BLOCK_SHIFT) + 1;
	doc->blk_line = calloc(doc->nblk, sizeof *doc->blk_line);
	doc->blk_start = calloc(doc->nblk, sizeof *doc->blk_start);
	doc->frames = malloc(JSON_MAX_DEPTH * sizeof *doc->frames);
	ps.f = doc->frames;
	if (!ps.f || !doc->blk_line || !doc->blk_start) {
		fail_nomem(&ps);
		goto out;
	}
	skip_ws(&ps);
	if (!parse_value(&ps))
		goto out;
	skip_ws(&ps);
	if (ps.p < ps.end) {
		fail_at(&ps, ps.p, "end of input after the top-level value");
		goto out;
	}
	ok = true;
out:
	for (; doc->blk_line && doc->blk_start && ps.filled < doc->nblk; ps.filled++) {
		doc->blk_line[ps.filled] = ps.line - 1;
		doc->blk_start[ps.filled] = (uint64_t)(ps.line_start - buf);
	}
	if (ps.nomem)
		ok = false;
	doc->nskel = doc->n;
	if (doc->ndups > 1)
		qsort(doc->dups, doc->ndups, sizeof *doc->dups, cmp_dup);
	tl_jkeys_free(&ps.keys);
	if (in)
		tl_input_restart(in);
	return ok;
}

bool tl_json_parse(struct tl_json_doc *doc, const uint8_t *buf, size_t size, struct tl_json_error *err)
{
	return tl_json_parse_lazy(doc, buf, size, NULL, 0, NULL, SIZE_MAX, err);
}

/* Pass 2 skips the rows it walks over with the same parser, building nothing. */
uint64_t tl_json_skip_value(struct tl_json_doc *d, uint64_t off)
{
	struct tl_json_error err;
	struct parser ps = { 0 };
	ps.d = d;
	ps.buf = d->buf;
	ps.p = d->buf + off;
	ps.end = d->buf + d->size;
	ps.line = 1;
	ps.line_start = d->buf;
	ps.build_root = false;
	ps.root_parent = JNONE;
	ps.err = &err;
	ps.f = d->frames;
	if (!parse_value(&ps))
		return UINT64_MAX;
	return (uint64_t)(ps.p - d->buf);
}
