/* Structure-aware mutators for the binary trace formats.
 *
 * Each mutator parses its input loosely (never trusting a length it did not
 * check), picks one structural edit (a whole record, a field, a length that
 * frames what follows) and rewrites the buffer in place. Outputs never grow
 * past max_size, and the same (input, seed) always gives the same output, so
 * a campaign can be replayed. The engine glue (libFuzzer, AFL++) lives apart:
 * the logic here depends on no engine. */
#ifndef TL_MUTATOR_H
#define TL_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A byte-level fallback the structure-aware mutators may call (libFuzzer's
 * LLVMFuzzerMutate, or the kit's byte-level edits with their generator): a
 * function and the state it needs, passed by pointer; NULL for none. */
struct tlm_bytes {
	size_t (*fn)(void *ctx, uint8_t *data, size_t size, size_t max_size);
	void *ctx;
};

/* splitmix64: small, fast, and reproducible across platforms. */
struct tlm_rng {
	uint64_t state;
};

void tlm_rng_seed(struct tlm_rng *r, uint64_t seed);
/* Stream number STREAM of generator SEED (a campaign's mutant i uses stream i,
 * so any slice of a campaign can be replayed on its own). */
void tlm_rng_stream(struct tlm_rng *r, uint64_t seed, uint64_t stream);
uint64_t tlm_rng_next(struct tlm_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t tlm_rng_below(struct tlm_rng *r, uint64_t n);
/* A value worth trying in a length, count or offset field near ref. */
uint64_t tlm_interesting(struct tlm_rng *r, uint64_t ref);

/* What every structure-aware mutator works on: the buffer, its size and
 * capacity, and the generator its choices come from. Each format's view
 * starts with one. */
struct tlm_buf {
	uint8_t *data;
	size_t size, max;
	struct tlm_rng rng;
};

/* Points b at data (size clamped to max_size) with the generator seeded by
 * seed; returns the clamped size. */
size_t tlm_buf_open(struct tlm_buf *b, uint8_t *data, size_t size, size_t max_size, uint64_t seed);

/* Hands the whole of b to the byte-level fallback (not NULL); returns the new
 * size, also kept in b. */
size_t tlm_buf_bytes(struct tlm_buf *b, const struct tlm_bytes *bytes);

/* Fixed-width integers in either byte order, on a buffer the caller sized. */
uint64_t tlm_get(const uint8_t *p, unsigned width, bool big);
void tlm_put(uint8_t *p, unsigned width, bool big, uint64_t v);

/* Opens a gap of len bytes at pos (pos <= *size); false when the result
 * would pass max_size. The gap's bytes are left as they were. */
bool tlm_insert(uint8_t *data, size_t *size, size_t max_size, size_t pos, size_t len);
/* Removes len bytes at pos (pos + len <= *size). */
void tlm_erase(uint8_t *data, size_t *size, size_t pos, size_t len);
/* Copies len bytes from src to a new place at dst (both offsets into the
 * buffer before the copy); false when it does not fit. */
bool tlm_duplicate(uint8_t *data, size_t *size, size_t max_size, size_t src, size_t len, size_t dst);
/* Swaps two non-overlapping spans [a, a+alen) and [b, b+blen), in either order. */
void tlm_swap(uint8_t *data, size_t size, size_t a, size_t alen, size_t b, size_t blen);

/* One byte-level edit for any format: a bit flip, a boundary value over 1, 2,
 * 4 or 8 bytes in either byte order, a chunk deleted, duplicated or inserted,
 * or a truncation. data holds at least min(size + 64, max_size) bytes; returns
 * the new size (<= max_size). */
size_t tlm_bytes_edit(struct tlm_rng *r, uint8_t *data, size_t size, size_t max_size);

/* The structure-aware mutators. Each returns the new size (<= max_size); data
 * holds max_size bytes. */
size_t tlm_xray_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes);
size_t tlm_tfile_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes);
size_t tlm_umtrace_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes);

#endif
