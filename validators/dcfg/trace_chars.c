/* Character tables: the fast loop's per-character automaton for states
 * whose codes fit in one Base64 character. A row is a state and the bits
 * of a code begun in an earlier character (0 to 5 of them); its entry for
 * character c takes every code those bits and c complete, each one the
 * code-by-code reference would take whatever follows (the step builder's
 * decision), and names the row of the state and unfinished bits after
 * them. Rows are found breadth first from each such state with nothing
 * pending, at most CHAR_MAX_ROWS of them: an entry whose row would not fit
 * stops the loop there instead. */
#include "trace_decode.h"

#include <stdlib.h>
#include <string.h>

/* Codes of 1 to 6 bits only, and lookup tables to leave the loop into. */
static bool char_state(const struct tl_dcfg_ttable *t, uint32_t first)
{
	if (!t->lref[first].bits)
		return false;
	for (uint32_t i = first;; i++) {
		const struct tl_dcfg_dcode *f = &t->fast[i];
		if (f->len == 0 || f->len > 6)
			return false;
		if (f->flags & DC_LAST)
			return true;
	}
}

/* Whether the `n` bits of x (left-aligned) begin a longer code of the state. */
static bool begins_code(const struct tl_dcfg_ttable *t, uint32_t first, uint32_t x, uint32_t n)
{
	for (uint32_t i = first;; i++) {
		const struct tl_dcfg_dcode *f = &t->fast[i];
		if (f->len > n && ((x ^ f->pad) & tl_dcfg_code_mask((uint8_t)n)) == 0)
			return true;
		if (f->flags & DC_LAST)
			return false;
	}
}

struct builder {
	struct tl_dcfg_ttable *t;
	uint32_t *next;      /* per entry: the next row's index while building */
};

/* The row of (state, n pending bits of value v), added when new and
 * there is room; NO_ROW otherwise. */
static uint32_t row_of(struct builder *b, uint32_t first, uint32_t v, uint32_t n)
{
	struct tl_dcfg_ttable *t = b->t;
	if (t->lref[first].chars == CHAR_NONE)
		return NO_ROW;
	uint32_t *slot = &t->char_enter[(size_t)t->lref[first].chars * CHAR_PENDING + (1u << n) - 1 + v];
	if (*slot == NO_ROW && t->nchar_rows < CHAR_MAX_ROWS) {
		uint32_t r = t->nchar_rows++;
		t->char_state[r] = first;
		t->char_pend_len[r] = (uint8_t)n;
		t->char_pend[r] = (uint8_t)v;
		*slot = r;
	}
	return *slot;
}

/* Entry c of row r: the codes its bits complete, or a stop (chain 0). */
static void fill_entry(struct builder *b, uint32_t r, uint32_t c)
{
	struct tl_dcfg_ttable *t = b->t;
	uint32_t n = t->char_pend_len[r], avail = n + 6;
	uint32_t x = (((uint32_t)t->char_pend[r] << 6) | c) << (32 - avail);
	uint32_t cur = t->char_state[r], used = 0, chain = 0, last = LUT_MISS, next = NO_ROW;
	size_t e = (size_t)r * 64 + c;
	while (used < avail) {
		uint32_t code = tl_dcfg_decided_code(t, cur, x << used, avail - used);
		if (code == LUT_MISS)
			break;
		const struct tl_dcfg_dcode *f = &t->fast[code];
		if (!tl_dcfg_one_load(t, code) || chain + f->chain > STEP_CHAIN_MAX || t->lref[f->next].chars == CHAR_NONE) {
			chain = 0;
			break;
		}
		used += f->len;
		chain += f->chain;
		last = code;
		cur = f->next;
	}
	uint32_t rest = avail - used;
	if (chain && (rest == 0 || begins_code(t, cur, x << used, rest)))
		next = row_of(b, cur, rest ? (x << used) >> (32 - rest) : 0, rest);
	if (next == NO_ROW)
		chain = 0;
	t->char_chain[e] = (uint8_t)chain;
	t->char_code[e] = chain ? last : LUT_MISS;
	b->next[e] = chain ? next : r;
}

void tl_dcfg_free_chars(struct tl_dcfg_ttable *t)
{
	free(t->char_next);
	free(t->char_chain);
	free(t->char_code);
	free(t->char_state);
	free(t->char_pend_len);
	free(t->char_pend);
	free(t->char_enter);
	t->char_next = NULL;
	t->char_chain = NULL;
	t->char_code = NULL;
	t->char_state = NULL;
	t->char_pend_len = NULL;
	t->char_pend = NULL;
	t->char_enter = NULL;
	t->nchar_rows = 0;
	t->char_chain_max = 0;
}

void tl_dcfg_build_chars(struct tl_dcfg_ttable *t)
{
	if (!t->steps)
		return;
	uint32_t states = 0;
	for (uint32_t st = 0; st < t->nstates && states < CHAR_MAX_ROWS; st++)
		states += char_state(t, t->states[st].first);
	if (!states)
		return;
	const size_t entries = (size_t)CHAR_MAX_ROWS * 64;
	struct builder b = { t, malloc(entries * sizeof *b.next) };
	uintptr_t *next = malloc(entries * sizeof *next);
	t->char_chain = malloc(entries);
	t->char_code = malloc(entries * sizeof *t->char_code);
	t->char_state = malloc(CHAR_MAX_ROWS * sizeof *t->char_state);
	t->char_pend_len = malloc(CHAR_MAX_ROWS);
	t->char_pend = malloc(CHAR_MAX_ROWS);
	t->char_enter = malloc((size_t)states * CHAR_PENDING * sizeof *t->char_enter);
	t->char_next = next;
	if (!b.next || !next || !t->char_chain || !t->char_code || !t->char_state || !t->char_pend_len ||
	    !t->char_pend || !t->char_enter) {
		free(b.next);
		tl_dcfg_free_chars(t);
		return;
	}
	memset(t->char_enter, 0xff, (size_t)states * CHAR_PENDING * sizeof *t->char_enter);
	uint32_t k = 0;
	for (uint32_t st = 0; st < t->nstates; st++) {
		uint32_t first = t->states[st].first;
		t->lref[first].chars = k < states && char_state(t, first) ? (uint16_t)k++ : CHAR_NONE;
	}
	/* Every state's row with nothing pending first, so each can be entered. */
	for (uint32_t st = 0; st < t->nstates; st++)
		(void)row_of(&b, t->states[st].first, 0, 0);
	for (uint32_t r = 0; r < t->nchar_rows; r++)
		for (uint32_t c = 0; c < 64; c++)
			fill_entry(&b, r, c);
	for (size_t e = 0; e < (size_t)t->nchar_rows * 64; e++)
		next[e] = (uintptr_t)(next + (size_t)b.next[e] * 64);
	free(b.next);
	/* The loop is entered only at states where it pays: a character
	 * costs about half a step table lookup, so its row must take at
	 * least half the edges a lookup takes (both averaged over their
	 * entries, a code of len bits weighing 2^-len). Rows of the other
	 * states stay, for walks that pass through them. */
	uint32_t *row_edges = calloc(t->nchar_rows, sizeof *row_edges);
	if (!row_edges) {
		tl_dcfg_free_chars(t);
		return;
	}
	for (size_t e = 0; e < (size_t)t->nchar_rows * 64; e++) {
		row_edges[e / 64] += t->char_chain[e];
		if (t->char_chain[e] > t->char_chain_max)
			t->char_chain_max = t->char_chain[e];
	}
	for (uint32_t st = 0; st < t->nstates; st++) {
		uint32_t first = t->states[st].first;
		if (t->lref[first].chars == CHAR_NONE)
			continue;
		const struct tl_dcfg_lutref *r = &t->lref[first];
		uint64_t by_step = 0, by_char = 0, rows = 0;
		for (uint32_t x = 0; x < (1u << r->sbits); x++)
			by_step += t->step_chain[r->soff + x];
		for (uint32_t p = 0; p < CHAR_PENDING; p++) {
			uint32_t row = t->char_enter[(size_t)t->lref[first].chars * CHAR_PENDING + p];
			if (row != NO_ROW) {
				by_char += row_edges[row];
				rows++;
			}
		}
		if (2 * by_char * ((uint64_t)1 << r->sbits) < by_step * 64 * rows)
			t->lref[first].chars = CHAR_NONE;
	}
	free(row_edges);
}
