/* The fast path of the FDR walker: nearly every record of a real trace is an
 * 8-byte Entry or Exit that no rule objects to. This loop decodes such
 * records and does the grammar's, the call stack's and the TSC checker's
 * work for them in one place, with the checkers' state in registers. The
 * first record that any rule might object to (or that is not a plain
 * function record) stops it, and the walker hands that record to the
 * decoder and the checkers, which word every diagnostic; so the fast path
 * never reports anything and cannot change what is reported. */
#include "xray.h"

#include <string.h>


/* The 8 bytes of a function record as one number whose low half is the
 * word (bit 0: metadata flag in little-endian files) and whose high half
 * is the TSC delta, whatever the byte order of the file and of the host. */
static inline uint64_t load_record(const uint8_t *q, bool big)
{
	uint64_t v;
	memcpy(&v, q, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = big ? v : __builtin_bswap64(v);
	return big ? v >> 32 | v << 32 : v;
#else
	v = big ? __builtin_bswap64(v) : v;
	return big ? v >> 32 | v << 32 : v;
#endif
}

/* `big` is a constant at each call site, so each byte order gets its own loop. */
static inline size_t plain_functions(const uint8_t *p, size_t n, const bool big,
				     const uint32_t max_id, struct xray_grammar *g, struct xray_stack *s,
				     struct xray_tsc *t, int64_t *next_index)
{
	uint64_t depth = s->depth, now = t->now;
	const uint8_t *q = p, *stop = p + (n - n % XRAY_FUNCTION_SIZE);
	/* Metadata flag (bit 0 little-endian, bit 31 big-endian) or a delta above 2^31 - 1. */
	const uint64_t refused_bits = (uint64_t)1 << 63 | (big ? UINT64_C(0x80000000) : 1u);
	for (; q != stop; q += XRAY_FUNCTION_SIZE) {
		uint64_t r = load_record(q, big);
		uint32_t word = (uint32_t)r, id = xray_word_function_id(word, big);
		unsigned action = xray_word_action(word, big);
		/* Entry_Args opens a wait for its argument: the grammar's business. */
		/* Id 0 and ids the map lacks; without a map the second test folds away. */
		if ((r & refused_bits) | (action > XRAY_TAIL_EXIT) | (id == 0) | (id > max_id))
			break;
		if (action == XRAY_ENTRY) {
			if (depth < XRAY_STACK_FRAMES)
				s->frames[depth] = id;
			depth++; /* cannot overflow: at most one per 8 bytes of file */
		} else if (depth != 0) {
			/* An exit that does not match the innermost frame is reported by the stack checker. */
			if (depth <= XRAY_STACK_FRAMES && s->frames[depth - 1] != id)
				break;
			depth--;
		}
		/* Saturating, as the TSC checker advances. */
		if (__builtin_add_overflow(now, r >> 32, &now))
			now = UINT64_MAX;
	}
	size_t used = (size_t)(q - p);
	if (used == 0)
		return 0;
	s->depth = depth;
	/* Without a base the checker does not count (and a later base replaces it). */
	if (t->have_base)
		t->now = now;
	*next_index += (int64_t)(used / XRAY_FUNCTION_SIZE);
	tl_xray_grammar_after_function(g, xray_word_action((uint32_t)load_record(q - XRAY_FUNCTION_SIZE, big), big));
	return used;
}

size_t tl_xray_fast_functions(const uint8_t *p, size_t n, bool big, uint32_t max_id,
			   struct xray_grammar *g, struct xray_stack *s, struct xray_tsc *t,
			   int64_t *next_index)
{
	/* Outside the body, or with an Entry_Args waiting, every record matters to the grammar. */
	if (g->state != XRAY_IN_BODY || g->entry_args_open)
		return 0;
	/* Without a map the bound is a constant the compiler folds into the id == 0 test
	 * (ids have 28 bits), so only --instr-map runs pay for the compare. */
	if (max_id == XRAY_MAX_FUNCTION_ID)
		return big ? plain_functions(p, n, true, XRAY_MAX_FUNCTION_ID, g, s, t, next_index)
			   : plain_functions(p, n, false, XRAY_MAX_FUNCTION_ID, g, s, t, next_index);
	return big ? plain_functions(p, n, true, max_id, g, s, t, next_index)
		   : plain_functions(p, n, false, max_id, g, s, t, next_index);
}
