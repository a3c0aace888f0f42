/* The keys of the objects still open in pass 1, found by their decoded
 * text in constant time, so that a repeated key is known as it is read:
 * its value is then checked and not built, and an object of 10^8 repeats
 * of one key costs what an object of that key once costs. */
#ifndef TL_JSON_KEYSET_H
#define TL_JSON_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tl_json_doc;

struct tl_json_key {              /* 24 bytes a distinct key of an open object */
	const uint8_t *s;      /* its latest spelling, just after the quote */
	uint32_t len;          /* as written */
	uint32_t dlen;         /* decoded */
	uint32_t hash;         /* of the decoded text */
};

struct tl_json_keyset {
	struct tl_json_key *keys;     /* a stack: the innermost object's keys are last */
	size_t n, cap;
	uint32_t *slots;       /* open addressing: key index + 1, 0 empty, JKEY_GONE removed */
	size_t nslots, used;
	uint8_t *scratch;      /* an escaped key decoded, for its hash */
	size_t capscratch;
	uint64_t seed;
};

/* The key s[0, len) (escaped or not) among the keys from index `from` on
 * (the innermost object's): its index, or SIZE_MAX when new. hash gets the
 * key's hash; false when memory ran out decoding it. */
bool tl_jkeys_find(struct tl_json_keyset *ks, size_t from, const uint8_t *s, uint32_t len, bool escaped, size_t *found,
		   struct tl_json_key *key);

/* Adds key (as tl_jkeys_find filled it); false when no memory or budget. */
bool tl_jkeys_add(struct tl_json_keyset *ks, struct tl_json_doc *d, const struct tl_json_key *key);

/* Forgets the keys from index `from` on (an object closes). */
void tl_jkeys_close(struct tl_json_keyset *ks, size_t from);

void tl_jkeys_free(struct tl_json_keyset *ks);

#endif
