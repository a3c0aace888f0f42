/* Structural indexing of JSON text 64 bytes at a time (the simdjson
 * technique): byte classes as bitmasks, quotes escaped by an odd run of
 * backslashes removed, string regions by prefix-xor of the quotes. The
 * classes come from a scalar, an SSE2 or an AVX2 classifier, chosen per
 * call (TRACELINT_SIMD=scalar|sse2|avx2 forces one); the rest is shared,
 * so every path gives the same bits. Bit i of a mask is byte i of the block. */
#ifndef TL_JSON_INDEX_H
#define TL_JSON_INDEX_H

#include <stddef.h>
#include <stdint.h>

enum tl_json_simd { TL_JSON_SIMD_SCALAR, TL_JSON_SIMD_SSE2, TL_JSON_SIMD_AVX2 };

/* The raw classes of 64 bytes. */
struct jclass {
	uint64_t quote, backslash;
	uint64_t op;      /* [ ] { } , : */
	uint64_t ws;      /* space, tab, CR, LF */
	uint64_t nl;      /* LF */
	uint64_t ctrl;    /* below 0x20 */
	uint64_t high;    /* 0x80 and above */
	uint64_t digit;
};

/* One block indexed. */
struct jblock {
	struct jclass c;
	uint64_t quote;    /* quotes not escaped */
	uint64_t string;   /* inside strings: the opening quote and the content, not the closing quote */
	uint64_t scalar;   /* outside strings and not a quote, blank or structural: numbers, literals, junk */
	uint64_t tokens;   /* where a token starts: structurals and opening quotes outside strings, scalar runs' first bytes */
};

/* The state carried from one block to the next: the caller's (no static state). */
struct jindex {
	void (*classify)(const uint8_t *p, struct jclass *c);
	enum tl_json_simd path;
	uint64_t escaped;    /* 1: the next block's first byte is escaped */
	uint64_t in_string;  /* all ones: the next block starts inside a string */
	uint64_t scalar;     /* 1: the previous block ended in a scalar run */
};

/* The best path this CPU runs, or the one TRACELINT_SIMD names (never one
 * the CPU lacks: it falls back to the best it has). */
enum tl_json_simd tl_json_simd_choose(void);
const char *tl_json_simd_name(enum tl_json_simd path);

/* Starts indexing at a point outside any string. */
void tl_json_index_init(struct jindex *x, enum tl_json_simd path);

/* Indexes the n bytes at p (n >= 64: the next 64; fewer: the rest, padded
 * with blanks, no byte past p + n is read). */
void tl_json_index_block(struct jindex *x, const uint8_t *p, size_t n, struct jblock *b);

#endif
