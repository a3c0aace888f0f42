/* A cursor over one description line's payload, which knows the line and
 * column of every byte for diagnostics, and the small hex lexers that the
 * payload grammars (R, status, tsv, tp) share. */
#ifndef TL_TFILE_TEXT_H
#define TL_TFILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"

struct tfile_text {
	const uint8_t *p;
	size_t len;
	size_t pos;
	uint64_t offset;   /* file offset of p[0] */
	uint32_t line;
	uint32_t column;   /* 1-based column of p[0] */
};

static inline struct tl_location tfile_text_loc(const struct tfile_text *t)
{
	return tl_at_text(t->offset + t->pos, t->line, t->column + (uint32_t)t->pos);
}

static inline bool tfile_text_end(const struct tfile_text *t) { return t->pos >= t->len; }

static inline int tfile_text_peek(const struct tfile_text *t)
{
	return t->pos < t->len ? t->p[t->pos] : -1;
}

/* Consumes c if it is next. */
static inline bool tfile_text_eat(struct tfile_text *t, uint8_t c)
{
	if (t->pos < t->len && t->p[t->pos] == c) {
		t->pos++;
		return true;
	}
	return false;
}

int tl_tfile_hex_value(int c); /* -1 when c is not a hex digit */

/* Reads 1..max_digits hex digits (leading zeros count) into *v; fails,
 * consuming nothing, when there is no digit or more than max_digits. */
bool tl_tfile_text_hex(struct tfile_text *t, unsigned max_digits, uint64_t *v);

/* Reads a run of hex digits (possibly none) and says how many. */
size_t tl_tfile_text_hex_run(struct tfile_text *t);

/* Describes what stands at the cursor for "found ..." in messages. */
const char *tl_tfile_text_found(const struct tfile_text *t, char *buf, size_t buflen);

/* Reports rule at the cursor: "expected <what>, found <what stands there>".
 * Returns false, for `return tl_tfile_text_expected(...)` in a parser. */
bool tl_tfile_text_expected(struct tl_ctx *ctx, enum tl_rule_id rule, const struct tfile_text *t,
			    const char *what);

/* A tracepoint or variable number in 1..max; otherwise reported at loc as
 * "expected <what> in 1..0x<max> (<why>), found 0x<number>". */
bool tl_tfile_number_in_range(struct tl_ctx *ctx, enum tl_rule_id rule,
			      const struct tl_location *loc, uint64_t number, uint64_t max,
			      const char *what, const char *why);

/* Splits off the text up to the next sep (or the end) as its own cursor. */
struct tfile_text tl_tfile_text_until(struct tfile_text *t, uint8_t sep);

#endif
