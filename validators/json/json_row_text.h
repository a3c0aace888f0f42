/* Reading simple rows of a lazy table straight from their text
 * (tl_json_row_text), for a reader's fast path. Pass 1 has validated the
 * text, so these only recognise the spellings a fast path takes: plain
 * decimal integers, strings of plain characters, and blanks between. Each
 * returns false on anything else (a '-', a fraction or exponent, an escape,
 * a value of another type), and the reader then takes the row's nodes,
 * whose rules say what is wrong, if anything. */
#ifndef TL_JSON_ROW_TEXT_H
#define TL_JSON_ROW_TEXT_H

#include "json_lex.h"
#include "json_tree.h"

struct tl_json_row_text {
	const uint8_t *p, *end;
};

/* Past the blanks, then the byte c. */
static inline bool jrt_byte(struct tl_json_row_text *t, uint8_t c)
{
	t->p = jlex_blank_end(t->p, t->end);
	if (t->p >= t->end || *t->p != c)
		return false;
	t->p++;
	return true;
}

/* Row pin's text (tl_json_row_text), past its '[': false when the row cannot
 * be found. The reader ends with tl_json_row_text_end(d, t->p). */
static inline bool jrt_open(struct tl_json_row_text *t, struct tl_json_doc *d, uint32_t pin)
{
	t->p = tl_json_row_text(d, pin);
	t->end = d->buf + d->size;
	return t->p && jrt_byte(t, '[');
}

/* Past the blanks, a byte that is c or not: true when it is (and taken). */
static inline bool jrt_next_is(struct tl_json_row_text *t, uint8_t c)
{
	t->p = jlex_blank_end(t->p, t->end);
	if (t->p < t->end && *t->p == c) {
		t->p++;
		return true;
	}
	return false;
}

/* A plain integer of at most 18 digits in [lo, hi]. */
static inline bool jrt_uint(struct tl_json_row_text *t, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const uint8_t *p = jlex_blank_end(t->p, t->end), *s = p;
	uint64_t v = 0;
	while (p < t->end && jlex_is_digit(*p) && p - s < 18)
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p == s || (p < t->end && (tl_json_cls[*p] & NUMBYTE)) || v < lo || v > hi)
		return false;
	*out = v;
	t->p = p;
	return true;
}

/* An integer as tl_jv_int reads one without a word: plain decimal (at most
 * 18 digits) or a "0x"/"0X" string of 1 to 16 hex digits, in [lo, hi]. */
static inline bool jrt_int(struct tl_json_row_text *t, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const uint8_t *p = jlex_blank_end(t->p, t->end);
	if (p >= t->end || *p != '"') {
		t->p = p;
		return jrt_uint(t, lo, hi, out);
	}
	if (t->end - p < 4 || p[1] != '0' || (p[2] != 'x' && p[2] != 'X'))
		return false;
	const uint8_t *s = p + 3, *q = s;
	uint64_t v = 0;
	for (; q < t->end && q - s < 16; q++) {
		unsigned h;
		if (*q >= '0' && *q <= '9')
			h = (unsigned)(*q - '0');
		else if ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'f')
			h = (unsigned)((*q | 0x20) - 'a' + 10);
		else
			break;
		v = v << 4 | h;
	}
	if (q == s || q >= t->end || *q != '"' || v < lo || v > hi)
		return false;
	*out = v;
	t->p = q + 1;
	return true;
}

/* A string of at most 32 characters '0' and '1': the bits, first character
 * highest, and their count. */
static inline bool jrt_bits(struct tl_json_row_text *t, uint32_t *bits, uint8_t *len)
{
	if (!jrt_byte(t, '"'))
		return false;
	const uint8_t *p = t->p, *s = p;
	uint32_t b = 0;
	while (p < t->end && (*p == '0' || *p == '1') && p - s < 32)
		b = (b << 1) | (uint32_t)(*p++ - '0');
	if (p >= t->end || *p != '"')
		return false;
	*bits = b;
	*len = (uint8_t)(p - s);
	t->p = p + 1;
	return true;
}

#endif
