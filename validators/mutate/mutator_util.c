/* Shared pieces of the mutators: a reproducible PRNG, integer access in
 * either byte order, and span edits that respect max_size. */
#include "mutator.h"

#include <string.h>

void tlm_rng_seed(struct tlm_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t tlm_rng_next(struct tlm_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void tlm_rng_stream(struct tlm_rng *r, uint64_t seed, uint64_t stream)
{
	struct tlm_rng first = { seed };
	r->state = tlm_rng_next(&first) ^ (stream * 0xd1b54a32d192ed03ull);
	(void)tlm_rng_next(r);
}

size_t tlm_buf_open(struct tlm_buf *b, uint8_t *data, size_t size, size_t max_size, uint64_t seed)
{
	if (size > max_size)
		size = max_size;
	b->data = data;
	b->size = size;
	b->max = max_size;
	tlm_rng_seed(&b->rng, seed);
	return size;
}

size_t tlm_buf_bytes(struct tlm_buf *b, const struct tlm_bytes *bytes)
{
	b->size = bytes->fn(bytes->ctx, b->data, b->size, b->max);
	return b->size;
}

uint64_t tlm_rng_below(struct tlm_rng *r, uint64_t n)
{
	return n ? tlm_rng_next(r) % n : 0;
}

uint64_t tlm_interesting(struct tlm_rng *r, uint64_t ref)
{
	/* Off-by-one around the true value finds most framing bugs; the
	 * width limits find the sign and overflow ones. */
	const uint64_t fixed[] = {
		0, 1, 2, 7, 8, 15, 16, 31, 32, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
		0x8000000000000000ull, 0xffffffffffffffffull,
	};
	switch (tlm_rng_below(r, 6)) {
	case 0: return ref - 1;
	case 1: return ref + 1;
	case 2: return ref * 2;
	case 3: return ref + tlm_rng_below(r, 64) - 32;
	default: return fixed[tlm_rng_below(r, sizeof fixed / sizeof fixed[0])];
	}
}

uint64_t tlm_get(const uint8_t *p, unsigned width, bool big)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++) {
		unsigned shift = 8u * (big ? width - 1 - i : i);
		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

void tlm_put(uint8_t *p, unsigned width, bool big, uint64_t v)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned shift = 8u * (big ? width - 1 - i : i);
		p[i] = (uint8_t)(v >> shift);
	}
}

bool tlm_insert(uint8_t *data, size_t *size, size_t max_size, size_t pos, size_t len)
{
	if (pos > *size || len > max_size || *size > max_size - len)
		return false;
	memmove(data + pos + len, data + pos, *size - pos);
	*size += len;
	return true;
}

void tlm_erase(uint8_t *data, size_t *size, size_t pos, size_t len)
{
	if (pos > *size || len > *size - pos)
		return;
	memmove(data + pos, data + pos + len, *size - pos - len);
	*size -= len;
}

bool tlm_duplicate(uint8_t *data, size_t *size, size_t max_size, size_t src, size_t len, size_t dst)
{
	if (src > *size || len > *size - src || !tlm_insert(data, size, max_size, dst, len))
		return false;
	/* The source moved right when the gap opened before it. */
	size_t from = src >= dst ? src + len : src;
	if (src < dst && src + len > dst) {
		/* The gap split the source: its tail now sits after the gap. */
		size_t head = dst - src;
		memmove(data + dst, data + src, head);
		memmove(data + dst + head, data + dst + len, len - head);
		return true;
	}
	memmove(data + dst, data + from, len);
	return true;
}

static void reverse(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		uint8_t t = p[i];
		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

void tlm_swap(uint8_t *data, size_t size, size_t a, size_t alen, size_t b, size_t blen)
{
	if (a > b) {
		size_t t = a, tlen = alen;
		a = b, alen = blen;
		b = t, blen = tlen;
	}
	if (alen > b - a || b > size || blen > size - b)
		return;
	/* A M B becomes B M A by three reversals of the whole and its parts. */
	size_t mlen = b - a - alen;
	uint8_t *p = data + a;
	reverse(p, alen + mlen + blen);
	reverse(p, blen);
	reverse(p + blen, mlen);
	reverse(p + blen + mlen, alen);
}
