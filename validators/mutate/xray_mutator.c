/* XRay mutator: edits whole records and their fields so that mutated traces
 * keep their framing (FDR: 16-byte metadata, 8-byte function records, event
 * payloads; basic mode: 32-byte records) and reach the grammar, stack and
 * TSC checks instead of stopping at the header. Layouts: specs/xray.md and
 * FDR versions 1-5 as compiler-rt writes them. */
#include "mutator.h"
#include "../xray/xray_layout.h"

#include <string.h>

enum { HEADER = 32, META = 16, FUNC = 8, BASIC = 32, MAX_RECORDS = 1024 };
enum { K_NEW_BUFFER, K_END_OF_BUFFER, K_NEW_CPU, K_TSC_WRAP, K_WALLCLOCK, K_CUSTOM_EVENT,
	K_CALL_ARGUMENT, K_BUFFER_EXTENTS, K_TYPED_EVENT, K_PID, K_KINDS };

struct xray_span {
	size_t off, len;
	int kind;       /* metadata kind, or -1 for a function / basic record */
};

struct xray_view {
	struct tlm_buf b;
	bool big, basic;
	unsigned version;
	struct xray_span rec[MAX_RECORDS];
	size_t count;
};

static bool is_meta(const struct xray_view *v, uint8_t b0)
{
	return xray_first_is_metadata(b0, v->big);
}

static int meta_kind(const struct xray_view *v, uint8_t b0)
{
	return (int)xray_first_kind(b0, v->big);
}

static uint8_t meta_byte(const struct xray_view *v, int kind)
{
	return xray_metadata_first((unsigned)kind, v->big);
}

/* Splits the body into records; an event's payload belongs to its record. */
static void xray_scan(struct xray_view *v)
{
	v->count = 0;
	size_t off = HEADER;
	while (off < v->b.size && v->count < MAX_RECORDS) {
		size_t left = v->b.size - off, len;
		int kind = -1;
		if (v->basic) {
			len = BASIC;
		} else if (is_meta(v, v->b.data[off])) {
			kind = meta_kind(v, v->b.data[off]);
			len = META;
			if ((kind == K_CUSTOM_EVENT || kind == K_TYPED_EVENT) && left >= META) {
				int64_t n = (int32_t)tlm_get(v->b.data + off + 1, 4, v->big);
				if (n > 0 && (uint64_t)n <= left - META)
					len += (size_t)n;
			}
		} else {
			len = FUNC;
		}
		if (len > left)
			len = left;
		v->rec[v->count++] = (struct xray_span){ off, len, kind };
		off += len;
	}
}

static size_t boundary(struct xray_view *v)
{
	size_t i = tlm_rng_below(&v->b.rng, v->count + 1);
	return i < v->count ? v->rec[i].off : v->b.size;
}

/* BufferExtents counts the bytes up to the next extents record: recompute
 * them so an edit inside a buffer does not end the parse at its framing. */
static void fix_extents(struct xray_view *v)
{
	xray_scan(v);
	for (size_t i = 0; i < v->count; i++) {
		if (v->rec[i].kind != K_BUFFER_EXTENTS || v->rec[i].len < META)
			continue;
		size_t end = v->b.size;
		for (size_t j = i + 1; j < v->count; j++)
			if (v->rec[j].kind == K_BUFFER_EXTENTS) {
				end = v->rec[j].off;
				break;
			}
		tlm_put(v->b.data + v->rec[i].off + 1, 8, v->big, end - v->rec[i].off - META);
	}
}

static uint32_t some_function_id(struct xray_view *v)
{
	/* Reuse an id of the trace half the time, so entries and exits pair up. */
	for (size_t tries = 0; tries < 4 && v->count; tries++) {
		struct xray_span *s = &v->rec[tlm_rng_below(&v->b.rng, v->count)];
		if (s->kind == -1 && s->len >= FUNC && !v->basic) {
			uint32_t w = (uint32_t)tlm_get(v->b.data + s->off, 4, v->big);
			return xray_word_function_id(w, v->big);
		}
	}
	return (uint32_t)tlm_rng_below(&v->b.rng, 16) + 1;
}

static void put_function(struct xray_view *v, uint8_t *p, unsigned action, uint32_t fid, uint32_t delta)
{
	uint32_t w = xray_function_word(action, fid & XRAY_FUNCTION_ID_MAX, v->big);
	tlm_put(p, 4, v->big, w);
	tlm_put(p + 4, 4, v->big, delta);
}

/* Fills a 16-byte metadata record of kind with plausible field values. */
static void put_metadata(struct xray_view *v, uint8_t *p, int kind)
{
	memset(p, 0, META);
	p[0] = meta_byte(v, kind);
	uint64_t r = tlm_rng_next(&v->b.rng);
	switch (kind) {
	case K_NEW_BUFFER: case K_PID:
		tlm_put(p + 1, 4, v->big, r % 65536); break;
	case K_NEW_CPU:
		tlm_put(p + 1, 2, v->big, r % 8);
		tlm_put(p + 3, 8, v->big, r >> 8); break;
	case K_TSC_WRAP: case K_CALL_ARGUMENT:
		tlm_put(p + 1, 8, v->big, r); break;
	case K_WALLCLOCK:
		tlm_put(p + 1, 8, v->big, r % 100000);
		tlm_put(p + 9, 4, v->big, r % 1000000); break;
	case K_CUSTOM_EVENT: case K_TYPED_EVENT:
		tlm_put(p + 1, 4, v->big, 0);
		tlm_put(p + 5, 4, v->big, r % 1000); break;
	default:
		break;
	}
}

static bool insert_record(struct xray_view *v)
{
	size_t at = boundary(v);
	if (v->basic) {
		if (!tlm_insert(v->b.data, &v->b.size, v->b.max, at, BASIC))
			return false;
		uint8_t *p = v->b.data + at;
		memset(p, 0, BASIC);
		unsigned type = tlm_rng_below(&v->b.rng, 4) == 0;
		tlm_put(p, 2, v->big, type);
		if (type == 0) {
			p[3] = (uint8_t)tlm_rng_below(&v->b.rng, 4);
			tlm_put(p + 4, 4, v->big, tlm_rng_below(&v->b.rng, 16) + 1);
			tlm_put(p + 8, 8, v->big, tlm_rng_next(&v->b.rng) >> 20);
			tlm_put(p + 16, 4, v->big, 1);
		} else {
			tlm_put(p + 4, 4, v->big, tlm_rng_below(&v->b.rng, 16) + 1);
			tlm_put(p + 8, 4, v->big, 1);
			tlm_put(p + 16, 8, v->big, tlm_rng_next(&v->b.rng));
		}
		return true;
	}
	if (tlm_rng_below(&v->b.rng, 2)) {
		uint32_t fid = some_function_id(v);
		if (!tlm_insert(v->b.data, &v->b.size, v->b.max, at, FUNC))
			return false;
		put_function(v, v->b.data + at, (unsigned)tlm_rng_below(&v->b.rng, 8), fid,
			     (uint32_t)tlm_rng_below(&v->b.rng, 5000));
		return true;
	}
	/* Mostly valid kinds; now and then one past the table. */
	int kind = tlm_rng_below(&v->b.rng, 16) ? (int)tlm_rng_below(&v->b.rng, K_KINDS)
					      : (int)tlm_rng_below(&v->b.rng, 128);
	if (!tlm_insert(v->b.data, &v->b.size, v->b.max, at, META))
		return false;
	put_metadata(v, v->b.data + at, kind);
	return true;
}

/* One field of one record gets a value worth trying. */
static bool mutate_field(struct xray_view *v)
{
	if (!v->count)
		return false;
	struct xray_span *s = &v->rec[tlm_rng_below(&v->b.rng, v->count)];
	uint8_t *p = v->b.data + s->off;
	if (v->basic) {
		if (s->len < BASIC)
			return false;
		static const unsigned pos[] = { 0, 2, 3, 4, 8, 16, 20 }, width[] = { 2, 1, 1, 4, 8, 4, 4 };
		unsigned f = (unsigned)tlm_rng_below(&v->b.rng, 7);
		uint64_t old = tlm_get(p + pos[f], width[f], v->big);
		uint64_t nv = f <= 2 ? tlm_rng_below(&v->b.rng, 6) : tlm_interesting(&v->b.rng, old);
		tlm_put(p + pos[f], width[f], v->big, nv);
		return true;
	}
	if (s->kind == -1) {
		if (s->len < FUNC)
			return false;
		uint32_t w = (uint32_t)tlm_get(p, 4, v->big);
		unsigned action = xray_word_action(w, v->big);
		uint32_t fid = xray_word_function_id(w, v->big);
		uint32_t delta = (uint32_t)tlm_get(p + 4, 4, v->big);
		switch (tlm_rng_below(&v->b.rng, 3)) {
		case 0: action = (unsigned)tlm_rng_below(&v->b.rng, 8); break;
		case 1: fid = tlm_rng_below(&v->b.rng, 2) ? some_function_id(v)
							: (uint32_t)tlm_interesting(&v->b.rng, fid); break;
		default: delta = (uint32_t)tlm_interesting(&v->b.rng, delta); break;
		}
		put_function(v, p, action, fid, delta);
		return true;
	}
	if (s->len < META)
		return false;
	switch (tlm_rng_below(&v->b.rng, 4)) {
	case 0: /* change the kind, keep the payload */
		p[0] = meta_byte(v, (int)tlm_rng_below(&v->b.rng, K_KINDS + 2));
		return true;
	case 1: { /* a u64 at +1: extents, TSC, argument, seconds */
		uint64_t old = tlm_get(p + 1, 8, v->big);
		tlm_put(p + 1, 8, v->big, tlm_interesting(&v->b.rng, old));
		return true;
	}
	case 2: { /* an i32 at +1: tid, pid, event size */
		uint64_t old = tlm_get(p + 1, 4, v->big);
		tlm_put(p + 1, 4, v->big, tlm_interesting(&v->b.rng, old));
		return true;
	}
	default: { /* the u16 at +1 (cpu) or the i32 at +5 / +9 */
		static const unsigned pos[] = { 1, 5, 9, 13 }, width[] = { 2, 4, 4, 2 };
		unsigned f = (unsigned)tlm_rng_below(&v->b.rng, 4);
		uint64_t old = tlm_get(p + pos[f], width[f], v->big);
		tlm_put(p + pos[f], width[f], v->big, tlm_interesting(&v->b.rng, old));
		return true;
	}
	}
}

/* An event grows a payload, and its size field says so. */
static bool grow_event(struct xray_view *v)
{
	if (v->basic)
		return false;
	size_t at = boundary(v);
	size_t n = (size_t)tlm_rng_below(&v->b.rng, 48) + 1;
	if (!tlm_insert(v->b.data, &v->b.size, v->b.max, at, META + n))
		return false;
	put_metadata(v, v->b.data + at, tlm_rng_below(&v->b.rng, 2) ? K_CUSTOM_EVENT : K_TYPED_EVENT);
	tlm_put(v->b.data + at + 1, 4, v->big, n);
	for (size_t i = 0; i < n; i++)
		v->b.data[at + META + i] = (uint8_t)tlm_rng_next(&v->b.rng);
	return true;
}

static void mutate_header(struct xray_view *v)
{
	uint8_t *p = v->b.data;
	switch (tlm_rng_below(&v->b.rng, 5)) {
	case 0: tlm_put(p, 2, v->big, tlm_rng_below(&v->b.rng, 7)); break;
	case 1: tlm_put(p + 2, 2, v->big, tlm_rng_below(&v->b.rng, 3)); break;
	case 2: tlm_put(p + 4, 4, v->big, tlm_rng_below(&v->b.rng, 8)); break;
	case 3: tlm_put(p + 8, 8, v->big, tlm_interesting(&v->b.rng, tlm_get(p + 8, 8, v->big))); break;
	default: tlm_put(p + 16, 8, v->big, tlm_interesting(&v->b.rng, tlm_get(p + 16, 8, v->big))); break;
	}
}

/* Too short for a header: start from a small valid FDR v5 buffer. */
static size_t xray_synthesize(struct xray_view *v)
{
	static const int kinds[] = { K_BUFFER_EXTENTS, K_NEW_BUFFER, K_WALLCLOCK, K_PID, K_NEW_CPU };
	size_t need = HEADER + 5 * META + 2 * FUNC;
	if (v->b.max < need)
		return v->b.size;
	memset(v->b.data, 0, HEADER);
	v->big = false;
	tlm_put(v->b.data, 2, false, 5);
	tlm_put(v->b.data + 2, 2, false, 1);
	tlm_put(v->b.data + 4, 4, false, 3);
	tlm_put(v->b.data + 8, 8, false, 1000000000);
	tlm_put(v->b.data + 16, 8, false, 4096);
	size_t off = HEADER;
	for (size_t i = 0; i < 5; i++, off += META)
		put_metadata(v, v->b.data + off, kinds[i]);
	put_function(v, v->b.data + off, 0, 1, 10);
	put_function(v, v->b.data + off + FUNC, 1, 1, 20);
	v->b.size = need;
	fix_extents(v);
	return v->b.size;
}

size_t tlm_xray_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes)
{
	static struct xray_view v; /* large: keep it off the stack */
	size = tlm_buf_open(&v.b, data, size, max_size, seed);
	if (size < HEADER)
		return xray_synthesize(&v);
	unsigned le = (unsigned)tlm_get(data, 2, false), be = (unsigned)tlm_get(data, 2, true);
	v.big = !(le >= 1 && le <= 5) && be >= 1 && be <= 5;
	v.version = v.big ? be : le;
	v.basic = tlm_get(data + 2, 2, v.big) == 0;
	xray_scan(&v);

	bool reframe = false, done = false;
	unsigned choice = (unsigned)tlm_rng_below(&v.b.rng, bytes ? 10 : 9);
	size_t i = tlm_rng_below(&v.b.rng, v.count), j = tlm_rng_below(&v.b.rng, v.count);
	switch (choice) {
	case 0:
		mutate_header(&v);
		done = true;
		break;
	case 1: /* drop a record */
		if (v.count) {
			tlm_erase(data, &v.b.size, v.rec[i].off, v.rec[i].len);
			done = reframe = true;
		}
		break;
	case 2: /* repeat a record somewhere */
		if (v.count)
			done = reframe = tlm_duplicate(data, &v.b.size, max_size, v.rec[i].off, v.rec[i].len, boundary(&v));
		break;
	case 3: /* reorder two records */
		if (v.count > 1 && i != j) {
			tlm_swap(data, v.b.size, v.rec[i].off, v.rec[i].len, v.rec[j].off, v.rec[j].len);
			done = reframe = true;
		}
		break;
	case 4: case 5:
		done = reframe = insert_record(&v);
		break;
	case 6: case 7:
		done = mutate_field(&v);
		break;
	case 8:
		done = reframe = grow_event(&v);
		break;
	default:
		return tlm_buf_bytes(&v.b, bytes);
	}
	if (!done)
		done = reframe = insert_record(&v);
	/* Keep the buffers framed three times in four; the fourth tests the framing. */
	if (reframe && !v.basic && tlm_rng_below(&v.b.rng, 4))
		fix_extents(&v);
	return v.b.size;
}
