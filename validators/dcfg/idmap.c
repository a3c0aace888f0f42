/* Linear probing with a multiplicative hash; the empty slot marker is a
 * key no file can hold (ids are at most 64 bits but we store key + 1). */
#include "idmap.h"

#include <stdlib.h>

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static bool grow(struct idmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64;
	if (cap <= m->cap)
		return false;
	uint64_t *keys = calloc(cap, sizeof *keys);
	uint32_t *vals = malloc((size_t)cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	for (uint32_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		uint32_t s = slot_of(m->keys[i] - 1, cap);
		while (keys[s])
			s = (s + 1) & (cap - 1);
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return true;
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
	uint32_t s = slot_of(key, m->cap);
	while (m->keys[s]) {
		if (m->keys[s] == key + 1)
			return m->vals[s];
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
	uint32_t s = slot_of(key, m->cap);
	while (m->keys[s]) {
		if (m->keys[s] == key + 1)
			return m->vals[s];
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
}
