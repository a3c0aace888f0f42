/* Linear probing; the empty slot marker is a key no file can hold (ids are
 * at most 64 bits but we store key + 1).
 *
 * A map starts by placing an id at its low bits: producers number blocks
 * and edges densely and in file order, so ids then take one probe and
 * lookups in file order walk memory in order instead of missing the cache
 * on every access (the hashed layout made these maps half of the time of a
 * large DCFG). Ids that do not spread that way (strides, hostile files)
 * show up as a long probe; the map then switches for good to a
 * multiplicative hash, so no input makes probing worse than hashing. */
#include "idmap.h"
#include "bigalloc.h"

#include <stdlib.h>

#define MAX_PROBE 64

static uint32_t slot_of(const struct idmap *m, uint64_t key, uint32_t cap)
{
	if (!m->mixed)
		return (uint32_t)key & (cap - 1);
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* Rebuilds the slots at capacity cap. A low-bits layout that clusters
 * while rebuilding is given up for the hashed one. */
static bool rehash(struct idmap *m, uint32_t cap)
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

static bool grow(struct idmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64;
	return cap > m->cap && rehash(m, cap);
}

bool idmap_reserve(struct idmap *m, uint32_t n)
{
	uint32_t cap = m->cap ? m->cap : 64;
	while (cap / 2 < n && cap < (1u << 31))
		cap *= 2;
	return cap == m->cap || rehash(m, cap);
}

/* Leaves the low-bits layout after a long probe (see the top). */
static bool mix(struct idmap *m)
{
	if (m->mixed)
		return false;
	m->mixed = true;
	if (rehash(m, m->cap))
		return true;
	m->mixed = false;
	return false;
}

uint32_t idmap_put(struct idmap *m, uint64_t key, uint32_t val, bool *nomem)
{
	if (key == UINT64_MAX) /* cannot be stored as key + 1; ids never reach it */
		return IDMAP_NONE;
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
			return idmap_put(m, key, val, nomem);
		s = (s + 1) & (m->cap - 1);
	}
	m->keys[s] = key + 1;
	m->vals[s] = val;
	m->n++;
	return IDMAP_NONE;
}

uint32_t idmap_get(const struct idmap *m, uint64_t key)
{
	if (!m->cap || key == UINT64_MAX)
		return IDMAP_NONE;
	uint32_t s = slot_of(m, key, m->cap), probes = 0;
	while (m->keys[s]) {
		if (m->keys[s] == key + 1)
			return m->vals[s];
		/* The layout is bookkeeping, not content: a lookup may change it. */
		if (++probes == MAX_PROBE && mix((struct idmap *)(uintptr_t)m))
			return idmap_get(m, key);
		s = (s + 1) & (m->cap - 1);
	}
	return IDMAP_NONE;
}

void idmap_free(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
	m->mixed = false;
}
