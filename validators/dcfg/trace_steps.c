/* Step tables: the fast loop's per-state tables, indexed by the next
 * `sbits` bits of the sequence, each entry taking every whole code those
 * bits hold while each is a definite one-edge code into a state with
 * tables. A fixed 6-bit code then takes two edges a lookup at 12 bits, a
 * state of 1-bit codes several. Each code is the one the code-by-code
 * reference would find, whatever bits follow, or the entry stops before
 * it and the general step decides (and reports) as before. */
#include "trace_decode.h"

#include <stdlib.h>

/* The code of the state whose first code is `first` that the `avail`
 * bits of x (left-aligned) decide, or LUT_MISS: no code matches, or one
 * that might match is longer than avail (the reference would then need
 * the bits that follow). Scans in the reference's order from where the
 * state's lookup table points. A code found that fits in avail is the
 * reference's whatever bits follow: codes are scanned by their bits padded
 * to 32, a shorter code first, so no code before it extends it. */
uint32_t tl_dcfg_decided_code(const struct tl_dcfg_ttable *t, uint32_t first, uint32_t x, uint32_t avail)
{
	uint32_t k = first;
	const struct tl_dcfg_lutref *r = &t->lref[first];
	if (r->bits <= avail) {
		uint32_t e = t->lut[r->off + (x >> (32 - r->bits))];
		if (e == LUT_MISS)
			return LUT_MISS;
		k = e & ~LUT_VERIFY;
	}
	for (;; k++) {
		const struct tl_dcfg_dcode *f = &t->fast[k];
		uint8_t seen = f->len < avail ? f->len : (uint8_t)avail;
		if (((x ^ f->pad) & tl_dcfg_code_mask(seen)) == 0)
			return f->len <= avail ? k : LUT_MISS;
		if (f->flags & DC_LAST)
			return LUT_MISS;
	}
}

/* A code the fast loop may take: one edge (after its chain), into a state
 * with tables. */
bool tl_dcfg_one_load(const struct tl_dcfg_ttable *t, uint32_t code)
{
	const struct tl_dcfg_dcode *f = &t->fast[code];
	return (f->flags & DC_SINGLE) && f->next != NO_STATE && t->lref[f->next].bits;
}

static void fill_steps(struct tl_dcfg_ttable *t, uint32_t first)
{
	const struct tl_dcfg_lutref *r = &t->lref[first];
	uint8_t k = r->sbits;
	for (uint32_t x = 0; x < (1u << k); x++) {
		uint32_t bits = x << (32 - k), cur = first, used = 0, chain = 0, last = LUT_MISS;
		while (used < k) {
			uint32_t c = tl_dcfg_decided_code(t, cur, bits << used, k - used);
			if (c == LUT_MISS || !tl_dcfg_one_load(t, c) || chain + t->fast[c].chain > STEP_CHAIN_MAX)
				break;
			used += t->fast[c].len;
			chain += t->fast[c].chain;
			last = c;
			cur = t->fast[c].next;
		}
		t->steps[r->soff + x] = chain ? SE_MAKE(t->lref[cur].soff, t->lref[cur].sbits, used) : 0;
		t->step_chain[r->soff + x] = (uint8_t)chain;
		if (chain > t->step_chain_max)
			t->step_chain_max = (uint8_t)chain;
		t->step_code[r->soff + x] = last;
	}
}

/* Whether widening the state whose first code is `first` to w bits pays:
 * the codes after which a code of the next state still fits in w bits
 * must carry at least half the state's weight, a code of len bits
 * weighing 2^-len (its probability, were the code a Huffman code). A
 * dispatch of 8-bit codes back to itself stays at 8 bits; fixed 6-bit
 * codes, branches and a skewed table's short hot codes widen. */
static bool widen_pays(const struct tl_dcfg_ttable *t, const uint8_t *shortest, uint32_t first, uint8_t w)
{
	double fits = 0, all = 0;
	for (uint32_t i = first;; i++) {
		const struct tl_dcfg_dcode *f = &t->fast[i];
		double weight = 1.0 / (double)((uint64_t)1 << (f->len < 63 ? f->len : 63));
		all += weight;
		if (tl_dcfg_one_load(t, i) && f->len + shortest[f->next] <= w)
			fits += weight;
		if (f->flags & DC_LAST)
			break;
	}
	return 2 * fits >= all;
}

void tl_dcfg_build_steps(struct tl_dcfg_ttable *t)
{
	/* One width, as wide as STEP_BUDGET allows, for the states where it
	 * pays; the others keep their lookup table's width. */
	uint64_t with = 0, total = 0;
	uint8_t *shortest = malloc(t->n ? t->n : 1); /* per state, at its first code */
	if (!shortest)
		return;
	for (uint32_t st = 0; st < t->nstates; st++) {
		const struct tl_dcfg_tstate *x = &t->states[st];
		uint8_t m = 255;
		for (uint32_t i = x->first; i < x->first + x->count; i++)
			if (t->fast[i].len < m)
				m = t->fast[i].len;
		shortest[x->first] = t->lref[x->first].bits ? m : 255;
		with += t->lref[x->first].bits != 0;
	}
	uint8_t w = STEP_MAX_BITS;
	while (w > 1 && (with << w) > STEP_BUDGET)
		w--;
	for (uint32_t st = 0; st < t->nstates; st++) {
		struct tl_dcfg_lutref *r = &t->lref[t->states[st].first];
		if (r->bits)
			r->sbits = r->bits < w && widen_pays(t, shortest, t->states[st].first, w) ? w : r->bits;
	}
	/* The lookup widths alone can pass what an entry addresses (hundreds
	 * of thousands of codes): every table then narrows to `cap` bits. */
	for (uint8_t cap = STEP_MAX_BITS; cap; cap--) {
		total = 0;
		for (uint32_t st = 0; st < t->nstates; st++) {
			struct tl_dcfg_lutref *r = &t->lref[t->states[st].first];
			if (!r->bits)
				continue;
			if (r->sbits > cap)
				r->sbits = cap;
			r->soff = (uint32_t)total;
			total += (uint64_t)1 << r->sbits;
		}
		if (total <= STEP_MAX_ENTRIES)
			break;
	}
	free(shortest);
	if (!total || total > STEP_MAX_ENTRIES)
		return;
	tl_dcfg_step_entry *steps = malloc((size_t)total * sizeof *steps);
	uint8_t *chains = malloc((size_t)total);
	uint32_t *codes = malloc((size_t)total * sizeof *codes);
	if (!steps || !chains || !codes) {
		free(steps);
		free(chains);
		free(codes);
		return;
	}
	t->steps = steps;
	t->step_chain = chains;
	t->step_code = codes;
	for (uint32_t st = 0; st < t->nstates; st++)
		if (t->lref[t->states[st].first].bits)
			fill_steps(t, t->states[st].first);
}
