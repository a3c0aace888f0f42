/* The open objects' keys, hashed by decoded text (json_keyset.h). */
#include "json_keyset.h"
#include "json_internal.h"
#include "json_string.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

#define JKEY_GONE UINT32_MAX
#define FIRST_SLOTS 256u

/* 8 bytes a step; the seed (the set's address) varies from run to run, so
 * keys chosen to collide in one run do not in the next. */
static uint32_t hash_bytes(uint64_t seed, const uint8_t *p, size_t n)
{
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15u);
	for (; n >= 8; n -= 8, p += 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	uint64_t w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdu;
	return (uint32_t)(h ^ (h >> 32));
}

static bool same_text(const struct tl_json_key *a, const struct tl_json_key *b)
{
	if (a->dlen != b->dlen || a->hash != b->hash)
		return false;
	if (a->len == a->dlen && b->len == b->dlen)
		return !memcmp(a->s, b->s, a->len);
	return !tl_json_decoded_cmp(a->s, a->len, b->s, b->len);
}

bool tl_jkeys_find(struct tl_json_keyset *ks, size_t from, const uint8_t *s, uint32_t len, bool escaped, size_t *found,
		   struct tl_json_key *key)
{
	if (!ks->seed)
		ks->seed = (uint64_t)(uintptr_t)ks | 1;
	key->s = s;
	key->len = len;
	key->dlen = len;
	if (escaped) {
		key->dlen = (uint32_t)tl_json_decoded_len(s, len);
		if (key->dlen > ks->capscratch) {
			uint8_t *b = realloc(ks->scratch, key->dlen);
			if (!b)
				return false;
			ks->scratch = b;
			ks->capscratch = key->dlen;
		}
		tl_json_decode(s, len, ks->scratch, key->dlen);
		key->hash = hash_bytes(ks->seed, ks->scratch, key->dlen);
	} else
		key->hash = hash_bytes(ks->seed, s, len);
	*found = SIZE_MAX;
	if (!ks->nslots)
		return true;
	size_t mask = ks->nslots - 1;
	for (size_t i = key->hash & mask;; i = (i + 1) & mask) {
		uint32_t e = ks->slots[i];
		if (!e)
			return true;
		if (e == JKEY_GONE || e - 1 < from)
			continue;
		if (same_text(&ks->keys[e - 1], key)) {
			*found = e - 1;
			return true;
		}
	}
}

static void place(struct tl_json_keyset *ks, size_t index)
{
	size_t mask = ks->nslots - 1;
	size_t i = ks->keys[index].hash & mask;
	while (ks->slots[i] && ks->slots[i] != JKEY_GONE)
		i = (i + 1) & mask;
	if (!ks->slots[i])
		ks->used++;
	ks->slots[i] = (uint32_t)index + 1;
}

/* Room for one more: a table at most 3/4 used, removed keys included,
 * rebuilt from the stack (the same size when mostly removed keys). */
static bool make_room(struct tl_json_keyset *ks, struct tl_json_doc *d)
{
	if ((ks->used + 1) * 4 <= ks->nslots * 3)
		return true;
	size_t size = ks->nslots ? ks->nslots : FIRST_SLOTS;
	while ((ks->n + 1) * 2 > size)
		size *= 2;
	if (ks->n + 1 >= JKEY_GONE)
		return false;
	if (size > ks->nslots && !tl_json_take(d, (uint64_t)(size - ks->nslots) * sizeof *ks->slots))
		return false;
	uint32_t *slots = size == ks->nslots ? ks->slots : realloc(ks->slots, size * sizeof *slots);
	if (!slots)
		return false;
	memset(slots, 0, size * sizeof *slots);
	ks->slots = slots;
	ks->nslots = size;
	ks->used = 0;
	for (size_t k = 0; k < ks->n; k++)
		place(ks, k);
	return true;
}

bool tl_jkeys_add(struct tl_json_keyset *ks, struct tl_json_doc *d, const struct tl_json_key *key)
{
	if (!make_room(ks, d))
		return false;
	size_t before = ks->cap;
	struct tl_json_key *keys = tl_grow_array(ks->keys, &ks->cap, ks->n, sizeof *keys, 64);
	if (!keys)
		return false;
	ks->keys = keys;
	if (!tl_json_take(d, (uint64_t)(ks->cap - before) * sizeof *keys))
		return false;
	ks->keys[ks->n] = *key;
	place(ks, ks->n++);
	return true;
}

void tl_jkeys_close(struct tl_json_keyset *ks, size_t from)
{
	size_t mask = ks->nslots - 1;
	for (size_t k = from; k < ks->n; k++) {
		size_t i = ks->keys[k].hash & mask;
		while (ks->slots[i] != k + 1)
			i = (i + 1) & mask;
		ks->slots[i] = JKEY_GONE;
	}
	ks->n = from < ks->n ? from : ks->n;
}

void tl_jkeys_free(struct tl_json_keyset *ks)
{
	free(ks->keys);
	free(ks->slots);
	free(ks->scratch);
	memset(ks, 0, sizeof *ks);
}
