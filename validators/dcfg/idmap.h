/* An open-addressing map from 64-bit ids to 32-bit indexes, for id tables
 * whose size comes from the file (grows by doubling, never quadratic). */
#ifndef TL_DCFG_IDMAP_H
#define TL_DCFG_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

#define IDMAP_NONE UINT32_MAX

struct idmap {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t cap, n;   /* cap is 0 or a power of two */
	bool mixed;        /* slots come from a multiplicative hash, not the id's low bits */
};

/* Inserts key -> val unless key is present; returns the index already
 * stored for key, IDMAP_NONE if it was inserted (or on allocation failure,
 * with *nomem set). */
uint32_t idmap_put(struct idmap *m, uint64_t key, uint32_t val, bool *nomem);
uint32_t idmap_get(const struct idmap *m, uint64_t key);
/* Makes room for n keys at once when the count is known (a table's rows),
 * saving the rebuilds of growing by doubling. False on no memory. */
bool idmap_reserve(struct idmap *m, uint32_t n);
void idmap_free(struct idmap *m);

#endif
