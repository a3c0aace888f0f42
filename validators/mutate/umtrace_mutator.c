/* UMTracer mutator: the format's tables hold i64 row counts, row sizes and
 * absolute file pointers (table headers: HeaderVer, RecordVer, RowCount,
 * RowSize, TableFP; exec.offsets: an increasing i64 index), little-endian.
 * Byte flips rarely produce a pointer that lands exactly at the end of a
 * table, one row short of it or on another record: this mutator finds the
 * 64-bit words that look like pointers or counts and gives them those values.
 * It works on any packing of a trace directory into one input, since it only
 * assumes the words are 8-byte aligned relative to some phase. */
#include "mutator.h"

enum { WORD = 8, MAX_WORDS = 2048, TABLE_HEADER = 32 };

struct umt_view {
	struct tlm_buf b;
	size_t phase;
	size_t ptr[MAX_WORDS];      /* offsets of words whose value is within the input */
	size_t nptr;
};

static uint64_t word_at(const struct umt_view *v, size_t off)
{
	return tlm_get(v->b.data + off, WORD, false);
}

static void put_word(struct umt_view *v, size_t off, uint64_t value)
{
	tlm_put(v->b.data + off, WORD, false, value);
}

static void umt_scan(struct umt_view *v)
{
	v->nptr = 0;
	for (size_t off = v->phase; off + WORD <= v->b.size && v->nptr < MAX_WORDS; off += WORD) {
		uint64_t w = word_at(v, off);
		if (w > 0 && w <= v->b.size)
			v->ptr[v->nptr++] = off;
	}
}

/* A value a reader must bound-check: the end, one past it, one row short,
 * another pointer of the same input (aliasing), or a sign/overflow edge. */
static uint64_t pointer_value(struct umt_view *v, uint64_t old)
{
	switch (tlm_rng_below(&v->b.rng, 7)) {
	case 0: return v->b.size;
	case 1: return (uint64_t)v->b.size + 1;
	case 2: return old - WORD;
	case 3: return old + 16;
	case 4: return v->nptr ? word_at(v, v->ptr[tlm_rng_below(&v->b.rng, v->nptr)]) : 0;
	case 5: return (uint64_t)-1;
	default: return tlm_interesting(&v->b.rng, old);
	}
}

/* The common table header at the start of a fixed-size table. */
static void mutate_table_header(struct umt_view *v, size_t base)
{
	if (base + TABLE_HEADER > v->b.size)
		return;
	uint8_t *p = v->b.data + base;
	uint64_t rows = tlm_get(p + 8, 8, false), row_size = tlm_get(p + 16, 8, false);
	switch (tlm_rng_below(&v->b.rng, 5)) {
	case 0: tlm_put(p, 4, false, tlm_rng_below(&v->b.rng, 3)); break;       /* HeaderVer */
	case 1: tlm_put(p + 4, 4, false, tlm_rng_below(&v->b.rng, 4)); break;   /* RecordVer */
	case 2: /* RowCount so that RowCount * RowSize overflows or overruns */
		tlm_put(p + 8, 8, false, row_size ? ((uint64_t)-1 / row_size) + tlm_rng_below(&v->b.rng, 3)
						  : tlm_interesting(&v->b.rng, rows));
		break;
	case 3: tlm_put(p + 16, 8, false, tlm_interesting(&v->b.rng, row_size)); break;
	default: tlm_put(p + 24, 8, false, pointer_value(v, tlm_get(p + 24, 8, false))); break;
	}
}

/* Breaks the monotony of an offset index: two entries swapped or equal. */
static bool disorder_index(struct umt_view *v)
{
	for (size_t tries = 0; tries < 8 && v->nptr > 1; tries++) {
		size_t i = tlm_rng_below(&v->b.rng, v->nptr - 1);
		size_t a = v->ptr[i], b = v->ptr[i + 1];
		if (b != a + WORD)
			continue;
		uint64_t wa = word_at(v, a), wb = word_at(v, b);
		if (wa >= wb)
			continue;
		if (tlm_rng_below(&v->b.rng, 2)) {
			put_word(v, a, wb);
			put_word(v, b, wa);
		} else {
			put_word(v, b, wa);
		}
		return true;
	}
	return false;
}

size_t tlm_umtrace_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes)
{
	static struct umt_view v;
	size = tlm_buf_open(&v.b, data, size, max_size, seed);
	v.phase = (size_t)tlm_rng_below(&v.b.rng, 4) == 0 ? (size_t)tlm_rng_below(&v.b.rng, WORD) : 0;
	if (size < WORD)
		return bytes ? tlm_buf_bytes(&v.b, bytes) : size;
	umt_scan(&v);
	switch (tlm_rng_below(&v.b.rng, bytes ? 6 : 5)) {
	case 0: case 1: /* a pointer-like word */
		if (v.nptr) {
			size_t off = v.ptr[tlm_rng_below(&v.b.rng, v.nptr)];
			put_word(&v, off, pointer_value(&v, word_at(&v, off)));
			return v.b.size;
		}
		break;
	case 2: /* a table header: at the start, or where a pointer points */
		if (v.nptr && tlm_rng_below(&v.b.rng, 2)) {
			uint64_t target = word_at(&v, v.ptr[tlm_rng_below(&v.b.rng, v.nptr)]);
			if (target + TABLE_HEADER <= v.b.size) {
				mutate_table_header(&v, (size_t)target);
				return v.b.size;
			}
		}
		mutate_table_header(&v, 0);
		return v.b.size;
	case 3:
		if (disorder_index(&v))
			return v.b.size;
		break;
	case 4: { /* grow or cut the input by whole words: pointers past the end, short tables */
		size_t at = v.phase + WORD * (size_t)tlm_rng_below(&v.b.rng, (v.b.size - v.phase) / WORD + 1);
		if (tlm_rng_below(&v.b.rng, 2) && at + WORD <= v.b.size)
			tlm_erase(data, &v.b.size, at, WORD);
		else if (at <= v.b.size && tlm_insert(data, &v.b.size, max_size, at, WORD))
			put_word(&v, at, pointer_value(&v, 0));
		return v.b.size;
	}
	default:
		return tlm_buf_bytes(&v.b, bytes);
	}
	/* Nothing pointer-like: any aligned word gets an edge value. */
	size_t off = v.phase + WORD * (size_t)tlm_rng_below(&v.b.rng, (v.b.size - v.phase) / WORD);
	if (off + WORD <= v.b.size)
		put_word(&v, off, pointer_value(&v, word_at(&v, off)));
	return v.b.size;
}
