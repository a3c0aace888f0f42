/* What the JSON reader's own files share (not for its users). */
#ifndef TL_JSON_INTERNAL_H
#define TL_JSON_INTERNAL_H

#include "json_tree.h"

#define BLOCK_SHIFT 16
#define NO_LAZY UINT32_MAX
#define JSKIP (UINT32_MAX - 1) /* a value that is scanned, not built */

/* An open container while reading (pass 1 and pass 2 alike). */
struct tl_json_frame {
	uint32_t node;      /* JSKIP when this container is not built */
	uint32_t last;      /* last built child */
	uint32_t count;     /* values seen (arrays: index of the current one + 1) */
	size_t keys;        /* first key of this object in the key stack */
	uint64_t objseq;
	uint64_t key_off;   /* current key (objects), for pointers */
	uint32_t key_len;
	bool obj, build, lazy, pinned;
};

/* Doubles the node array (below the pin range); false when it cannot. */
bool tl_json_grow_nodes(struct tl_json_doc *d);

/* Room for one more node; false when none. */
static inline bool tl_json_reserve_node(struct tl_json_doc *d)
{
	return d->n < d->cap || tl_json_grow_nodes(d);
}

/* Skips the (valid) value at off with the pass-1 parser; returns the
 * offset just past it, or UINT64_MAX if the text is no longer valid. */
uint64_t tl_json_skip_value(struct tl_json_doc *d, uint64_t off);

/* The lazy table of a pin and its row, or NO_LAZY. */
uint32_t tl_json_lazy_of(const struct tl_json_doc *d, uint32_t pin, uint32_t *row);

/* Appends a key as a pointer segment (named decoded, RFC 6901). */
size_t tl_json_key_segment(char *out, size_t pos, size_t outlen, const uint8_t *s, size_t n);

#endif
