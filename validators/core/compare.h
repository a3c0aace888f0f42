/* The one three-way comparison of the library's qsort callbacks. */
#ifndef TL_COMPARE_H
#define TL_COMPARE_H

#include <stdint.h>

/* -1, 0 or 1 as a is below, equal to or above b; chain keys with `c ? c : next`. */
static inline int tl_cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* (a1, a2) against (b1, b2): by the first key, ties by the second. */
static inline int tl_cmp_u64_pair(uint64_t a1, uint64_t a2, uint64_t b1, uint64_t b2)
{
	int c = tl_cmp_u64(a1, b1);
	return c ? c : tl_cmp_u64(a2, b2);
}

#endif
