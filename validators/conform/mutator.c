/* The campaign's mutations: one to four edits per mutant, drawn from the
 * mutator library (validators/mutate/): for XRay and tfile three edits in four
 * are structure-aware and keep the framing, the rest (and every edit of the
 * other formats) byte-level. All state is in the mutant and its generator. */
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"
#include "validators/conform/mutator.h"

void mutant_set(struct mutant *m, const void *data, size_t len)
{
	m->cap = len + 64;
	m->data = xrealloc(m->data, m->cap);
	memcpy(m->data, data, len);
	m->len = len;
}

void mutant_free(struct mutant *m)
{
	free(m->data);
	memset(m, 0, sizeof *m);
}

static void reserve(struct mutant *m, size_t extra)
{
	if (m->len + extra > m->cap) {
		m->cap = (m->len + extra) * 2;
		m->data = xrealloc(m->data, m->cap);
	}
}

/* A byte-level edit; the library needs 64 bytes of room past the data. */
static void byte_edit(struct mutant *m, struct rng *r, size_t max_size)
{
	reserve(m, 64);
	m->len = tlm_bytes_edit(&r->g, m->data, m->len, max_size);
}

typedef size_t (*structure_fn)(uint8_t *data, size_t size, size_t max_size, uint64_t seed,
			       const struct tlm_bytes *bytes);

static structure_fn structure_mutator(enum tl_format_id format)
{
	switch (format) {
	case TL_FORMAT_XRAY: return tlm_xray_mutate;
	case TL_FORMAT_TFILE: return tlm_tfile_mutate;
	default: return NULL; /* UMTracer traces are directories; JSON has no framing to keep */
	}
}

/* The structure-aware mutators fall back on byte-level edits drawn from the
 * mutant's own generator, passed as their context. */
static size_t fallback_bytes(void *ctx, uint8_t *data, size_t size, size_t max_size)
{
	return tlm_bytes_edit(ctx, data, size, max_size);
}

/* One structural edit; the buffer gets the room the mutator may use. */
static void structure_edit(structure_fn fn, struct mutant *m, struct rng *r, size_t max_size)
{
	size_t room = m->len * 2 + 4096;
	if (room > max_size)
		room = max_size;
	if (room < m->len)
		return;
	reserve(m, room - m->len);
	const struct tlm_bytes fallback = { fallback_bytes, &r->g };
	uint64_t seed = rng_next(r);
	m->len = fn(m->data, m->len, room, seed, &fallback);
}

void mutate(enum tl_format_id format, struct mutant *m, struct rng *r, size_t max_size)
{
	/* Mostly one or two edits: many edits at once mostly hit the first check. */
	static const unsigned edits[] = { 1, 1, 1, 2, 2, 3, 4 };
	unsigned n = edits[rng_below(r, sizeof edits / sizeof *edits)];
	structure_fn fn = structure_mutator(format);
	for (unsigned i = 0; i < n; i++) {
		if (fn && rng_below(r, 4) != 0)
			structure_edit(fn, m, r, max_size);
		else
			byte_edit(m, r, max_size);
	}
}

const char *mutator_name(enum tl_format_id format)
{
	if (structure_mutator(format))
		return "structure-aware (validators/mutate/) with byte-level edits";
	return "byte-level (validators/mutate/bytes_mutator.c)";
}
