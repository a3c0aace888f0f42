/* A strict RFC 8259 JSON reader over a mapped buffer, in two passes.
 *
 * Pass 1 (tl_json_parse_lazy) validates the whole text (syntax, UTF-8, depth,
 * duplicate keys) and builds nodes only for the document's skeleton: arrays
 * under one of the caller's "lazy" keys (the big tables: blocks, edges,
 * chunks) get one node that knows its offset and its number of rows, and
 * nothing inside them is stored. Pass 2 reads the rows of such a table on
 * demand, one at a time, into an arena that the next row replaces; a row
 * is named by a stable "pin" id (JPIN bit set) that stays usable for
 * reports after the row is gone. Memory is the skeleton plus one row, plus
 * 8 bytes a row for tables whose rows must be reported on later.
 *
 * Values are not copied: strings and numbers stay in the buffer. Nesting is
 * tracked with a heap stack bounded by JSON_MAX_DEPTH, never the C stack.
 * Line and column are computed from a byte offset on demand, through a
 * line index of one entry per 64 KiB. */
#ifndef TL_JSON_TREE_H
#define TL_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tl_input;

#define JSON_MAX_DEPTH 1024
#define JNONE 0u          /* node index 0 is the root, never a child: 0 means "none" */
#define JPIN 0x80000000u  /* ids with this bit are rows of lazy tables */

enum tl_json_type { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

/* JF_DROPPED: the value of an unknown top-level key, checked but with
 * nothing inside it built (no children, count 0). */
enum { JF_ESCAPE = 1, JF_KEY = 2, JF_LAZY = 4, JF_DROPPED = 8 };

struct tl_json_node {
	uint64_t off;     /* byte offset of the value's first byte */
	uint32_t parent;  /* UINT32_MAX for the root */
	uint32_t next;    /* next sibling or JNONE */
	uint32_t first;   /* first child (containers) or JNONE; a pin for lazy tables */
	uint32_t count;   /* children (objects: keys and values), string bytes, number bytes */
	uint32_t idx;     /* position among the parent's children: pointers in O(depth) */
	uint8_t type;
	uint8_t flags;
};

/* An array under this key is read row by row; pinned: remember where each
 * row starts, so reports on a row still work once it is gone. */
struct tl_json_lazy_key {
	const char *name;
	bool pinned;
};

struct tl_json_lazy {
	uint32_t node;      /* the table's skeleton node */
	uint32_t pin_base;  /* pin of row 0 is JPIN | pin_base */
	uint32_t known;     /* rows whose start offset is in row_off */
	bool pinned;
	uint64_t *row_off;
};

struct tl_json_dup {             /* a repeated key found in pass 1, reported later */
	uint64_t objseq;      /* the object's rank in document order */
	const uint8_t *text;  /* the key, just after its quote: report order is by key */
	uint32_t dlen;        /* its decoded length */
	uint64_t key_off, first_off; /* the repeat, and the key it repeats (the one before) */
	uint32_t len;
	char *pointer;
};

struct tl_json_frame; /* an open container while reading */

struct tl_json_doc {
	const uint8_t *buf;
	size_t size;
	struct tl_json_node *nodes;
	uint32_t n, cap;
	uint32_t nskel;            /* [0, nskel) stays; [nskel, n) is the current row */
	struct tl_json_lazy *lazy;
	uint32_t nlazy, npins;
	size_t caplazy;
	uint32_t cur_lazy;         /* table of the current row, UINT32_MAX for none */
	uint32_t cur_row;
	uint32_t cur_pin;          /* pin of the current row, JNONE for none */
	uint64_t cur_start;        /* offset of the current row's first byte */
	uint64_t cur_end;          /* offset just past the current row, UINT64_MAX while a
	                            * reader of its text (tl_json_row_text) has not said */
	uint32_t *blk_line;        /* newlines before each 64 KiB block */
	uint64_t *blk_start;       /* start of the line holding each block's first byte */
	size_t nblk;
	struct tl_json_dup *dups;         /* the first keep_dups in report order, sorted */
	size_t ndups, capdups, keep_dups;
	uint64_t dups_dropped;     /* found past keep_dups: counted only */
	const struct tl_input *in; /* mapped input whose pages are handed back, or NULL */
	uint64_t release_mark;
	struct tl_json_frame *frames;     /* JSON_MAX_DEPTH open containers, for every pass */
	bool nomem;                /* memory ran out reading a row: rows read since are wrong */
	uint64_t budget;           /* most bytes the document may hold (tl_json_parse_budget) */
	uint64_t held;             /* bytes of the node array and of pass 1's open keys */
	bool over_budget;          /* a growth past budget was refused */
};

enum tl_json_err { JE_OK, JE_SYNTAX, JE_DEPTH, JE_NOMEM, JE_LIMIT };

struct tl_json_error {
	enum tl_json_err kind;
	uint64_t off;
	uint32_t line, col;
	char msg[160];
};

/* Pass 1 over buf. On failure, err says where and why; doc must still be
 * freed. in (may be NULL) gets its pages released as the reader moves on.
 * Repeated keys: the first keep_dups (in report order) are kept with their
 * pointer, the others only counted, so a file made of repeated keys costs
 * no more memory than the reports that will be shown. */
bool tl_json_parse_lazy(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_lazy_key *lazy,
		     size_t nlazy, const struct tl_input *in, size_t keep_dups, struct tl_json_error *err);

/* All of pass 1's settings. known (may be NULL): the keys of the top-level
 * object whose values are read; the value of any other key is checked as
 * JSON and kept as one node (JF_DROPPED), whatever it holds. */
struct tl_json_parse_opts {
	const struct tl_json_lazy_key *lazy;
	size_t nlazy;
	const char *const *known;
	size_t nknown;
	const struct tl_input *in;
	size_t keep_dups;
	uint64_t budget;
};
bool tl_json_parse_with(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_parse_opts *o,
			struct tl_json_error *err);

/* The whole document as nodes (no lazy tables). */
bool tl_json_parse(struct tl_json_doc *doc, const uint8_t *buf, size_t size, struct tl_json_error *err);
/* tl_json_parse_lazy holding at most budget bytes (the node array and the
 * keys of open objects): past it, err is JE_LIMIT. */
bool tl_json_parse_budget(struct tl_json_doc *doc, const uint8_t *buf, size_t size, const struct tl_json_lazy_key *lazy,
			  size_t nlazy, const struct tl_input *in, size_t keep_dups, uint64_t budget,
			  struct tl_json_error *err);
/* Takes bytes more from d's budget; false (and d->over_budget) past it. */
bool tl_json_take(struct tl_json_doc *d, uint64_t bytes);
void tl_json_free(struct tl_json_doc *doc);

/* The node of a row (read now if it is not the current one: the cells of
 * the previous row are then invalid). */
const struct tl_json_node *tl_json_row(struct tl_json_doc *d, uint32_t pin);
/* A row's text without its nodes, for a reader that takes simple rows from
 * the text itself (a fast path; on anything unexpected it asks jn() for the
 * row's nodes, which are then built). The row becomes the current one: the
 * first byte of its text ('[', valid JSON), or NULL if it cannot be found
 * (the text changed, no memory). The reader then says where the row ended,
 * just past its ']' (tl_json_row_text_end), before it reads the next row. */
const uint8_t *tl_json_row_text(struct tl_json_doc *d, uint32_t pin);
void tl_json_row_text_end(struct tl_json_doc *d, const uint8_t *end);

/* The row after pin, or JNONE, without reading anything. */
uint32_t tl_json_pin_next(const struct tl_json_doc *d, uint32_t pin);

/* A node, or a row's node (the current row without a call: the readers
 * ask for the row they are reading several times a cell). */
static inline const struct tl_json_node *jn(struct tl_json_doc *d, uint32_t i)
{
	if (!(i & JPIN))
		return &d->nodes[i];
	return i == d->cur_pin ? &d->nodes[d->nskel] : tl_json_row(d, i);
}

static inline uint32_t jsibling(const struct tl_json_doc *d, uint32_t i)
{
	return (i & JPIN) ? tl_json_pin_next(d, i) : d->nodes[i].next;
}

/* Offset of any node or pin, reading nothing. */
uint64_t tl_json_off(struct tl_json_doc *d, uint32_t i);

/* Same, but UINT64_MAX when the text of i is not at hand (a row of an
 * unpinned table that is gone), where tl_json_off falls back to the table. */
uint64_t tl_json_text_off(struct tl_json_doc *d, uint32_t i);

/* The value at path (positions in nested arrays, outermost first) inside
 * node or row i, found by scanning the text of i, which must be valid JSON:
 * its offset, and its RFC 6901 pointer in out (i's pointer, then the
 * positions). Costs the length of i's text up to the value, whatever i's
 * place in the document; reads no row, so the current row stays. False,
 * out untouched, when i's text is not at hand or the path leads nowhere. */
bool tl_json_locate(struct tl_json_doc *d, uint32_t i, const uint32_t *path, size_t depth, uint64_t *off, char *out,
		    size_t outlen);

/* 1-based line and column (in bytes) of a byte offset. */
void tl_json_line_col(const struct tl_json_doc *d, uint64_t off, uint32_t *line, uint32_t *col);

/* The raw bytes between the quotes of a string node (escapes not decoded). */
static inline const uint8_t *jstr(struct tl_json_doc *d, uint32_t i) { return d->buf + jn(d, i)->off + 1; }

/* True if string node i reads as the text s, escapes decoded. */
bool tl_json_str_eq(struct tl_json_doc *d, uint32_t i, const char *s);


/* In an object, the value node of key, or JNONE. */
uint32_t tl_json_obj_get(struct tl_json_doc *d, uint32_t obj, const char *key);

/* Writes the RFC 6901 pointer of node i into out. */
void tl_json_pointer(const struct tl_json_doc *d, uint32_t i, char *out, size_t outlen);

/* Appends a pointer segment, escaping '~' and '/' (RFC 6901); returns the
 * new length, or outlen once the pointer is cut short (it stays a prefix). */
size_t tl_json_pointer_segment(char *out, size_t pos, size_t outlen, const uint8_t *s, size_t n);

#endif
