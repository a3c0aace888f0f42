#include "radix_sort.h"

#define DIGITS 8
#define BUCKETS 256

struct tl_keyed *tl_radix_sort(struct tl_keyed *items, struct tl_keyed *tmp, size_t n)
{
	size_t count[DIGITS][BUCKETS] = { { 0 } }; /* 16 KiB: a local, so callers may run in parallel */
	for (size_t i = 0; i < n; i++) {
		uint64_t k = items[i].key;
		for (int d = 0; d < DIGITS; d++)
			count[d][(k >> (8 * d)) & 0xff]++;
	}
	struct tl_keyed *src = items, *dst = tmp;
	for (int d = 0; d < DIGITS; d++) {
		size_t *c = count[d];
		/* A digit every key shares leaves the order as it is. */
		if (n == 0 || c[(src[0].key >> (8 * d)) & 0xff] == n)
			continue;
		size_t pos = 0;
		for (int b = 0; b < BUCKETS; b++) {
			size_t here = c[b];
			c[b] = pos;
			pos += here;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].key >> (8 * d)) & 0xff]++] = src[i];
		struct tl_keyed *t = src;
		src = dst;
		dst = t;
	}
	return src;
}
