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

#define MAX_FUNCTION_DELTA UINT32_C(0x7fffffff)

static inline uint32_t load_u32(const uint8_t *q, bool big)
{
	uint32_t v;
	memcpy(&v, q, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return big ? v : __builtin_bswap32(v);
#else
	return big ? __builtin_bswap32(v) : v;
#endif
}

/* `big` is a constant at each call site, so each byte order gets its own loop. */
static inline size_t plain_functions(const uint8_t *p, size_t n, const bool big,
				     struct xray_grammar *g, struct xray_stack *s,
				     struct xray_tsc *t, int64_t *next_index)
{
	uint64_t depth = s->depth, now = t->now;
	const bool have_base = t->have_base;
	unsigned last = XRAY_ENTRY;
	size_t used = 0;
	for (; n - used >= XRAY_FUNCTION_SIZE; used += XRAY_FUNCTION_SIZE) {
		const uint8_t *q = p + used;
		if (big ? (q[0] & 0x80u) : (q[0] & 1u))
			break; /* metadata */
		uint32_t word = load_u32(q, big), delta = load_u32(q + 4, big);
		unsigned action = big ? (word >> 28) & 7u : (word >> 1) & 7u;
		uint32_t id = big ? word & 0x0fffffffu : word >> 4;
		/* Entry_Args opens a wait for its argument: the grammar's business. */
		if (action > XRAY_TAIL_EXIT || id == 0 || delta > MAX_FUNCTION_DELTA)
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
		if (have_base)
			now = UINT64_MAX - now < delta ? UINT64_MAX : now + delta;
		last = action;
	}
	if (used == 0)
		return 0;
	s->depth = depth;
	t->now = now;
	*next_index += (int64_t)(used / XRAY_FUNCTION_SIZE);
	xray_grammar_after_function(g, last);
	return used;
}

size_t xray_fast_functions(const uint8_t *p, size_t n, bool big, struct xray_grammar *g,
			   struct xray_stack *s, struct xray_tsc *t, int64_t *next_index)
{
	/* Outside the body, or with an Entry_Args waiting, every record matters to the grammar. */
	if (g->state != XRAY_IN_BODY || g->entry_args_open)
		return 0;
	return big ? plain_functions(p, n, true, g, s, t, next_index)
		   : plain_functions(p, n, false, g, s, t, next_index);
}
