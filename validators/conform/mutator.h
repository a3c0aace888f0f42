/* Mutants for the differential campaign: a seeded generator per mutant and
 * the mutator library of validators/mutate/ (structure-aware edits for the
 * formats that have them, byte-level edits for every format). */
#ifndef CONFORM_MUTATOR_H
#define CONFORM_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

#include "tracelint.h"
#include "validators/mutate/mutator.h"

/* The library's generator under the kit's names. */
struct rng {
	struct tlm_rng g;
};

/* Stream number STREAM of generator SEED: mutant i uses stream i. */
static inline void rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	tlm_rng_stream(&r->g, seed, stream);
}
static inline uint64_t rng_next(struct rng *r) { return tlm_rng_next(&r->g); }
static inline uint64_t rng_below(struct rng *r, uint64_t bound) { return tlm_rng_below(&r->g, bound); }

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
