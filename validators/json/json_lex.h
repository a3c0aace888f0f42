/* The JSON lexer: byte classes and the token scans that every pass shares.
 * Pass 1 (json_parse.c) validates with them and words its own errors;
 * pass 2 (json_rows.c) and the string decoder trust text pass 1 accepted. */
#ifndef TL_JSON_LEX_H
#define TL_JSON_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Byte classes. PLAIN: may stand unescaped in a string and ends nothing
 * (printable ASCII but '"' and '\\'; other bytes take the slow path).
 * NUMBYTE: may appear in a number. BLANK: JSON whitespace; INLINE_BLANK:
 * whitespace that is not a newline. */
enum { PLAIN = 1, NUMBYTE = 2, BLANK = 4, INLINE_BLANK = 8 };
static const uint8_t tl_json_cls[256] = {
	 0,  0,  0,  0,  0,  0,  0,  0,  0, 12,  4,  0,  0, 12,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	13,  1,  0,  1,  1,  1,  1,  1,  1,  1,  1,  3,  1,  3,  3,  1,
	 3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  1,  1,  1,  1,  1,  1,
	 1,  1,  1,  1,  1,  3,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
	 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  0,  1,  1,  1,
	 1,  1,  1,  1,  1,  3,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
	 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0
};


static inline bool jlex_is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

static inline bool jlex_is_hex(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Past the run of plain string bytes at p (four at a time while it can):
 * the portable path, and the one the SSE2 path is tested against. */
static inline const uint8_t *jlex_plain_end_scalar(const uint8_t *p, const uint8_t *end)
{
	while (end - p >= 4 && (tl_json_cls[p[0]] & tl_json_cls[p[1]] & tl_json_cls[p[2]] & tl_json_cls[p[3]] & PLAIN))
		p += 4;
	while (p < end && (tl_json_cls[*p] & PLAIN))
		p++;
	return p;
}

/* The same, sixteen bytes a step with SSE2 (every x86-64 has it): a byte
 * is plain unless it is '"', '\\', below 0x20 or above 0x7f, the last two
 * being one signed comparison. Long strings (DCFG-trace sequences) are
 * most of what the lexer reads in some files. */
#if defined(__SSE2__) && !defined(TL_JSON_SCALAR)
#include <emmintrin.h>
#define TL_JSON_SIMD 1

/* Bytes of v in [lo, lo + n), as a mask: the range test as one signed
 * comparison after moving lo to -128 (SSE2 compares bytes signed only). */
static inline __m128i jlex_in_range(__m128i v, uint8_t lo, uint8_t n)
{
	__m128i moved = _mm_add_epi8(v, _mm_set1_epi8((char)(uint8_t)(0x80 - lo)));
	return _mm_cmplt_epi8(moved, _mm_set1_epi8((char)(uint8_t)(0x80 + n)));
}
static inline const uint8_t *jlex_plain_end(const uint8_t *p, const uint8_t *end)
{
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
					    _mm_cmplt_epi8(v, space));
		unsigned m = (unsigned)_mm_movemask_epi8(stop);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
	return jlex_plain_end_scalar(p, end);
}
#else
#define TL_JSON_SIMD 0
static inline const uint8_t *jlex_plain_end(const uint8_t *p, const uint8_t *end) { return jlex_plain_end_scalar(p, end); }
#endif

/* Past the blanks at p; most separators are one space or none. */
static inline const uint8_t *jlex_blank_end(const uint8_t *p, const uint8_t *end)
{
	if (p < end && *p == ' ')
		p++;
	while (p < end && (tl_json_cls[*p] & BLANK))
		p++;
	return p;
}

/* Past the bytes of a number at p (trusted text). */
static inline const uint8_t *jlex_number_end(const uint8_t *p, const uint8_t *end)
{
	while (p < end && (tl_json_cls[*p] & NUMBYTE))
		p++;
	return p;
}

/* The closing quote of trusted string text starting at p (after the
 * opening quote), or end; *escaped tells whether it holds a backslash. */
static inline const uint8_t *jlex_string_end(const uint8_t *p, const uint8_t *end, bool *escaped)
{
	for (;;) {
		p = jlex_plain_end(p, end);
		if (p >= end || *p == '"')
			return p;
		if (*p == '\\') {
			*escaped = true;
			p += 2;
		} else
			p++;
	}
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JLEX_SWAR_DIGITS 1
/* Eight ASCII digits read as one little-endian word (the first digit in the
 * low byte): their value, or false when one is not a digit. Three
 * multiplications instead of eight steps of a loop. */
static inline bool jlex_swar8(uint64_t v, uint64_t *out)
{
	if (((v & 0xF0F0F0F0F0F0F0F0u) | (((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) != 0x3333333333333333u)
		return false;
	v -= 0x3030303030303030u;
	v = v * 10 + (v >> 8); /* pairs */
	*out = ((v & 0x000000FF000000FFu) * (100 + (1000000ull << 32)) +
		((v >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32))) >> 32;
	return true;
}

/* The 1 to 8 digits at s (8 bytes readable there) as a number, or false
 * when one of them is not a digit. */
static inline bool jlex_small_int(const uint8_t *s, size_t n, uint64_t *out)
{
	uint64_t w;
	memcpy(&w, s, 8);
	/* the n digits to the top, '0's before them */
	w = n == 8 ? w : (w << (8 * (8 - n))) | (0x3030303030303030u >> (8 * n));
	return jlex_swar8(w, out);
}
#endif

/* Length of a valid UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), or 0. */
static inline size_t jlex_utf8_len(const uint8_t *p, const uint8_t *end)
{
	uint8_t c = p[0];
	size_t n;
	uint8_t lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

#endif
