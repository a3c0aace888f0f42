/* Mutants for the differential campaign: a seeded generator and the
 * byte-level mutator (the fallback for formats without a structure-aware one). */
#ifndef CONFORM_MUTATOR_H
#define CONFORM_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

#include "tracelint.h"

struct rng {
	uint64_t state;
};

/* Stream number STREAM of generator SEED: mutant i uses stream i. */
void rng_init(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t bound); /* 0 when bound is 0 */

struct mutant {
	unsigned char *data;
	size_t len, cap;
};

void mutant_set(struct mutant *m, const void *data, size_t len);
void mutant_free(struct mutant *m);

/* Applies one to four random edits, never growing past max_size. */
void mutate(enum tl_format_id format, struct mutant *m, struct rng *r, size_t max_size);
const char *mutator_name(enum tl_format_id format);

#endif
