/* A bounds-checked byte cursor (after BoringSSL's CBS): every read checks
 * the bytes left and reports success, so parsers never index raw memory.
 * The cursor also knows the file offset it stands at, for diagnostics. */
#ifndef TL_CURSOR_H
#define TL_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tl_cursor {
	const uint8_t *p;
	size_t left;
	uint64_t offset; /* file offset of p */
};

static inline void tl_cursor_init(struct tl_cursor *c, const uint8_t *data, size_t size,
				  uint64_t offset)
{
	c->p = data;
	c->left = size;
	c->offset = offset;
}

static inline size_t tl_cursor_left(const struct tl_cursor *c) { return c->left; }
static inline uint64_t tl_cursor_offset(const struct tl_cursor *c) { return c->offset; }

static inline bool tl_cursor_skip(struct tl_cursor *c, size_t n)
{
	if (n > c->left)
		return false;
	c->p += n;
	c->left -= n;
	c->offset += n;
	return true;
}

/* Points *out at the next n bytes and moves past them. */
static inline bool tl_cursor_bytes(struct tl_cursor *c, size_t n, const uint8_t **out)
{
	if (n > c->left)
		return false;
	*out = c->p;
	return tl_cursor_skip(c, n);
}

/* Splits the next n bytes off as a cursor of their own. */
static inline bool tl_cursor_sub(struct tl_cursor *c, size_t n, struct tl_cursor *sub)
{
	if (n > c->left)
		return false;
	tl_cursor_init(sub, c->p, n, c->offset);
	return tl_cursor_skip(c, n);
}

static inline bool tl_cursor_peek_u8(const struct tl_cursor *c, uint8_t *v)
{
	if (c->left < 1)
		return false;
	*v = c->p[0];
	return true;
}

/* Unsigned integer of width bytes (1..8) in the given byte order, without moving. */
static inline bool tl_cursor_peek_uint(const struct tl_cursor *c, size_t width, bool big,
				       uint64_t *v)
{
	if (width < 1 || width > 8 || c->left < width)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < width; i++) {
		size_t k = big ? i : width - 1 - i;
		x = (x << 8) | c->p[k];
	}
	*v = x;
	return true;
}

static inline bool tl_cursor_uint(struct tl_cursor *c, size_t width, bool big, uint64_t *v)
{
	return tl_cursor_peek_uint(c, width, big, v) && tl_cursor_skip(c, width);
}

static inline bool tl_cursor_u8(struct tl_cursor *c, uint8_t *v)
{
	return tl_cursor_peek_u8(c, v) && tl_cursor_skip(c, 1);
}

static inline bool tl_cursor_u16(struct tl_cursor *c, bool big, uint16_t *v)
{
	uint64_t x;
	if (!tl_cursor_uint(c, 2, big, &x))
		return false;
	*v = (uint16_t)x;
	return true;
}

static inline bool tl_cursor_u32(struct tl_cursor *c, bool big, uint32_t *v)
{
	uint64_t x;
	if (!tl_cursor_uint(c, 4, big, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static inline bool tl_cursor_u64(struct tl_cursor *c, bool big, uint64_t *v)
{
	return tl_cursor_uint(c, 8, big, v);
}

/* Two's-complement reinterpretation without implementation-defined casts. */
static inline int64_t tl_sign_extend(uint64_t v, unsigned bits)
{
	if (bits == 0 || bits >= 64)
		return v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
	uint64_t sign = (uint64_t)1 << (bits - 1);
	uint64_t mask = (sign << 1) - 1;
	v &= mask;
	return (v & sign) ? -(int64_t)((~v & mask)) - 1 : (int64_t)v;
}

/* Checked arithmetic for hostile offsets, lengths and counts. */
static inline bool tl_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

static inline bool tl_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

static inline bool tl_add_i64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

static inline bool tl_mul_i64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

#endif
