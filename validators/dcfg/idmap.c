/* A map starts as a plain array indexed by id - lo: producers number
 * blocks and edges densely, and an executed subset of a program's blocks
 * (a DCFG lists only those) is still dense enough. One memory access a
 * lookup, in file order walking memory in order; a realistic DCFG spent a
 * third of its time probing the hashed layout before. The array may span
 * at most 8 slots per id (announced or stored) plus 4096, so hostile ids
 * cost 32 bytes each at worst; sparser ids move the map, for good, to:
 *
 * Linear probing; the empty slot marker is a key no file can hold (ids are
 * at most 64 bits but we store key + 1). It starts by placing an id at its
 * low bits: producers number blocks
 * and edges densely and in file order, so ids then take one probe and
 * lookups in file order walk memory in order instead of missing the cache
 * on every access (the hashed layout made these maps half of the time of a
 * large DCFG). Ids that do not spread that way (strides, hostile files)
 * show up as a long probe; the map then switches for good to a
 * multiplicative hash, so no input makes probing worse than hashing. */
#include "idmap.h"
#include "bigalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PROBE 64
#define DIRECT_PER_ID 8
#define DIRECT_SLACK 4096

static uint32_t slot_of(const struct tl_dcfg_idmap *m, uint64_t key, uint32_t cap)
{
	if (!m->mixed)
		return (uint32_t)key & (cap - 1);
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* Rebuilds the slots at capacity cap. A low-bits layout that clusters
 * while rebuilding is given up for the hashed one. */
static bool rehash(struct tl_dcfg_idmap *m, uint32_t cap)
{
	for (;;) {
		uint64_t *keys = tl_big_calloc(cap, sizeof *keys);
		uint32_t *vals = tl_big_malloc((size_t)cap * sizeof *vals);
		if (!keys || !vals) {
			free(keys);
			free(vals);
			return false;
		}
		bool clustered = false;
		for (uint32_t i = 0; i < m->cap && !clustered; i++) {
			if (!m->keys[i])
				continue;
			uint32_t s = slot_of(m, m->keys[i] - 1, cap), probes = 0;
			while (keys[s] && !clustered) {
				clustered = !m->mixed && ++probes == MAX_PROBE;
				s = (s + 1) & (cap - 1);
			}
			keys[s] = m->keys[i];
			vals[s] = m->vals[i];
		}
		if (clustered) {
			free(keys);
			free(vals);
			m->mixed = true;
			continue;
		}
		free(m->keys);
		free(m->vals);
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
		return true;
	}
}

static uint32_t hashed_put(struct tl_dcfg_idmap *m, uint64_t key, uint32_t val, bool *nomem);

/* Moves the direct layout's ids to the hashed layout, for good. */
static bool leave_direct(struct tl_dcfg_idmap *m)
{
	uint32_t *direct = m->direct;
	uint64_t lo = m->lo, span = m->span;
	uint32_t n = m->n;
	m->direct = NULL;
	m->hashed = true;
	m->n = 0;
	if (!tl_dcfg_idmap_reserve(m, n > m->expect ? n : (uint32_t)m->expect)) {
		free(direct);
		return false;
	}
	bool nomem = false;
	for (uint64_t i = 0; i < span && !nomem; i++)
		if (direct[i])
			hashed_put(m, lo + i, direct[i] - 1, &nomem);
	free(direct);
	return !nomem;
}

/* Makes the direct layout cover key, or leaves it when that would make it
 * too sparse. False on no memory. */
static bool cover(struct tl_dcfg_idmap *m, uint64_t key)
{
	if (key >= UINT64_MAX / 2) /* keeps lo + span from wrapping; no producer numbers so high */
		return leave_direct(m);
	uint64_t lo = m->direct ? (key < m->lo ? key : m->lo) : key;
	uint64_t hi = m->direct ? (key >= m->lo + m->span ? key + 1 : m->lo + m->span) : key + 1;
	uint64_t need = hi - lo, ids = (m->n > m->expect ? m->n : m->expect) + 1;
	uint64_t bound = DIRECT_PER_ID * ids + DIRECT_SLACK;
	if (need > bound || need > UINT32_MAX)
		return leave_direct(m);
	/* Room to grow on the side that grew, up to the bound; a first array
	 * gets twice the announced ids (untouched pages cost nothing). */
	uint64_t span = m->direct ? m->span * 2 : 2 * ids;
	if (span < need)
		span = need;
	if (span < 64)
		span = 64;
	if (span > bound)
		span = need;
	if (m->direct && key < m->lo)
		lo = hi > span ? hi - span : 0;
	uint32_t *direct = tl_big_calloc((size_t)span, sizeof *direct);
	if (!direct)
		return false;
	if (m->direct) {
		memcpy(direct + (m->lo - lo), m->direct, (size_t)m->span * sizeof *direct);
		free(m->direct);
	}
	m->direct = direct;
	m->lo = lo;
	m->span = span;
	return true;
}

static bool grow(struct tl_dcfg_idmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64;
	return cap > m->cap && rehash(m, cap);
}

bool tl_dcfg_idmap_reserve(struct tl_dcfg_idmap *m, uint32_t n)
{
	if (n > m->expect)
		m->expect = n;
	if (!m->hashed)
		return true;
	uint32_t cap = m->cap ? m->cap : 64;
	while (cap / 2 < n && cap < (1u << 31))
		cap *= 2;
	return cap == m->cap || rehash(m, cap);
}

/* Leaves the low-bits layout after a long probe (see the top). */
static bool mix(struct tl_dcfg_idmap *m)
{
	if (m->mixed)
		return false;
	m->mixed = true;
	if (rehash(m, m->cap))
		return true;
	m->mixed = false;
	return false;
}

uint32_t tl_dcfg_idmap_put(struct tl_dcfg_idmap *m, uint64_t key, uint32_t val, bool *nomem)
{
	if (key == UINT64_MAX || val == IDMAP_NONE) /* neither can be stored; ids never reach them */
		return IDMAP_NONE;
	if (!m->hashed && (!m->direct || key < m->lo || key - m->lo >= m->span) && !cover(m, key)) {
		if (nomem)
			*nomem = true;
		return IDMAP_NONE;
	}
	if (m->hashed)
		return hashed_put(m, key, val, nomem);
	uint32_t *slot = &m->direct[key - m->lo];
	if (*slot)
		return *slot - 1;
	*slot = val + 1;
	m->n++;
	return IDMAP_NONE;
}

static uint32_t hashed_put(struct tl_dcfg_idmap *m, uint64_t key, uint32_t val, bool *nomem)
{
	if ((m->n + 1) * 2 > m->cap && !grow(m)) {
		if (nomem)
			*nomem = true;
		return IDMAP_NONE;
	}
	uint32_t s = slot_of(m, key, m->cap), probes = 0;
	while (m->keys[s]) {
		if (m->keys[s] == key + 1)
			return m->vals[s];
		if (++probes == MAX_PROBE && mix(m))
			return hashed_put(m, key, val, nomem);
		s = (s + 1) & (m->cap - 1);
	}
	m->keys[s] = key + 1;
	m->vals[s] = val;
	m->n++;
	return IDMAP_NONE;
}

uint32_t tl_dcfg_idmap_get(const struct tl_dcfg_idmap *m, uint64_t key)
{
	if (m->direct)
		return key >= m->lo && key - m->lo < m->span ? m->direct[key - m->lo] - 1 : IDMAP_NONE; /* 0 - 1: none */
	if (!m->cap || key == UINT64_MAX)
		return IDMAP_NONE;
	uint32_t s = slot_of(m, key, m->cap), probes = 0;
	while (m->keys[s]) {
		if (m->keys[s] == key + 1)
			return m->vals[s];
		/* The layout is bookkeeping, not content: a lookup may change it. */
		if (++probes == MAX_PROBE && mix((struct tl_dcfg_idmap *)(uintptr_t)m))
			return tl_dcfg_idmap_get(m, key);
		s = (s + 1) & (m->cap - 1);
	}
	return IDMAP_NONE;
}

void tl_dcfg_idmap_free(struct tl_dcfg_idmap *m)
{
	free(m->direct);
	m->direct = NULL;
	m->lo = m->span = m->expect = 0;
	m->hashed = false;
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
	m->mixed = false;
}
