#include "radix_sort.h"

#define DIGITS 8
#define BUCKETS 256

/* One body for both element types: KEY(x) is the 64-bit key of element x. */
#define RADIX_SORT(name, type, KEY)                                                   \
	type *name(type *items, type *tmp, size_t n)                                  \
	{                                                                             \
		size_t count[DIGITS][BUCKETS] = { { 0 } }; /* 16 KiB: a local, so callers may run in parallel */ \
		for (size_t i = 0; i < n; i++) {                                      \
			uint64_t k = KEY(items[i]);                                   \
			for (int d = 0; d < DIGITS; d++)                              \
				count[d][(k >> (8 * d)) & 0xff]++;                    \
		}                                                                     \
		type *src = items, *dst = tmp;                                        \
		for (int d = 0; d < DIGITS; d++) {                                    \
			size_t *c = count[d];                                         \
			/* A digit every key shares leaves the order as it is. */     \
			if (n == 0 || c[(KEY(src[0]) >> (8 * d)) & 0xff] == n)        \
				continue;                                             \
			size_t pos = 0;                                               \
			for (int b = 0; b < BUCKETS; b++) {                           \
				size_t here = c[b];                                   \
				c[b] = pos;                                           \
				pos += here;                                          \
			}                                                             \
			for (size_t i = 0; i < n; i++)                                \
				dst[c[(KEY(src[i]) >> (8 * d)) & 0xff]++] = src[i];   \
			type *t = src;                                                \
			src = dst;                                                    \
			dst = t;                                                      \
		}                                                                     \
		return src;                                                           \
	}

#define KEYED_KEY(x) ((x).key)
#define PLAIN_KEY(x) (x)

RADIX_SORT(tl_radix_sort, struct tl_keyed, KEYED_KEY)
RADIX_SORT(tl_radix_sort_keys, uint64_t, PLAIN_KEY)
