/* Byte-level edits for any format: bit flips, boundary values written over 1,
 * 2, 4 or 8 bytes in either byte order, chunk deletion, duplication and
 * insertion, and truncation. Boundary values matter most: they turn a size or
 * count field into an overflow or an out-of-range offset. */
#include "mutator.h"

#include <string.h>

static const uint64_t boundary_values[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
};

static void put_value(struct tlm_rng *r, uint8_t *data, size_t size)
{
	static const unsigned widths[] = { 1, 2, 4, 8 };
	unsigned w = widths[tlm_rng_below(r, 4)];
	if (size < w)
		return;
	uint64_t v = tlm_rng_below(r, 4) == 0 ? tlm_rng_next(r)
		: boundary_values[tlm_rng_below(r, sizeof boundary_values / sizeof *boundary_values)];
	if (tlm_rng_below(r, 3) == 0)
		v += tlm_rng_below(r, 3) - 1; /* one off a boundary */
	size_t pos = tlm_rng_below(r, size - w + 1);
	bool big = tlm_rng_below(r, 2);
	tlm_put(data + pos, w, big, v);
}

/* At most 64 bytes, and a quarter of the input: the room the caller gives. */
static size_t chunk_len(struct tlm_rng *r, size_t size)
{
	size_t most = size / 4 + 1;
	if (most > 64)
		most = 64;
	return 1 + tlm_rng_below(r, most);
}

/* A chunk of the input: its start in *pos, its length returned, cut at the end. */
static size_t pick_chunk(struct tlm_rng *r, size_t size, size_t *pos)
{
	size_t n = chunk_len(r, size);
	*pos = tlm_rng_below(r, size);
	return n < size - *pos ? n : size - *pos;
}

size_t tlm_bytes_edit(struct tlm_rng *r, uint8_t *data, size_t size, size_t max_size)
{
	switch (tlm_rng_below(r, 7)) {
	case 0: /* flip one bit */
		if (size)
			data[tlm_rng_below(r, size)] ^= (uint8_t)(1u << tlm_rng_below(r, 8));
		break;
	case 1:
	case 2: /* a boundary value over 1..8 bytes: weighted, it finds the most */
		put_value(r, data, size);
		break;
	case 3: { /* delete a chunk */
		if (!size)
			break;
		size_t pos, n = pick_chunk(r, size, &pos);
		tlm_erase(data, &size, pos, n);
		break;
	}
	case 4: { /* duplicate a chunk somewhere else */
		if (!size)
			break;
		size_t from, n = pick_chunk(r, size, &from);
		if (size + n > max_size)
			break;
		size_t to = tlm_rng_below(r, size + 1);
		uint8_t tmp[64];
		memcpy(tmp, data + from, n);
		memmove(data + to + n, data + to, size - to);
		memcpy(data + to, tmp, n);
		size += n;
		break;
	}
	case 5: { /* insert random bytes */
		size_t n = 1 + tlm_rng_below(r, 16);
		if (size + n > max_size)
			break;
		size_t to = tlm_rng_below(r, size + 1);
		memmove(data + to + n, data + to, size - to);
		for (size_t i = 0; i < n; i++)
			data[to + i] = (uint8_t)tlm_rng_next(r);
		size += n;
		break;
	}
	default: /* truncate */
		if (size)
			size = tlm_rng_below(r, size);
		break;
	}
	return size;
}
