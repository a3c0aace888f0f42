/* A strict RFC 8259 JSON reader that turns a mapped buffer into a compact
 * array of nodes with positions. Values are not copied: strings and numbers
 * stay in the buffer and are decoded on demand. Nesting is tracked with a
 * heap stack bounded by JSON_MAX_DEPTH, never with the C stack. */
#ifndef TL_DCFG_JSON_TREE_H
#define TL_DCFG_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 1024
#define JNONE 0u /* node index 0 is the root, never a child: 0 means "none" */

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

enum { JF_ESCAPE = 1, JF_KEY = 2 };

struct jnode {
	uint64_t off;     /* byte offset of the value's first byte */
	uint32_t line;    /* 1-based */
	uint32_t col;     /* 1-based, in bytes */
	uint32_t parent;  /* UINT32_MAX for the root */
	uint32_t next;    /* next sibling or JNONE */
	uint32_t first;   /* first child (containers) or JNONE */
	uint32_t count;   /* children (objects: keys and values), string bytes, number bytes */
	uint8_t type;
	uint8_t flags;
};

struct jdoc {
	const uint8_t *buf;
	size_t size;
	struct jnode *nodes;
	uint32_t n, cap;
};

enum jerr { JE_OK, JE_SYNTAX, JE_DEPTH, JE_NOMEM };

struct jerror {
	enum jerr kind;
	uint64_t off;
	uint32_t line, col;
	char msg[160];
};

/* Parses buf into doc. On failure, err says where and why; doc holds the
 * nodes read so far and must still be freed. */
bool json_parse(struct jdoc *doc, const uint8_t *buf, size_t size, struct jerror *err);
void json_free(struct jdoc *doc);

static inline const struct jnode *jn(const struct jdoc *d, uint32_t i) { return &d->nodes[i]; }

/* The raw bytes between the quotes of a string node (escapes not decoded). */
static inline const uint8_t *jstr(const struct jdoc *d, uint32_t i) { return d->buf + d->nodes[i].off + 1; }

/* True if string node i holds exactly the text s (escaped strings never match). */
bool jstr_eq(const struct jdoc *d, uint32_t i, const char *s);

/* In an object, the value node of key, or JNONE; dup receives the second
 * occurrence when the key is repeated (JNONE otherwise). */
uint32_t jobj_get(const struct jdoc *d, uint32_t obj, const char *key);

/* Writes the RFC 6901 pointer of node i into out. */
void json_pointer(const struct jdoc *d, uint32_t i, char *out, size_t outlen);

#endif
