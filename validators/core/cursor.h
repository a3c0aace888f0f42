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

/* Random access: a cursor over [off, off + len) of data[0, size), for formats
 * whose fields are found through file pointers. False, and no cursor, when
 * the range is not wholly inside (off + len may not overflow either). */
static inline bool tl_cursor_at(struct tl_cursor *c, const uint8_t *data, size_t size,
				uint64_t off, uint64_t len)
{
	if (!data || off > size || len > size - off)
		return false;
	tl_cursor_init(c, data + off, (size_t)len, off);
	return true;
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

/* always_inline: field reads sit in the hottest loops, where a call per read
 * (or a caller no longer inlined) costs more than the read itself. */
#define TL_HOT static inline __attribute__((always_inline))

/* The unsigned integer of width 1..8 at p, in either byte order: one load of
 * the host's order (constant-size copies compile to one), swapped when the
 * data's order differs. Callers have checked the bytes are there. */
TL_HOT uint64_t tl_load_uint(const uint8_t *p, size_t width, bool big)
{
	uint64_t x = 0;
	switch (width) {
	case 1: return *p;
	case 2: { uint16_t w; memcpy(&w, p, 2); x = w; break; }
	case 4: { uint32_t w; memcpy(&w, p, 4); x = w; break; }
	case 8: memcpy(&x, p, 8); break;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	default:
		for (size_t i = 0; i < width; i++)
			x = (x << 8) | p[big ? i : width - 1 - i];
		return x;
	}
	return big ? x : __builtin_bswap64(x) >> (64 - 8 * width);
#else
	default: memcpy(&x, p, width); break; /* the low bytes of x */
	}
	return big ? __builtin_bswap64(x) >> (64 - 8 * width) : x;
#endif
}

/* Unsigned integer of width bytes (1..8) in the given byte order, without moving. */
static inline bool tl_cursor_peek_uint(const struct tl_cursor *c, size_t width, bool big,
				       uint64_t *v)
{
	if (width < 1 || width > 8 || c->left < width)
		return false;
	*v = tl_load_uint(c->p, width, big);
	return true;
}

/* Random access without moving a cursor: the field of width 1..8 at off in
 * data[0, size), for formats whose fields are found through file pointers.
 * False when it is not wholly inside. */
TL_HOT bool tl_read_uint_at(const uint8_t *data, size_t size, uint64_t off, size_t width,
			    bool big, uint64_t *v)
{
	if (!data || width < 1 || width > 8 || off >= size || width > size - off)
		return false;
	*v = tl_load_uint(data + off, width, big);
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

/* tl_read_uint_at's field read as a two's-complement signed integer. */
TL_HOT bool tl_read_int_at(const uint8_t *data, size_t size, uint64_t off, size_t width,
			   bool big, int64_t *v)
{
	uint64_t u;
	if (!tl_read_uint_at(data, size, off, width, big, &u))
		return false;
	*v = tl_sign_extend(u, (unsigned)width * 8);
	return true;
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
