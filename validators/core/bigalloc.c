#include "bigalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)
/* Smaller arrays would gain too little of a huge page to be worth one. */
#define HINT_MIN (2 * HUGE_PAGE)

/* glibc raises its mmap threshold (up to 32 MiB) after a large block is
 * freed, and then serves large blocks from the heap, already touched in
 * small pages. A fixed threshold keeps every large array a fresh mapping
 * that the hint applies to, and gives it back to the system when freed. */
static void fix_mmap_threshold(void)
{
#ifdef __GLIBC__
	static int done;
	if (!done) {
		done = 1;
		(void)mallopt(M_MMAP_THRESHOLD, 1 << 20);
	}
#endif
}

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
	fix_mmap_threshold();
	return hint(malloc(bytes), bytes);
}

void *tl_big_calloc(size_t count, size_t size)
{
	fix_mmap_threshold();
	void *p = calloc(count, size);
	/* calloc checked count * size for overflow */
	return p ? hint(p, count * size) : NULL;
}

void *tl_big_realloc(void *p, size_t bytes)
{
	fix_mmap_threshold();
	return hint(realloc(p, bytes), bytes);
}
