/* A stable LSD radix sort of (64-bit key, 32-bit value) pairs: the model
 * checks that look for two equal keys among millions (block starts, edge
 * endpoints) spend their time sorting, and a comparison sort through a
 * function pointer was a tenth of a large DCFG's validation. */
#ifndef TL_RADIX_SORT_H
#define TL_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

struct tl_keyed {
	uint64_t key;
	uint32_t val;
};

/* Sorts items[0..n) by key, equal keys keeping their order, using tmp
 * (room for n items) as scratch. Returns the buffer holding the result:
 * items or tmp. Byte digits that are the same in every key cost no pass. */
struct tl_keyed *tl_radix_sort(struct tl_keyed *items, struct tl_keyed *tmp, size_t n);
/* The same for bare keys (half the memory, when only equal keys matter). */
uint64_t *tl_radix_sort_keys(uint64_t *keys, uint64_t *tmp, size_t n);

#endif
