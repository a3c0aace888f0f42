/* A map from 64-bit ids to 32-bit indexes, for id tables whose size comes
 * from the file (grows by doubling, never quadratic): an array indexed by
 * id while the ids are dense, open addressing once they are not. */
#ifndef TL_DCFG_IDMAP_H
#define TL_DCFG_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

#define IDMAP_NONE UINT32_MAX

struct tl_dcfg_idmap {
	/* Direct layout, while ids are dense: 1 + the index of id k at
	 * direct[k - lo], 0 for none (so a fresh zeroed array is empty). */
	uint32_t *direct;
	uint64_t lo, span; /* direct covers ids lo .. lo + span - 1 */
	uint64_t expect;   /* ids announced by tl_dcfg_idmap_reserve: how sparse the layout may get */
	bool hashed;       /* the direct layout was given up (ids too sparse) */
	/* Hashed layout (linear probing), after that. */
	uint64_t *keys;
	uint32_t *vals;
	uint32_t cap, n;   /* cap is 0 or a power of two; n counts ids in either layout */
	bool mixed;        /* slots come from a multiplicative hash, not the id's low bits */
};

/* Inserts key -> val unless key is present; returns the index already
 * stored for key, IDMAP_NONE if it was inserted (or on allocation failure,
 * with *nomem set). */
uint32_t tl_dcfg_idmap_put(struct tl_dcfg_idmap *m, uint64_t key, uint32_t val, bool *nomem);
uint32_t tl_dcfg_idmap_get(const struct tl_dcfg_idmap *m, uint64_t key);
/* Announces n keys (a table's rows): the direct layout may then span up to
 * 8 slots per announced id, and the hashed one makes room at once, saving
 * the rebuilds of growing by doubling. False on no memory. */
bool tl_dcfg_idmap_reserve(struct tl_dcfg_idmap *m, uint32_t n);
void tl_dcfg_idmap_free(struct tl_dcfg_idmap *m);

#endif
