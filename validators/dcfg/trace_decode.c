/* Transition tables and chunk decoding. */
#include "trace_decode.h"
#include "id_put.h"

#include "dcfg_model.h"

#include <stdio.h>
#include <stdlib.h>
#include "grow.h"
#include "radix_sort.h"

#include <string.h>

bool tl_dcfg_ttable_add(struct tl_dcfg_ttable *t, uint64_t edge, uint32_t bits, uint8_t len, const uint64_t *next, uint32_t nnext, uint32_t row)
{
	if (t->n == UINT32_MAX || nnext > UINT32_MAX - t->nnext)
		return false;
	struct tl_dcfg_tcode *nc = tl_grow_array(t->codes, &t->cap, t->n, sizeof *nc, 64);
	if (!nc)
		return false;
	t->codes = nc;
	while (t->nnext + nnext > t->capnext) {
		uint64_t *nn = tl_grow_array(t->next_ids, &t->capnext, t->capnext, sizeof *nn, 64);
		if (!nn)
			return false;
		t->next_ids = nn;
	}
	struct tl_dcfg_tcode *c = &t->codes[t->n++];
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

static uint32_t padded(const struct tl_dcfg_tcode *c) { return c->len ? c->bits << (32 - c->len) : 0; }

static int cmp_code(const void *a, const void *b)
{
	const struct tl_dcfg_tcode *x = a, *y = b;
	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	uint32_t px = padded(x), py = padded(y);
	if (px != py)
		return px < py ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The codes in cmp_code's order, which is (edge, padded code, length) and
 * then insertion order: rows are added in document order, so `row` grows.
 * Writers list a table by CURRENT_EDGE_ID, so one pass usually finds the
 * order already there; otherwise a stable radix sort of (edge, padded code)
 * keys fed in order of length, and the codes permuted in place. qsort's
 * merge sort took a tenth of a 4-million-row table's time and a copy of
 * the codes in fresh memory. False without memory (codes unchanged). */
bool tl_dcfg_sort_codes(struct tl_dcfg_tcode *codes, uint32_t n)
{
	uint32_t i = 1;
	while (i < n && cmp_code(&codes[i - 1], &codes[i]) < 0)
		i++;
	if (i >= n)
		return true;
	struct tl_keyed *items = malloc((size_t)n * sizeof *items), *tmp = malloc((size_t)n * sizeof *tmp);
	if (!items || !tmp) {
		free(items);
		free(tmp);
		return false;
	}
	uint32_t at[34] = { 0 }; /* lengths 0-32: a counting sort, stable */
	for (i = 0; i < n; i++)
		at[codes[i].len + 1]++;
	for (uint32_t l = 1; l < 34; l++)
		at[l] += at[l - 1];
	for (i = 0; i < n; i++) {
		/* edges are at most EDGE_ID_MAX (31 bits): edge and code fit one key */
		struct tl_keyed *k = &items[at[codes[i].len]++];
		k->key = codes[i].edge << 32 | padded(&codes[i]);
		k->val = i;
	}
	struct tl_keyed *sorted = tl_radix_sort(items, tmp, n);
	free(sorted == items ? tmp : items);
	/* Position i takes the code at sorted[i].val: follow each cycle once,
	 * marking a done position by pointing it at itself. */
	for (i = 0; i < n; i++) {
		if (sorted[i].val == i)
			continue;
		struct tl_dcfg_tcode first = codes[i];
		uint32_t j = i;
		while (sorted[j].val != i) {
			uint32_t from = sorted[j].val;
			codes[j] = codes[from];
			sorted[j].val = j;
			j = from;
		}
		codes[j] = first;
		sorted[j].val = j;
	}
	free(sorted);
	return true;
}

static void code_text(const struct tl_dcfg_tcode *c, char *out)
{
	for (uint8_t i = 0; i < c->len; i++)
		out[i] = (char)('0' + ((c->bits >> (c->len - 1 - i)) & 1));
	out[c->len] = 0;
}

#define CHAIN_MAX UINT16_MAX

/* Per state while chains are resolved. */
struct chainfo {
	uint32_t count;   /* edges from taking the state's code to the chain's end; 0 unresolved */
	uint32_t end, slot;
	uint8_t mark;     /* 1 on the current path, 2 resolved, 3 not compressible */
};

/* A state with one code, of zero bits, leading to one edge. */
static bool zero_state(const struct tl_dcfg_ttable *t, uint32_t st)
{
	const struct tl_dcfg_tstate *s = &t->states[st];
	return s->count == 1 && t->codes[s->first].len == 0 && t->codes[s->first].next_n == 1;
}

static uint32_t target_state(const struct tl_dcfg_ttable *t, const struct tl_dcfg_tcode *c)
{
	uint32_t st = tl_dcfg_idmap_get(&t->state_of, t->next_ids[c->next_off + c->next_n - 1]);
	return st == IDMAP_NONE ? NO_STATE : st;
}

/* Resolves the chain of zero-bit states from st (iteratively, cycles left
 * uncompressed: the decoder's zero-run check handles those). */
static void resolve_chain(const struct tl_dcfg_ttable *t, struct chainfo *ci, uint32_t *path, uint32_t st)
{
	uint32_t n = 0, x = st;
	while (x != NO_STATE && zero_state(t, x) && ci[x].mark == 0) {
		ci[x].mark = 1;
		path[n++] = x;
		x = target_state(t, &t->codes[t->states[x].first]);
	}
	while (n) {
		uint32_t y = path[--n];
		const struct tl_dcfg_tcode *c = &t->codes[t->states[y].first];
		uint32_t tgt = target_state(t, c);
		/* tgt is resolved already, or on the path (a zero-bit cycle), or not compressible */
		if (tgt == NO_STATE || !zero_state(t, tgt)) {
			ci[y].count = 1;
			ci[y].end = tgt == NO_STATE ? NO_STATE : t->states[tgt].first;
			ci[y].slot = c->next_off;
			ci[y].mark = 2;
		} else if (ci[tgt].mark == 2 && ci[tgt].count < CHAIN_MAX) {
			ci[y].count = ci[tgt].count + 1;
			ci[y].end = ci[tgt].end;
			ci[y].slot = ci[tgt].slot;
			ci[y].mark = 2;
		} else
			ci[y].mark = 3;
	}
}

/* The decoder's compact tables: per code its left-aligned bits, where it
 * leads (after the chain of zero-bit states) and how many edges that is. */
static void build_fast(struct tl_dcfg_ttable *t)
{
	t->fast = calloc((size_t)t->n + 1, sizeof *t->fast);
	t->step_next = calloc((size_t)t->n + 1, sizeof *t->step_next);
	struct chainfo *ci = calloc((size_t)t->nstates + 1, sizeof *ci);
	uint32_t *path = calloc((size_t)t->nstates + 1, sizeof *path);
	if (!t->fast || !t->step_next || !ci || !path) {
		free(t->fast);
		free(t->step_next);
		t->fast = NULL;
		t->step_next = NULL;
		goto out;
	}
	for (uint32_t st = 0; st < t->nstates; st++)
		if (ci[st].mark == 0 && zero_state(t, st))
			resolve_chain(t, ci, path, st);
	for (uint32_t i = 0; i < t->n; i++) {
		const struct tl_dcfg_tcode *c = &t->codes[i];
		struct tl_dcfg_dcode *f = &t->fast[i];
		uint32_t tgt = target_state(t, c);
		f->len = c->len;
		f->pad = padded(c);
		f->flags = (uint8_t)((c->next_n == 1 ? DC_SINGLE : 0) | (i + 1 == t->n || t->codes[i + 1].edge != c->edge ? DC_LAST : 0));
		t->step_next[i] = tgt == NO_STATE ? NO_STATE : t->states[tgt].first;
		f->next = t->step_next[i];
		f->next_off = c->next_off + c->next_n - 1;
		f->chain = 1;
		if (c->next_n == 1 && tgt != NO_STATE && ci[tgt].mark == 2 && ci[tgt].count < CHAIN_MAX) {
			f->chain = (uint16_t)(ci[tgt].count + 1);
			f->next = ci[tgt].end;
			f->next_off = ci[tgt].slot;
		}
	}
out:
	free(ci);
	free(path);
}

/* A state's table width: its longest code, capped so the table holds at
 * most LUT_PER_CODE entries per code and 2^LUT_MAX_BITS in all. */
static uint8_t lut_bits(const struct tl_dcfg_ttable *t, const struct tl_dcfg_tstate *s)
{
	if (t->codes[s->first].len == 0)
		return 0; /* the zero-bit code sorts first and always matches */
	uint8_t k = 0;
	for (uint32_t i = s->first; i < s->first + s->count; i++)
		if (t->codes[i].len > k)
			k = t->codes[i].len;
	if (k > LUT_MAX_BITS)
		k = LUT_MAX_BITS;
	while (k > 1 && ((uint64_t)1 << k) > (uint64_t)LUT_PER_CODE * s->count)
		k--;
	return k;
}

/* Fills one state's table so that a lookup starts the code-by-code scan
 * where it would first succeed: codes are in scan order, a code's span is
 * the entries its bits begin, and an entry a shorter code already holds
 * definitively (a prefix or duplicate that sorts first) keeps it. Each
 * entry is written once, so building costs the table's size. */
static void fill_lut(const struct tl_dcfg_ttable *t, const struct tl_dcfg_tstate *s, uint32_t *e, uint8_t k)
{
	for (uint32_t x = 0; x < (1u << k); x++)
		e[x] = LUT_MISS;
	for (uint32_t i = s->first; i < s->first + s->count; i++) {
		const struct tl_dcfg_tcode *c = &t->codes[i];
		uint32_t hi = padded(c) >> (32 - k);
		if (e[hi] != LUT_MISS && !(e[hi] & LUT_VERIFY))
			continue;
		if (c->len > k) {
			if (e[hi] == LUT_MISS)
				e[hi] = i | LUT_VERIFY;
			continue;
		}
		if (e[hi] == LUT_MISS)
			e[hi] = i;
		for (uint32_t x = hi + 1; x < hi + (1u << (k - c->len)); x++)
			e[x] = i;
	}
}

/* Lookup tables for every state with codes (bounded: LUT_PER_CODE
 * entries a code), then the fast loop's step tables over them. Without
 * memory the decoder compares codes one by one. */
static void build_luts(struct tl_dcfg_ttable *t)
{
	uint64_t total = 0;
	for (uint32_t st = 0; st < t->nstates; st++) {
		uint8_t k = lut_bits(t, &t->states[st]);
		total += k ? (uint64_t)1 << k : 0;
	}
	if (t->reference || total == 0 || total > UINT32_MAX / 2)
		return;
	t->lref = calloc(t->n, sizeof *t->lref);
	t->lut = malloc((size_t)total * sizeof *t->lut);
	if (!t->lref || !t->lut) {
		free(t->lref);
		free(t->lut);
		t->lref = NULL;
		t->lut = NULL;
		return;
	}
	uint32_t off = 0;
	for (uint32_t st = 0; st < t->nstates; st++) {
		const struct tl_dcfg_tstate *s = &t->states[st];
		uint8_t k = lut_bits(t, s);
		if (!k)
			continue;
		t->lref[s->first].off = off;
		t->lref[s->first].bits = k;
		fill_lut(t, s, t->lut + off, k);
		off += 1u << k;
	}
	tl_dcfg_build_steps(t);
	tl_dcfg_build_chars(t);
}

void tl_dcfg_ttable_finish(struct tl_json_check *v, struct tl_dcfg_ttable *t)
{
	if (!tl_dcfg_sort_codes(t->codes, t->n)) {
		tl_jv_out_of_memory(v);
		return;
	}
	t->states = calloc((size_t)t->n + 1, sizeof *t->states);
	if (!t->states) {
		tl_jv_out_of_memory(v);
		return;
	}
	for (uint32_t i = 0; i < t->n;) {
		uint32_t j = i;
		while (j < t->n && t->codes[j].edge == t->codes[i].edge)
			j++;
		/* In (padded, length) order a code is followed directly by the codes it prefixes. */
		for (uint32_t k = i + 1; k < j; k++) {
			const struct tl_dcfg_tcode *a = &t->codes[k - 1], *b = &t->codes[k];
			bool same = padded(a) == padded(b);
			if (!same && !(a->len < b->len && (b->bits >> (b->len - a->len)) == a->bits))
				continue;
			char ta[33], tb[33];
			code_text(a, ta);
			code_text(b, tb);
			if (same)
				tl_jv_report_cell(v, RULE_DTRACE_CODE_DUPLICATE, b->row, t->code_pos,
					  MSG_DTRACE_CODE_DUPLICATE,
					  (unsigned long long)a->edge, ta, tb);
			else
				tl_jv_report_cell(v, RULE_DTRACE_CODE_PREFIX, b->row, t->code_pos,
					  MSG_DTRACE_CODE_PREFIX,
					  (unsigned long long)a->edge, tb, ta);
		}
		struct tl_dcfg_tstate *s = &t->states[t->nstates];
		s->edge = t->codes[i].edge;
		s->first = i;
		s->count = j - i;
		tl_dcfg_id_put(v, &t->state_of, s->edge, t->nstates);
		t->nstates++;
		i = j;
	}
	build_fast(t);
	if (t->fast)
		build_luts(t);
}

void tl_dcfg_ttable_free(struct tl_dcfg_ttable *t)
{
	free(t->codes);
	free(t->next_ids);
	free(t->next_instr);
	free(t->states);
	free(t->fast);
	free(t->step_next);
	free(t->lref);
	free(t->lut);
	free(t->steps);
	free(t->step_chain);
	free(t->step_code);
	tl_dcfg_free_chars(t);
	free(t->next_index);
	free(t->next_cls);
	tl_dcfg_idmap_free(&t->state_of);
	memset(t, 0, sizeof *t);
}

/* Tally of edge occurrences (PAIR-EDGE-COUNT). */

bool tl_dcfg_tally_init(struct tl_dcfg_tally *t, uint32_t nedges)
{
	memset(t, 0, sizeof *t);
	t->nedges = nedges;
	t->count = calloc((size_t)nedges + 1, sizeof *t->count);
	t->slot = calloc((size_t)nedges + 1, sizeof *t->slot);
	t->broken = !t->count || !t->slot;
	return !t->broken;
}

void tl_dcfg_tally_free(struct tl_dcfg_tally *t)
{
	free(t->count);
	free(t->slot);
	free(t->log);
	memset(t, 0, sizeof *t);
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return tl_mul_u64(a, b, &r) ? r : UINT64_MAX;
}

static bool journal_push(struct tl_dcfg_tally *t, uint32_t edge, uint64_t n)
{
	struct tl_dcfg_tally_entry *nl = tl_grow_array(t->log, &t->cap, t->nlog, sizeof *nl, 256);
	if (!nl)
		return false;
	t->log = nl;
	t->log[t->nlog++] = (struct tl_dcfg_tally_entry){ edge, n };
	return true;
}

/* Merges the journal from `from` on into one entry per edge. */
static void journal_compact(struct tl_dcfg_tally *t, size_t from)
{
	size_t w = from;
	for (size_t i = from; i < t->nlog; i++) {
		uint32_t e = t->log[i].edge;
		if (t->slot[e]) {
			struct tl_dcfg_tally_entry *x = &t->log[from + t->slot[e] - 1];
			x->n = sat_add(x->n, t->log[i].n);
		} else {
			t->slot[e] = (uint32_t)(w - from + 1);
			t->log[w++] = t->log[i];
		}
	}
	for (size_t i = from; i < w; i++)
		t->slot[t->log[i].edge] = 0;
	t->nlog = w;
}

/* The decoder. */

#define NO_FRAME UINT32_MAX
#define NO_SLOT UINT32_MAX
/* Compact a journal zone when it outgrows twice its last compacted size plus this. */
#define JOURNAL_SLACK 256

struct frame {
	const struct tl_dcfg_seq_item *items;
	const uint8_t *text;
	uint32_t begin, end, pos, sub;
	uint64_t left;             /* iterations left, the current one included */
	uint32_t below;            /* nearest frame under this one holding a snapshot, NO_FRAME */
	bool snap;
	/* decoder state at the start of an earlier iteration (the snapshot),
	 * s_iters iterations ago; it is renewed when s_iters reaches s_span,
	 * which then doubles (Brent's cycle search) */
	uint64_t s_iters, s_span;
	uint32_t s_st, s_bufn;
	uint64_t s_buf, s_edges, s_used, s_pulled, s_instr, s_entries, s_exits;
	size_t s_log, z_len;       /* journal position of the snapshot; its zone's size when last compacted */
};

struct decoder {
	const struct tl_dcfg_dict *dict;
	const struct tl_dcfg_ttable *t;
	struct frame *fr;
	uint32_t depth;
	size_t cap;
	uint64_t buf;      /* bufn bits at the bottom, oldest first */
	uint32_t bufn;
	uint64_t pulled, used, edges, instr, edge_count, entries, exits;
	uint32_t st;       /* transition state of the current edge, NO_STATE */
	uint32_t slot;     /* next_ids index of the current edge, NO_SLOT for FIRST_EDGE_ID */
	uint64_t first_edge;
	struct tl_dcfg_tally *tally;
	bool (*visit)(void *user, uint64_t edge);
	void *visit_user;
	bool instr_known, nomem, stopped;
};

static uint64_t cur_edge(const struct decoder *d)
{
	return d->slot == NO_SLOT ? d->first_edge : d->t->next_ids[d->slot];
}

static uint32_t innermost_snapped(const struct decoder *d)
{
	if (!d->depth)
		return NO_FRAME;
	const struct frame *f = &d->fr[d->depth - 1];
	return f->snap ? d->depth - 1 : f->below;
}

static bool push(struct decoder *d, const struct tl_dcfg_seq_item *items, const uint8_t *text, uint32_t begin, uint32_t end, uint64_t left)
{
	struct frame *nf = d->depth < UINT32_MAX ? tl_grow_array(d->fr, &d->cap, d->depth, sizeof *nf, 32) : NULL;
	if (!nf) {
		d->nomem = true;
		return false;
	}
	d->fr = nf;
	uint32_t below = innermost_snapped(d);
	struct frame *f = &d->fr[d->depth++];
	memset(f, 0, sizeof *f);
	f->items = items;
	f->text = text;
	f->begin = f->pos = begin;
	f->end = end;
	f->left = left;
	f->below = below;
	return true;
}

/* One decoded edge, with the pairing bookkeeping. */
static void count_edge(struct decoder *d, uint32_t index, uint8_t cls)
{
	if (cls == EC_ENTRY)
		d->entries = sat_add(d->entries, 1);
	else if (cls == EC_EXIT)
		d->exits = sat_add(d->exits, 1);
	struct tl_dcfg_tally *t = d->tally;
	if (!t || t->broken || index == NO_INDEX)
		return;
	t->count[index] = sat_add(t->count[index], 1);
	uint32_t open = innermost_snapped(d);
	if (open == NO_FRAME)
		return;
	struct frame *z = &d->fr[open];
	if (t->nlog > z->s_log && t->log[t->nlog - 1].edge == index) {
		t->log[t->nlog - 1].n = sat_add(t->log[t->nlog - 1].n, 1);
		return;
	}
	if (!journal_push(t, index, 1)) {
		t->broken = true;
		return;
	}
	if (t->nlog - z->s_log > 2 * z->z_len + JOURNAL_SLACK) {
		journal_compact(t, z->s_log);
		z->z_len = t->nlog - z->s_log;
	}
}

/* At the start of a repeat iteration: if the iterations since the snapshot
 * brought the decoder back to the state it was in then, they are a cycle
 * (the decoder is deterministic in its state and the iteration's text):
 * skip as many whole cycles as the remaining iterations and edge budget
 * allow, keeping the last iteration to run for real. The snapshot is
 * renewed at spans 1, 2, 4, ... iterations, so a cycle of any length L
 * entered after any prefix is found within a few times L + prefix
 * iterations, and nothing is held but the one snapshot. */
static void maybe_skip(struct decoder *d, struct frame *f)
{
	uint64_t mask = d->bufn ? (d->bufn == 64 ? UINT64_MAX : (((uint64_t)1 << d->bufn) - 1)) : 0;
	uint64_t bufv = d->buf & mask;
	struct tl_dcfg_tally *t = d->tally && !d->tally->broken ? d->tally : NULL;
	if (d->visit) /* every edge is visited: no iteration is skipped */
		return;
	bool renew = !f->snap;
	if (f->snap) {
		f->s_iters++;
		if (d->st != NO_STATE && f->s_st == d->st && f->s_bufn == d->bufn && f->s_buf == bufv && d->edges > f->s_edges) {
			uint64_t lap = f->s_iters; /* iterations a cycle takes */
			uint64_t de = d->edges - f->s_edges, db = d->used - f->s_used, dp = d->pulled - f->s_pulled;
			uint64_t di = d->instr - f->s_instr;
			uint64_t room = d->edge_count - 1 - d->edges; /* edges < edge_count while decoding */
			uint64_t k = room / de;
			if (k > (f->left - 1) / lap)
				k = (f->left - 1) / lap;
			if (k) {
				f->left -= k * lap;   /* k * lap <= left - 1 */
				d->edges += k * de;   /* <= edge_count - 1: no overflow */
				d->used = sat_add(d->used, sat_mul(k, db));
				d->pulled = sat_add(d->pulled, sat_mul(k, dp));
				uint64_t add;
				if (!tl_mul_u64(k, di, &add) || !tl_add_u64(d->instr, add, &d->instr))
					d->instr_known = false;
				d->entries = sat_add(d->entries, sat_mul(k, d->entries - f->s_entries));
				d->exits = sat_add(d->exits, sat_mul(k, d->exits - f->s_exits));
				/* The journal since the snapshot is exactly the last cycle. */
				for (size_t i = f->s_log; t && i < t->nlog; i++) {
					struct tl_dcfg_tally_entry *x = &t->log[i];
					t->count[x->edge] = sat_add(t->count[x->edge], sat_mul(k, x->n));
					x->n = sat_mul(k + 1, x->n);
				}
			}
			renew = true;
			f->s_span = 1;
		} else if (f->s_iters >= f->s_span) {
			renew = true;
			f->s_span = f->s_span > UINT64_MAX / 2 ? UINT64_MAX : 2 * f->s_span;
		}
	} else
		f->s_span = 1;
	if (!renew)
		return;
	if (t) {
		/* Older increments matter only to frames with a snapshot below this one. */
		if (f->below == NO_FRAME)
			t->nlog = 0;
		else {
			struct frame *g = &d->fr[f->below];
			if (t->nlog - g->s_log > 2 * g->z_len + JOURNAL_SLACK) {
				journal_compact(t, g->s_log);
				g->z_len = t->nlog - g->s_log;
			}
		}
		f->s_log = t->nlog;
		f->z_len = 0;
	}
	f->snap = true;
	f->s_iters = 0;
	f->s_st = d->st;
	f->s_bufn = d->bufn;
	f->s_buf = bufv;
	f->s_edges = d->edges;
	f->s_used = d->used;
	f->s_pulled = d->pulled;
	f->s_instr = d->instr;
	f->s_entries = d->entries;
	f->s_exits = d->exits;
}

/* Appends 6-bit characters of the expansion until want bits are buffered
 * (or the expansion ends). Literal runs are copied in a tight loop; repeat
 * and reference items move the frame stack. */
static void fill_to(struct decoder *d, uint32_t need, uint32_t want)
{
	while (d->bufn < want && d->depth) {
		struct frame *f = &d->fr[d->depth - 1];
		const struct tl_dcfg_seq_item *it = &f->items[f->pos];
		/* Past `need`, only a literal run in progress is read on: a repeat
		 * iteration starts while the buffer is as short as it would be
		 * without the extra bits, so identical iterations still look
		 * identical to maybe_skip. */
		if (d->bufn >= need && (f->pos == f->end || it->kind != IT_LIT))
			return;
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
		if (it->kind == IT_LIT) {
			const uint8_t *p = f->text + it->start + f->sub;
			uint32_t rem = it->len - f->sub, take = (want - d->bufn + 5) / 6;
			if (take > rem)
				take = rem;
			for (uint32_t i = 0; i < take; i++)
				d->buf = (d->buf << 6) | tl_dcfg_b64_bits(p[i]);
			d->bufn += 6 * take;
			d->pulled += 6 * (uint64_t)take;
			f->sub += take;
			if (f->sub >= it->len) {
				f->pos++;
				f->sub = 0;
			}
			continue;
		}
		uint32_t at = f->pos;
		const uint8_t *text = f->text;
		const struct tl_dcfg_seq_item *items = f->items;
		if (it->kind == IT_REP) {
			f->pos += it->len + 1;
			if (it->bits && it->reps && !push(d, items, text, at + 1, at + 1 + it->len, it->reps))
				return;
		} else {
			f->pos++;
			if (it->bits && d->dict && it->ref < d->dict->n && !d->dict->e[it->ref].cyclic) {
				const struct tl_dcfg_seq *s = &d->dict->e[it->ref].seq;
				if (!push(d, s->items, s->text, 0, s->n, 1))
					return;
			}
		}
	}
}

/* The fast loop refills below this many bits (a step table's widest entry
 * and then some). */
#define REFILL_MARK (STEP_MAX_BITS + 4)

/* A refill tops the buffer up to this many bits (at most 63 after whole
 * characters), so one refill serves several codes. */
#define FILL_BITS 58

static void fill(struct decoder *d, uint32_t want) { fill_to(d, want, want); }

/* The next 32 bits, left-aligned (zeros past the end of the buffer). */
static uint32_t peek32(const struct decoder *d)
{
	return d->bufn >= 32 ? (uint32_t)(d->buf >> (d->bufn - 32)) : (uint32_t)(d->buf << (32 - d->bufn));
}


/* The edges of a matched code's group, with everything pairing needs
 * (slow path: groups of several edges, or --pair). */
static void emit_group(struct tl_json_check *v, struct decoder *d, uint32_t ci, const struct tl_dcfg_chunk *c)
{
	const struct tl_dcfg_ttable *t = d->t;
	const struct tl_dcfg_tcode *code = &t->codes[ci];
	for (uint32_t k = 0; k < code->next_n; k++) {
		if (d->edges == c->edge_count) {
			tl_jv_report(v, RULE_DTRACE_GROUP_OVERSHOOT, c->node,
				  MSG_DTRACE_GROUP_OVERSHOOT,
				  (unsigned long long)c->edge_count, code->next_n - k);
			return;
		}
		uint32_t slot = code->next_off + k;
		d->slot = slot;
		d->edges++;
		if (t->next_instr && !tl_add_u64(d->instr, t->next_instr[slot], &d->instr))
			d->instr_known = false;
		if (t->next_index || t->next_cls)
			count_edge(d, t->next_index ? t->next_index[slot] : NO_INDEX, t->next_cls ? t->next_cls[slot] : EC_INTRA);
		if (d->visit && !d->visit(d->visit_user, t->next_ids[slot])) {
			d->stopped = true;
			return;
		}
	}
	d->st = t->step_next[ci];
}

#define NO_ENTRY UINT32_MAX

/* The literal run the decoder is reading: its characters from the next
 * one on, NULL when the next item is not a literal (a repeat or reference
 * comes first). */
static const uint8_t *literal_ahead(const struct decoder *d, uint32_t *n)
{
	const struct frame *f = d->depth ? &d->fr[d->depth - 1] : NULL;
	const struct tl_dcfg_seq_item *it = f && f->pos != f->end ? &f->items[f->pos] : NULL;
	*n = it && it->kind == IT_LIT ? it->len - f->sub : 0;
	return *n ? f->text + it->start + f->sub : NULL;
}

/* Back into the frame: the fast loop read that run up to `n` characters
 * from its end, adding `bits` bits. */
static void literal_taken(struct decoder *d, uint32_t n, uint64_t bits)
{
	struct frame *f = &d->fr[d->depth - 1];
	const struct tl_dcfg_seq_item *it = &f->items[f->pos];
	d->pulled += bits;
	f->sub = it->len - n;
	if (f->sub == it->len) {
		f->pos++;
		f->sub = 0;
	}
}

/* The code the fast loop took last: the last code of step entry `last`, or
 * `code` (taken alone) when no step entry came after it. */
static uint32_t last_code(const struct tl_dcfg_ttable *t, uint32_t last, uint32_t code)
{
	return last == NO_ENTRY ? code : t->step_code[last];
}

/* Where that code left the decoder. */
static void settle(struct decoder *d, uint32_t code)
{
	if (code == LUT_MISS)
		return;
	const struct tl_dcfg_dcode *f = &d->t->fast[code];
	d->st = f->next;
	d->slot = f->next_off;
}

/* Eight modified-Base64 characters as 48 bits, the first the highest. (A
 * SWAR decode, the eight range tests in parallel, costs more instructions
 * here: its constants and masks outnumber the eight table loads.) */
static uint64_t b64_eight(const uint8_t *p)
{
	return (uint64_t)tl_dcfg_b64_bits(p[0]) << 42 | (uint64_t)tl_dcfg_b64_bits(p[1]) << 36 | (uint64_t)tl_dcfg_b64_bits(p[2]) << 30 |
	       (uint64_t)tl_dcfg_b64_bits(p[3]) << 24 | (uint64_t)tl_dcfg_b64_bits(p[4]) << 18 | (uint64_t)tl_dcfg_b64_bits(p[5]) << 12 |
	       (uint64_t)tl_dcfg_b64_bits(p[6]) << 6 | (uint64_t)tl_dcfg_b64_bits(p[7]);
}

/* Up to n characters from row *row, stopping before one whose entry takes
 * no edge; adds the edges taken to *edges, leaves the last entry taken in
 * *entry (unchanged when none) and returns the characters taken. The next
 * row's address is the only value carried from one character to the next. */
static size_t take_run(const struct tl_dcfg_ttable *t, const uintptr_t **row, const uint8_t *p, size_t n, uint64_t *edges, size_t *entry)
{
	const uintptr_t *r = *row, *base = t->char_next;
	const uint8_t *chains = t->char_chain;
	uint64_t sum = 0;
	size_t last = *entry, i = 0;
	for (; i < n; i++) {
		uint32_t c = tl_dcfg_b64_bits(p[i]);
		uintptr_t next = r[c];
		size_t e = (size_t)(r - base) + c;
		uint8_t chain = chains[e];
		if (!chain)
			break;
		sum += chain;
		last = e;
		r = (const uintptr_t *)next;
	}
	*row = r;
	*edges += sum;
	*entry = last;
	return i;
}

/* A block of 2 * SPEC_CHARS characters as two chains of loads at once:
 * the first half from the true row, the second from a guess (the same
 * row), checkpointed every SPEC_MARK characters. If the first half does
 * not end on the guess, the second is taken again from where it did end
 * until that walk meets the guessed one at a checkpoint: from there on
 * the two are the same walk (rows are a function of row and character).
 * A walk whose rows forget their start within a few dozen characters
 * (a dispatch loop) costs half the time; one that never meets its guess
 * costs what one chain costs. Same result as take_run over the block. */
#define SPEC_CHARS 2048
#define SPEC_MARK 64

static size_t take_pair(const struct tl_dcfg_ttable *t, const uintptr_t **row, const uint8_t *p, uint64_t *edges, size_t *entry)
{
	const uintptr_t *base = t->char_next, *ra = *row, *rb = *row, *guess = *row;
	const uint8_t *chains = t->char_chain, *pb = p + SPEC_CHARS;
	const uintptr_t *mark_row[SPEC_CHARS / SPEC_MARK];
	uint64_t mark_sum[SPEC_CHARS / SPEC_MARK];
	uint64_t sa = 0, sb = 0;
	size_t ea = *entry, eb = SIZE_MAX, i = 0;
	for (; i < SPEC_CHARS; i++) {
		uint32_t ca = tl_dcfg_b64_bits(p[i]), cb = tl_dcfg_b64_bits(pb[i]);
		uintptr_t na = ra[ca], nb = rb[cb];
		size_t xa = (size_t)(ra - base) + ca, xb = (size_t)(rb - base) + cb;
		uint8_t ha = chains[xa], hb = chains[xb];
		if (!ha || !hb)
			break;
		sa += ha;
		sb += hb;
		ea = xa;
		eb = xb;
		ra = (const uintptr_t *)na;
		rb = (const uintptr_t *)nb;
		if ((i + 1) % SPEC_MARK == 0) {
			mark_row[i / SPEC_MARK] = rb;
			mark_sum[i / SPEC_MARK] = sb;
		}
	}
	size_t nb = i; /* the guessed walk's characters */
	if (i < SPEC_CHARS) {
		size_t more = take_run(t, &ra, p + i, SPEC_CHARS - i, &sa, &ea);
		if (more < SPEC_CHARS - i) {
			*row = ra; /* the true walk stopped in the first half */
			*edges += sa;
			*entry = ea;
			return i + more;
		}
	}
	*edges += sa;
	*entry = ea;
	if (ra == guess) {
		*row = rb;
		*edges += sb;
		if (nb)
			*entry = eb;
		return SPEC_CHARS + nb;
	}
	const uintptr_t *r = ra;
	for (size_t m = 0; (m + 1) * SPEC_MARK <= nb; m++) {
		size_t got = take_run(t, &r, pb + m * SPEC_MARK, SPEC_MARK, edges, entry);
		if (got < SPEC_MARK) {
			*row = r;
			return SPEC_CHARS + m * SPEC_MARK + got;
		}
		if (r == mark_row[m]) {
			*edges += sb - mark_sum[m];
			if (nb > (m + 1) * SPEC_MARK)
				*entry = eb;
			*row = rb;
			return SPEC_CHARS + nb;
		}
	}
	size_t done = nb / SPEC_MARK * SPEC_MARK;
	size_t got = take_run(t, &r, pb + done, SPEC_CHARS - done, edges, entry);
	*row = r;
	return SPEC_CHARS + done + got;
}

/* Characters of a literal run through the character tables, from row
 * `row`, up to `stop` and while more edges are left than the characters
 * could take. Returns where it stopped; `*entry` is the last entry taken
 * (unchanged when none) and `*left` what remains. */
static const uint8_t *take_chars(const struct tl_dcfg_ttable *t, const uintptr_t *row, const uint8_t *p, const uint8_t *stop,
				 uint64_t *left, size_t *entry)
{
	uint64_t taken = 0, most = 2 * SPEC_CHARS * (uint64_t)t->char_chain_max;
	while (stop - p >= 2 * SPEC_CHARS && *left - taken > most) {
		size_t n = take_pair(t, &row, p, &taken, entry);
		p += n;
		if (n < 2 * SPEC_CHARS) {
			*left -= taken;
			return p;
		}
	}
	/* The rest, checking the edges left at each character. */
	while (p < stop && *left - taken > t->char_chain_max && take_run(t, &row, p, 1, &taken, entry))
		p++;
	*left -= taken;
	return p;
}

#define CHAR_SHORT_RUN 16
#define CHAR_WAIT 16

/* The row for state `st` with `pend` bits of a code begun (the top bits
 * of `top`), or NULL. */
static const uintptr_t *char_row(const struct tl_dcfg_ttable *t, uint32_t st, uint64_t top, uint32_t pend)
{
	uint16_t at = t->lref[st].chars;
	if (at == CHAR_NONE)
		return NULL;
	uint32_t r = t->char_enter[(size_t)at * CHAR_PENDING + (1u << pend) - 1 + (pend ? (uint32_t)(top >> (64 - pend)) : 0)];
	return r == NO_ROW ? NULL : t->char_next + (size_t)r * 64;
}

/* Steps that each take one step table entry (one or more definite one-edge
 * codes, each leading to a state with tables), with the decoder's state in
 * locals, until a step needs more (a longer code, a group, a missing row,
 * the last edges, the end of the bits); the general loop takes that step.
 *
 * Near the end of a literal run, codes are taken one at a time through the
 * lookup tables instead, so the buffer runs low (and a refill crosses into
 * the next repeat iteration) at the first code boundary below the refill
 * mark, as when every step was one code: a repeat iteration then starts
 * with the buffer as it started the last one, and maybe_skip can skip the
 * identical iterations that follow. */
/* Kept out of tl_dcfg_decode_chunk so the hot loop has the registers. */
__attribute__((noinline)) static void run_fast(struct decoder *d, uint64_t limit)
{
	const struct tl_dcfg_ttable *t = d->t;
	const tl_dcfg_step_entry *steps = t->steps;
	const uint8_t *chains = t->step_chain;
	uint32_t off = t->lref[d->st].soff, sh = 64 - t->lref[d->st].sbits;
	if (sh == 64)
		return;
	/* The bits left-aligned in `top`, so a table index is one shift; the
	 * edges still to go in `left`; bits used follow from bufn and what
	 * was added (`in`), so a step updates as little as it can. */
	uint32_t bufn = d->bufn, last = NO_ENTRY, code = LUT_MISS;
	/* Step entries run while the buffer holds `mark` bits: REFILL_MARK
	 * while eight characters of a literal run are still to come, else so
	 * much more that no entry can cross REFILL_MARK (below, steps take one
	 * code). */
	const uint32_t near_end = REFILL_MARK + STEP_MAX_BITS;
	/* Edges the hot loop may take between two checks of the edges left:
	 * an entry takes at least one bit of the 64 the buffer holds. */
	const uint64_t hot_edges = 64 * (uint64_t)t->step_chain_max;
	/* The literal run in progress, read here eight characters at a time
	 * (`lit_n` left) and put back into its frame before anything else
	 * reads the frames. */
	uint32_t lit_n;
	const uint8_t *lit = literal_ahead(d, &lit_n);
	uint32_t mark = lit_n >= 8 ? REFILL_MARK : near_end;
	uint32_t char_wait = 0; /* refills before the character tables are tried again */
	uint64_t top = bufn ? d->buf << (64 - bufn) : 0, left = limit - d->edges, in = d->used + bufn, lit_in = in;
	for (;;) {
		/* Near the last edge, steps take one code, each checked. */
		if (left > hot_edges)
			while (bufn >= mark) {
				uint32_t ei = off + (uint32_t)(top >> sh);
				tl_dcfg_step_entry e = steps[ei];
				uint32_t chain = chains[ei];
				if (!chain)
					goto out;
				top <<= SE_LEN(e);
				bufn -= SE_LEN(e);
				left -= chain;
				last = ei;
				off = SE_NEXT(e);
				sh = SE_SHIFT(e);
			}
		if (!left)
			break;
		if (bufn >= REFILL_MARK) {
			/* One code, as the state's lookup table names it. */
			code = last_code(t, last, code);
			last = NO_ENTRY;
			uint32_t st = code == LUT_MISS ? d->st : t->fast[code].next;
			const struct tl_dcfg_lutref *r = &t->lref[st];
			uint32_t c = t->lut[r->off + (uint32_t)(top >> (64 - r->bits))];
			if (c & LUT_VERIFY) /* LUT_MISS included */
				break;
			const struct tl_dcfg_dcode *f = &t->fast[c];
			if (!(f->flags & DC_SINGLE) || f->next == NO_STATE || !t->lref[f->next].bits || f->chain > left)
				break;
			top <<= f->len;
			bufn -= f->len;
			left -= f->chain;
			code = c;
			off = t->lref[f->next].soff;
			sh = 64 - t->lref[f->next].sbits;
			continue;
		}
		/* Eight characters straight from a literal run in progress (no
		 * repeat boundary is crossed, so nothing for maybe_skip to see). */
		if (lit_n >= 8) {
			/* Through the character tables when the state has them: the
			 * whole characters in the buffer are read again from the
			 * run, the bits before them are the row's pending code. */
			if (char_wait)
				char_wait--;
			else if (t->char_next && lit_n > 16 && left > STEP_CHAIN_MAX && in - lit_in >= bufn) {
				uint32_t cc = last_code(t, last, code);
				const uintptr_t *row = char_row(t, cc == LUT_MISS ? d->st : t->fast[cc].next, top, bufn % 6);
				const uint8_t *from = lit - bufn / 6, *end = lit + lit_n;
				size_t entry = SIZE_MAX;
				const uint8_t *p = row ? take_chars(t, row, from, end - 8, &left, &entry) : from;
				/* A short run in the tables (the walk left their states
				 * soon) is not worth the next few attempts. */
				if (p < from + CHAR_SHORT_RUN)
					char_wait = CHAR_WAIT;
				if (p != from) {
					/* The pending bits of the row reached stay in the buffer. */
					size_t r = (size_t)((const uintptr_t *)t->char_next[entry] - t->char_next) / 64;
					code = t->char_code[entry];
					last = NO_ENTRY;
					in = in - 6 * (uint64_t)(lit - from) + 6 * (uint64_t)(p - from);
					bufn = t->char_pend_len[r];
					top = bufn ? (uint64_t)t->char_pend[r] << (64 - bufn) : 0;
					lit = p;
					lit_n = (uint32_t)(end - p);
					off = t->lref[t->fast[code].next].soff;
					sh = 64 - t->lref[t->fast[code].next].sbits;
					mark = lit_n >= 8 ? REFILL_MARK : near_end;
					continue;
				}
			}
			top |= b64_eight(lit) << (16 - bufn);
			bufn += 48;
			in += 48;
			lit += 8;
			lit_n -= 8;
			mark = lit_n >= 8 ? REFILL_MARK : near_end;
			continue;
		}
		if (lit)
			literal_taken(d, lit_n, in - lit_in);
		code = last_code(t, last, code);
		last = NO_ENTRY;
		settle(d, code);
		code = LUT_MISS;
		d->buf = bufn ? top >> (64 - bufn) : 0, d->bufn = bufn, d->edges = limit - left, d->used = in - bufn;
		fill_to(d, REFILL_MARK, FILL_BITS);
		bufn = d->bufn, left = limit - d->edges, in = lit_in = d->used + bufn;
		top = bufn ? d->buf << (64 - bufn) : 0;
		lit = literal_ahead(d, &lit_n);
		mark = lit_n >= 8 ? REFILL_MARK : near_end;
		/* Short of REFILL_MARK the sequence has ended: its last bits go
		 * to the general step. */
		if (bufn < REFILL_MARK || d->nomem) {
			lit = NULL; /* the frames are up to date */
			break;
		}
	}
out:
	if (lit)
		literal_taken(d, lit_n, in - lit_in);
	settle(d, last_code(t, last, code));
	d->buf = bufn ? top >> (64 - bufn) : 0, d->bufn = bufn, d->edges = limit - left, d->used = in - bufn;
}

void tl_dcfg_decode_chunk(struct tl_json_check *v, const struct tl_dcfg_seq *s, const struct tl_dcfg_ttable *t, const struct tl_dcfg_dict *dict, struct tl_dcfg_chunk *c)
{
	struct decoder d = { 0 };
	d.dict = dict;
	d.t = t;
	d.edge_count = c->edge_count;
	d.first_edge = c->first_edge;
	d.slot = NO_SLOT;
	d.st = NO_STATE;
	d.tally = c->tally;
	d.instr_known = true;
	d.visit = c->visit;
	d.visit_user = c->visit_user;
	c->ok = false;
	c->stopped = false;
	c->edges_done = 0;
	c->instr = 0;
	c->instr_known = true;
	c->counts_known = true;
	c->entries = c->exits = 0;
	c->last_cls = EC_INTRA;
	if (!t->fast && t->n)
		goto out; /* out of memory building the table */
	/* A visitor takes the path pairing takes: every edge on its own. */
	bool pairing = t->next_instr || t->next_index || t->next_cls || c->tally || c->visit;
	if (c->edge_count) {
		d.edges = 1;
		d.instr = c->first_instr;
		uint32_t si = tl_dcfg_idmap_get(&t->state_of, c->first_edge);
		d.st = si == IDMAP_NONE ? NO_STATE : t->states[si].first;
		if (pairing)
			count_edge(&d, c->first_index, c->first_cls);
		if (d.visit && !d.visit(d.visit_user, c->first_edge)) {
			d.stopped = true;
			goto out;
		}
	}
	if (s->bits && !push(&d, s->items, s->text, 0, s->n, 1))
		goto out;
	uint32_t zero_run = 0;
	bool one_load = !pairing && t->steps;
	while (d.edges < c->edge_count) {
		if (one_load && d.st != NO_STATE) {
			uint64_t before = d.edges;
			run_fast(&d, c->edge_count);
			if (d.edges != before)
				zero_run = 0;
			if (d.edges >= c->edge_count || d.nomem)
				break;
		}
		if (d.st == NO_STATE) {
			tl_jv_report(v, RULE_DTRACE_DECODE, c->node,
				  MSG_DTRACE_DECODE,
				  (unsigned long long)cur_edge(&d), (unsigned long long)d.edges + 1, (unsigned long long)c->edge_count);
			goto out;
		}
		uint32_t k = d.st;
		const struct tl_dcfg_dcode *f = &t->fast[k];
		if (f->len) {
			if (d.bufn < 32)
				fill_to(&d, 32, FILL_BITS);
			uint32_t top = peek32(&d);
			bool found = false;
			if (t->lref) {
				/* One lookup names the code, or the first that can match. */
				const struct tl_dcfg_lutref *r = &t->lref[k];
				uint32_t e = d.bufn >= r->bits ? t->lut[r->off + (top >> (32 - r->bits))] : LUT_MISS;
				if (e != LUT_MISS) {
					k = e & ~LUT_VERIFY;
					f = &t->fast[k];
					found = !(e & LUT_VERIFY);
				}
			}
			while (!found && (f->len > d.bufn || ((top ^ f->pad) & tl_dcfg_code_mask(f->len)) != 0)) {
				if (f->flags & DC_LAST) {
					if (d.nomem)
						goto out;
					tl_jv_report(v, RULE_DTRACE_DECODE, c->node,
						  MSG_DTRACE_DECODE_2,
						  (unsigned long long)cur_edge(&d), (unsigned long long)d.used, (unsigned long long)d.edges + 1,
						  (unsigned long long)c->edge_count, d.bufn < 32 ? "the sequence exhausted" : "bits matching no code");
					goto out;
				}
				f = &t->fast[++k];
			}
			d.bufn -= f->len;
			d.used += f->len;
		}
		if (!pairing && (f->flags & DC_SINGLE) && f->chain <= c->edge_count - d.edges) {
			d.edges += f->chain;
			d.slot = f->next_off;
			d.st = f->next;
		} else {
			emit_group(v, &d, k, c);
			if (d.stopped)
				goto out;
		}
		/* Zero-bit transitions that revisit a state loop forever without
		 * consuming input: the rest of the chunk is that loop. (A collapsed
		 * chain counts as one step here, so such a loop is caught at most a
		 * few laps later.) */
		if (f->len)
			zero_run = 0;
		else if (++zero_run > t->nstates && !d.visit) {
			d.edges = c->edge_count;
			d.instr_known = false;
			c->counts_known = false;
		}
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
		tl_jv_report(v, RULE_DTRACE_EXCESS_BITS, c->node,
			  MSG_DTRACE_EXCESS_BITS,
			  (unsigned long long)c->edge_count, extra, total);
		goto out;
	}
	fill(&d, (uint32_t)unused);
	if (unused && d.bufn >= unused && (d.buf & ((((uint64_t)1) << unused) - 1)))
		tl_jv_report(v, RULE_DTRACE_PAD_BITS, c->node, MSG_DTRACE_PAD_BITS,
			  (unsigned long long)unused, (unsigned long long)(d.buf & ((((uint64_t)1) << unused) - 1)));
	c->ok = true;
out:
	if (d.nomem || (d.tally && d.tally->broken)) /* the tally breaks only for memory */
		tl_jv_out_of_memory(v);
	if (d.tally && d.tally->broken)
		c->counts_known = false;
	c->stopped = d.stopped;
	c->edges_done = d.edges;
	c->instr = d.instr;
	c->instr_known = d.instr_known;
	c->last_edge = d.edges ? cur_edge(&d) : 0;
	c->entries = d.entries;
	c->exits = d.exits;
	if (d.edges && t->next_cls)
		c->last_cls = d.slot == NO_SLOT ? c->first_cls : t->next_cls[d.slot];
	free(d.fr);
}
