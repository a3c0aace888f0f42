/* Decoding validated JSON string text, one byte at a time, for comparisons
 * that must agree with what any JSON reader hands its caller. */
#include "json_string.h"

#include <string.h>

struct decoder {
	const uint8_t *p, *end;
	uint8_t pending[4];
	unsigned npending, next;
};

static unsigned hex4(const uint8_t *p)
{
	unsigned v = 0;
	for (int k = 0; k < 4; k++) {
		uint8_t c = p[k];
		v = v << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* The code point of the escape at p (after "\u"), consuming a low
 * surrogate escape that completes a pair. */
static unsigned code_point(struct decoder *d)
{
	unsigned cp = hex4(d->p);
	d->p += 4;
	if (cp >= 0xd800 && cp < 0xdc00 && d->end - d->p >= 6 && d->p[0] == '\\' && d->p[1] == 'u') {
		unsigned lo = hex4(d->p + 2);
		if (lo >= 0xdc00 && lo < 0xe000) {
			d->p += 6;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
	}
	return cp;
}

static void put_utf8(struct decoder *d, unsigned cp)
{
	uint8_t *o = d->pending;
	if (cp < 0x80) {
		o[0] = (uint8_t)cp;
		d->npending = 1;
	} else if (cp < 0x800) {
		o[0] = (uint8_t)(0xc0 | cp >> 6);
		o[1] = (uint8_t)(0x80 | (cp & 0x3f));
		d->npending = 2;
	} else if (cp < 0x10000) {
		o[0] = (uint8_t)(0xe0 | cp >> 12);
		o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (uint8_t)(0x80 | (cp & 0x3f));
		d->npending = 3;
	} else {
		o[0] = (uint8_t)(0xf0 | cp >> 18);
		o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (uint8_t)(0x80 | (cp & 0x3f));
		d->npending = 4;
	}
	d->next = 0;
}

/* The next decoded byte, or -1 at the end. */
static int next_byte(struct decoder *d)
{
	if (d->next < d->npending)
		return d->pending[d->next++];
	if (d->p >= d->end)
		return -1;
	uint8_t c = *d->p++;
	if (c != '\\' || d->p >= d->end)
		return c;
	uint8_t e = *d->p++;
	switch (e) {
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	case 'u':
		if (d->end - d->p < 4)
			return -1;
		put_utf8(d, code_point(d));
		return d->pending[d->next++];
	default: return e; /* " \ / */
	}
}

static void start(struct decoder *d, const uint8_t *s, size_t n)
{
	d->p = s;
	d->end = s + n;
	d->npending = d->next = 0;
}

size_t tl_json_decode(const uint8_t *s, size_t n, uint8_t *out, size_t outlen)
{
	struct decoder d;
	size_t len = 0;
	int c;
	start(&d, s, n);
	while (len < outlen && (c = next_byte(&d)) >= 0)
		out[len++] = (uint8_t)c;
	return len;
}

size_t tl_json_decoded_len(const uint8_t *s, size_t n)
{
	if (!memchr(s, '\\', n))
		return n;
	struct decoder d;
	size_t len = 0;
	start(&d, s, n);
	while (next_byte(&d) >= 0)
		len++;
	return len;
}

int tl_json_decoded_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	struct decoder x, y;
	start(&x, a, an);
	start(&y, b, bn);
	for (;;) {
		int p = next_byte(&x), q = next_byte(&y);
		if (p != q)
			return p < q ? -1 : 1; /* the end (-1) sorts first, as a shorter text */
		if (p < 0)
			return 0;
	}
}

bool tl_json_decoded_eq_slow(const uint8_t *s, size_t n, const char *c, size_t cn)
{
	if (!memchr(s, '\\', n))
		return false;
	struct decoder d;
	start(&d, s, n);
	for (size_t i = 0; i < cn; i++)
		if (next_byte(&d) != (uint8_t)c[i])
			return false;
	return next_byte(&d) < 0;
}
