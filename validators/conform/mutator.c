/* Byte-level mutations: bit flips, boundary values written over 1, 2, 4 or
 * 8 bytes in either byte order, chunk deletion, duplication and insertion,
 * and truncation. Boundary values matter most: they are what turns a size or
 * count field into an overflow or an out-of-range offset. */
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"
#include "validators/conform/mutator.h"
#ifdef CONFORM_HAVE_TLM
#include "fuzzers/mutators/mutator.h"
#endif

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed;
	r->state = splitmix(&x) ^ (stream * 0xd1b54a32d192ed03ULL);
	splitmix(&r->state);
}

uint64_t rng_next(struct rng *r)
{
	return splitmix(&r->state);
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	return bound ? rng_next(r) % bound : 0;
}

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

static const uint64_t boundary_values[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
};

static void put_value(struct mutant *m, struct rng *r)
{
	static const unsigned widths[] = { 1, 2, 4, 8 };
	unsigned w = widths[rng_below(r, 4)];
	if (m->len < w)
		return;
	uint64_t v = rng_below(r, 4) == 0 ? rng_next(r)
		: boundary_values[rng_below(r, sizeof boundary_values / sizeof *boundary_values)];
	if (rng_below(r, 3) == 0)
		v += rng_below(r, 3) - 1; /* one off a boundary */
	size_t pos = rng_below(r, m->len - w + 1);
	bool big = rng_below(r, 2);
	for (unsigned i = 0; i < w; i++) {
		unsigned shift = 8 * (big ? w - 1 - i : i);
		m->data[pos + i] = (unsigned char)(v >> shift);
	}
}

static size_t chunk_len(struct mutant *m, struct rng *r)
{
	size_t most = m->len / 4 + 1;
	if (most > 64)
		most = 64;
	return 1 + rng_below(r, most);
}

static void one_edit(struct mutant *m, struct rng *r, size_t max_size)
{
	switch (rng_below(r, 7)) {
	case 0: /* flip one bit */
		if (m->len)
			m->data[rng_below(r, m->len)] ^= (unsigned char)(1u << rng_below(r, 8));
		break;
	case 1:
	case 2: /* a boundary value over 1..8 bytes: weighted, it finds the most */
		put_value(m, r);
		break;
	case 3: { /* delete a chunk */
		if (!m->len)
			break;
		size_t n = chunk_len(m, r);
		size_t pos = rng_below(r, m->len);
		if (n > m->len - pos)
			n = m->len - pos;
		memmove(m->data + pos, m->data + pos + n, m->len - pos - n);
		m->len -= n;
		break;
	}
	case 4: { /* duplicate a chunk somewhere else */
		if (!m->len)
			break;
		size_t n = chunk_len(m, r);
		size_t from = rng_below(r, m->len);
		if (n > m->len - from)
			n = m->len - from;
		if (m->len + n > max_size)
			break;
		size_t to = rng_below(r, m->len + 1);
		reserve(m, n);
		unsigned char tmp[64];
		memcpy(tmp, m->data + from, n);
		memmove(m->data + to + n, m->data + to, m->len - to);
		memcpy(m->data + to, tmp, n);
		m->len += n;
		break;
	}
	case 5: { /* insert random bytes */
		size_t n = 1 + rng_below(r, 16);
		if (m->len + n > max_size)
			break;
		size_t to = rng_below(r, m->len + 1);
		reserve(m, n);
		memmove(m->data + to + n, m->data + to, m->len - to);
		for (size_t i = 0; i < n; i++)
			m->data[to + i] = (unsigned char)rng_next(r);
		m->len += n;
		break;
	}
	default: /* truncate */
		if (m->len)
			m->len = rng_below(r, m->len);
		break;
	}
}

#ifdef CONFORM_HAVE_TLM
typedef size_t (*structure_fn)(uint8_t *data, size_t size, size_t max_size, uint64_t seed,
			       tlm_bytes_fn bytes);

/* The fuzzing engineers' structure-aware mutators (fuzzers/mutators/), for
 * the formats that have one in this build. */
static structure_fn structure_mutator(enum tl_format_id format)
{
	switch (format) {
#ifdef CONFORM_TLM_XRAY
	case TL_FORMAT_XRAY: return tlm_xray_mutate;
#endif
#ifdef CONFORM_TLM_TFILE
	case TL_FORMAT_TFILE: return tlm_tfile_mutate;
#endif
	default: return NULL;
	}
}

/* Their byte-level fallback hook takes no generator: it borrows ours. */
static struct rng *fallback_rng;

static size_t fallback_bytes(uint8_t *data, size_t size, size_t max_size)
{
	struct mutant m = { data, size, max_size };
	one_edit(&m, fallback_rng, max_size);
	return m.len;
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
	fallback_rng = r;
	uint64_t seed = rng_next(r);
	m->len = fn(m->data, m->len, room, seed, fallback_bytes);
	fallback_rng = NULL;
}
#endif

void mutate(enum tl_format_id format, struct mutant *m, struct rng *r, size_t max_size)
{
	/* Mostly one or two edits: many edits at once mostly hit the first check. */
	static const unsigned edits[] = { 1, 1, 1, 2, 2, 3, 4 };
	unsigned n = edits[rng_below(r, sizeof edits / sizeof *edits)];
#ifdef CONFORM_HAVE_TLM
	structure_fn fn = structure_mutator(format);
#endif
	for (unsigned i = 0; i < n; i++) {
#ifdef CONFORM_HAVE_TLM
		/* Three edits in four keep the framing; the rest are raw bytes. */
		if (fn && rng_below(r, 4) != 0) {
			structure_edit(fn, m, r, max_size);
			continue;
		}
#endif
		one_edit(m, r, max_size);
	}
	(void)format;
}

const char *mutator_name(enum tl_format_id format)
{
#ifdef CONFORM_HAVE_TLM
	if (structure_mutator(format))
		return "structure-aware (fuzzers/mutators/) with byte-level edits";
#endif
	(void)format;
	return "byte-level (tracelint-conform's own)";
}
