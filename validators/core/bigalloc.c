#include "bigalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
/* Smaller arrays would gain too little of a huge page to be worth one. */
#define HINT_MIN (2 * HUGE_PAGE)

static void *hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	if (p && bytes >= HINT_MIN) {
		uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
		uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return p;
}

void *tl_big_malloc(size_t bytes)
{
	return hint(malloc(bytes), bytes);
}

void *tl_big_calloc(size_t count, size_t size)
{
	void *p = calloc(count, size);
	/* calloc checked count * size for overflow */
	return p ? hint(p, count * size) : NULL;
}

void *tl_big_realloc(void *p, size_t bytes)
{
	return hint(realloc(p, bytes), bytes);
}
