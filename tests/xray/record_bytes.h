/* Little-endian XRay record bytes for tests that build traces by hand. */
#ifndef TESTS_XRAY_RECORD_BYTES_H
#define TESTS_XRAY_RECORD_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes the low `width` bytes of v, little-endian; returns width. */
static inline size_t put(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return (size_t)width;
}

/* A 16-byte metadata record of `kind` whose first field a is wa bytes; the
 * spare bytes hold 0xa5, as real producers leave garbage there. */
static inline size_t meta(uint8_t *p, unsigned kind, uint64_t a, int wa)
{
	memset(p, 0xa5, 16);
	p[0] = (uint8_t)(kind << 1 | 1);
	put(p + 1, a, wa);
	return 16;
}

#endif
