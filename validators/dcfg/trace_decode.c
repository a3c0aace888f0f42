/* Transition tables and chunk decoding. */
#include "trace_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ttable_add(struct ttable *t, uint64_t edge, uint32_t bits, uint8_t len, const uint64_t *next, uint32_t nnext, uint32_t row)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		struct tcode *nc = cap > t->cap ? realloc(t->codes, (size_t)cap * sizeof *nc) : NULL;
		if (!nc)
			return false;
		t->codes = nc;
		t->cap = cap;
	}
	if (nnext > UINT32_MAX - t->nnext)
		return false;
	while (t->nnext + nnext > t->capnext) {
		uint32_t cap = t->capnext ? t->capnext * 2 : 64;
		uint64_t *nn = cap > t->capnext ? realloc(t->next_ids, (size_t)cap * sizeof *nn) : NULL;
		if (!nn)
			return false;
		t->next_ids = nn;
		t->capnext = cap;
	}
	struct tcode *c = &t->codes[t->n++];
	c->edge = edge;
	c->bits = bits;
	c->len = len;
	c->next_off = t->nnext;
	c->next_n = nnext;
	c->row = row;
	memcpy(t->next_ids + t->nnext, next, (size_t)nnext * sizeof *next);
	t->nnext += nnext;
	return true;
}

static uint32_t padded(const struct tcode *c) { return c->len ? c->bits << (32 - c->len) : 0; }

static int cmp_code(const void *a, const void *b)
{
	const struct tcode *x = a, *y = b;
	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	uint32_t px = padded(x), py = padded(y);
	if (px != py)
		return px < py ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static void code_text(const struct tcode *c, char *out)
{
	for (uint8_t i = 0; i < c->len; i++)
		out[i] = (char)('0' + ((c->bits >> (c->len - 1 - i)) & 1));
	out[c->len] = 0;
}

void ttable_finish(struct jv *v, struct ttable *t)
{
	if (t->n)
		qsort(t->codes, t->n, sizeof *t->codes, cmp_code);
	t->states = calloc((size_t)t->n + 1, sizeof *t->states);
	if (!t->states)
		return;
	for (uint32_t i = 0; i < t->n;) {
		uint32_t j = i;
		while (j < t->n && t->codes[j].edge == t->codes[i].edge)
			j++;
		/* In (padded, length) order a code is followed directly by the codes it prefixes. */
		for (uint32_t k = i + 1; k < j; k++) {
			const struct tcode *a = &t->codes[k - 1], *b = &t->codes[k];
			char ta[33], tb[33];
			code_text(a, ta);
			code_text(b, tb);
			if (padded(a) == padded(b))
				jv_report(v, RULE_DTRACE_CODE_DUPLICATE, b->row,
					  "expected each CURRENT_EDGE_ID %llu code to differ when padded to 32 bits, found \"%s\" and \"%s\"",
					  (unsigned long long)a->edge, ta, tb);
			else if (a->len < b->len && (b->bits >> (b->len - a->len)) == a->bits)
				jv_report(v, RULE_DTRACE_CODE_PREFIX, b->row,
					  "expected the codes of CURRENT_EDGE_ID %llu to be prefix-free, found \"%s\" starting with \"%s\"",
					  (unsigned long long)a->edge, tb, ta);
		}
		struct tstate *s = &t->states[t->nstates];
		s->edge = t->codes[i].edge;
		s->first = i;
		s->count = j - i;
		idmap_put(&t->state_of, s->edge, t->nstates, NULL);
		t->nstates++;
		i = j;
	}
}

void ttable_free(struct ttable *t)
{
	free(t->codes);
	free(t->next_ids);
	free(t->next_instr);
	free(t->states);
	idmap_free(&t->state_of);
	memset(t, 0, sizeof *t);
}

struct frame {
	const struct item *items;
	const uint8_t *text;
	uint32_t begin, end, pos, sub;
	uint64_t left;             /* iterations left, the current one included */
	bool snap;
	uint64_t s_cur, s_buf, s_edges, s_used, s_pulled, s_instr;
	uint32_t s_bufn;
};

struct decoder {
	const struct dict *dict;
	struct frame *fr;
	uint32_t depth, cap;
	uint64_t buf;      /* bufn bits, oldest first from the top */
	uint32_t bufn;
	uint64_t pulled, used, edges, instr, cur, edge_count;
	bool instr_known, nomem;
};

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static bool push(struct decoder *d, const struct item *items, const uint8_t *text, uint32_t begin, uint32_t end, uint64_t left)
{
	if (d->depth == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 32;
		struct frame *nf = cap > d->cap ? realloc(d->fr, (size_t)cap * sizeof *nf) : NULL;
		if (!nf) {
			d->nomem = true;
			return false;
		}
		d->fr = nf;
		d->cap = cap;
	}
	struct frame *f = &d->fr[d->depth++];
	memset(f, 0, sizeof *f);
	f->items = items;
	f->text = text;
	f->begin = f->pos = begin;
	f->end = end;
	f->left = left;
	return true;
}

/* At the start of a repeat iteration: if the previous iteration brought the
 * decoder back to the same state, skip as many identical iterations as the
 * remaining edge budget allows, keeping the last one to run for real. */
static void maybe_skip(struct decoder *d, struct frame *f)
{
	uint64_t mask = d->bufn ? (d->bufn == 64 ? UINT64_MAX : (((uint64_t)1 << d->bufn) - 1)) : 0;
	uint64_t bufv = d->buf & mask;
	if (f->snap && f->s_cur == d->cur && f->s_bufn == d->bufn && f->s_buf == bufv && d->edges > f->s_edges) {
		uint64_t de = d->edges - f->s_edges, db = d->used - f->s_used, dp = d->pulled - f->s_pulled;
		uint64_t di = d->instr - f->s_instr;
		uint64_t room = d->edge_count - 1 - d->edges; /* edges < edge_count while decoding */
		uint64_t k = room / de;
		if (k > f->left - 1)
			k = f->left - 1;
		if (k) {
			f->left -= k;
			d->edges += k * de;   /* <= edge_count - 1: no overflow */
			d->used = sat_add(d->used, k * db);   /* k*db <= total bits, saturated */
			d->pulled = sat_add(d->pulled, k * dp);
			uint64_t add;
			if (!tl_mul_u64(k, di, &add) || !tl_add_u64(d->instr, add, &d->instr))
				d->instr_known = false;
		}
	}
	f->snap = true;
	f->s_cur = d->cur;
	f->s_bufn = d->bufn;
	f->s_buf = bufv;
	f->s_edges = d->edges;
	f->s_used = d->used;
	f->s_pulled = d->pulled;
	f->s_instr = d->instr;
}

/* Next 6-bit value of the expansion, or -1 at its end. */
static int pull(struct decoder *d)
{
	while (d->depth) {
		struct frame *f = &d->fr[d->depth - 1];
		if (f->pos == f->end) {
			if (f->left > 1) {
				f->left--;
				f->pos = f->begin;
				f->sub = 0;
				maybe_skip(d, f);
				continue;
			}
			d->depth--;
			continue;
		}
		const struct item *it = &f->items[f->pos];
		if (it->kind == IT_LIT) {
			uint8_t c = f->text[it->start + f->sub++];
			if (f->sub >= it->len) {
				f->pos++;
				f->sub = 0;
			}
			d->pulled += 6;
			return b64_value(c);
		}
		uint32_t at = f->pos;
		const uint8_t *text = f->text;
		const struct item *items = f->items;
		if (it->kind == IT_REP) {
			f->pos += it->len + 1;
			if (it->bits && it->reps && !push(d, items, text, at + 1, at + 1 + it->len, it->reps))
				return -1;
		} else {
			f->pos++;
			if (it->bits && d->dict && it->ref < d->dict->n && !d->dict->e[it->ref].cyclic) {
				const struct seq *s = &d->dict->e[it->ref].seq;
				if (!push(d, s->items, s->text, 0, s->n, 1))
					return -1;
			}
		}
	}
	return -1;
}

static void fill(struct decoder *d, uint32_t want)
{
	while (d->bufn < want && d->bufn <= 58) {
		int x = pull(d);
		if (x < 0)
			return;
		d->buf = (d->buf << 6) | (uint64_t)x;
		d->bufn += 6;
	}
}

static const struct tcode *match(const struct ttable *t, const struct tstate *s, const struct decoder *d)
{
	for (uint32_t i = s->first; i < s->first + s->count; i++) {
		const struct tcode *c = &t->codes[i];
		if (c->len > d->bufn)
			continue;
		uint64_t top = c->len ? (d->buf >> (d->bufn - c->len)) & ((((uint64_t)1) << c->len) - 1) : 0;
		if (top == c->bits)
			return c;
	}
	return NULL;
}

void decode_chunk(struct jv *v, const struct seq *s, const struct ttable *t, const struct dict *dict, struct chunk *c)
{
	struct decoder d = { 0 };
	d.dict = dict;
	d.edge_count = c->edge_count;
	d.instr_known = true;
	c->ok = false;
	c->edges_done = 0;
	c->instr = 0;
	c->instr_known = true;
	if (c->edge_count) {
		d.edges = 1;
		d.cur = c->first_edge;
		d.instr = c->first_instr;
	}
	if (s->bits && !push(&d, s->items, s->text, 0, s->n, 1))
		goto out;
	uint32_t zero_run = 0;
	while (d.edges < c->edge_count) {
		uint32_t si = idmap_get(&t->state_of, d.cur);
		if (si == IDMAP_NONE) {
			jv_report(v, RULE_DTRACE_DECODE, c->node,
				  "expected a TRANSITION_TABLE row for edge %llu to decode edge %llu of %llu, found none",
				  (unsigned long long)d.cur, (unsigned long long)d.edges + 1, (unsigned long long)c->edge_count);
			goto out;
		}
		fill(&d, 32);
		const struct tcode *code = match(t, &t->states[si], &d);
		if (!code) {
			if (d.nomem)
				goto out;
			jv_report(v, RULE_DTRACE_DECODE, c->node,
				  "expected a TRANSITION_CODE of edge %llu at bit %llu to decode edge %llu of %llu, found %s",
				  (unsigned long long)d.cur, (unsigned long long)d.used, (unsigned long long)d.edges + 1,
				  (unsigned long long)c->edge_count, d.bufn < 32 ? "the sequence exhausted" : "bits matching no code");
			goto out;
		}
		d.bufn -= code->len;
		d.used += code->len;
		for (uint32_t k = 0; k < code->next_n; k++) {
			if (d.edges == c->edge_count) {
				jv_report(v, RULE_DTRACE_GROUP_OVERSHOOT, c->node,
					  "expected the last NEXT_EDGE_IDS group to end at EDGE_COUNT %llu, found %u more edge(s) in it (ignored)",
					  (unsigned long long)c->edge_count, code->next_n - k);
				break;
			}
			d.cur = t->next_ids[code->next_off + k];
			d.edges++;
			if (t->next_instr && !tl_add_u64(d.instr, t->next_instr[code->next_off + k], &d.instr))
				d.instr_known = false;
		}
		/* Zero-bit transitions that revisit a state loop forever without
		 * consuming input: the rest of the chunk is that loop. */
		if (code->len == 0) {
			if (++zero_run > t->nstates) {
				d.edges = c->edge_count;
				d.instr_known = false;
			}
		} else
			zero_run = 0;
	}
	if (d.edges < c->edge_count)
		goto out;
	/* Everything left over after EDGE_COUNT edges: at most 5 bits of the last character. */
	uint64_t unused = s->bits == BITS_INFINITE ? BITS_INFINITE : s->bits - (d.used <= s->bits ? d.used : s->bits);
	if (unused >= 6) {
		char total[32], extra[32];
		if (s->bits == BITS_INFINITE)
			snprintf(total, sizeof total, "at least 2^64");
		else
			snprintf(total, sizeof total, "%llu", (unsigned long long)s->bits);
		if (unused == BITS_INFINITE)
			snprintf(extra, sizeof extra, "an unbounded number");
		else
			snprintf(extra, sizeof extra, "%llu", (unsigned long long)unused);
		jv_report(v, RULE_DTRACE_EXCESS_BITS, c->node,
			  "expected at most 5 unused bits after EDGE_COUNT %llu edges, found %s of the %s bits the sequence expands to",
			  (unsigned long long)c->edge_count, extra, total);
		goto out;
	}
	fill(&d, (uint32_t)unused);
	if (unused && d.bufn >= unused && (d.buf & ((((uint64_t)1) << unused) - 1)))
		jv_report(v, RULE_DTRACE_PAD_BITS, c->node, "expected the %llu unused trailing bit(s) to be 0, found %#llx",
			  (unsigned long long)unused, (unsigned long long)(d.buf & ((((uint64_t)1) << unused) - 1)));
	c->ok = true;
out:
	c->edges_done = d.edges;
	c->instr = d.instr;
	c->instr_known = d.instr_known;
	c->last_edge = d.cur;
	free(d.fr);
}
