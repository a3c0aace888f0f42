/* Salvage of XRay traces (specs/xray.md; man page, REPAIR).
 *
 * FDR versions 2-5: buffers are framed by their BufferExtents records.
 * A buffer the validator accepts is copied as it is. Otherwise its records
 * are framed, the buffer (rebuilt with extents that count what is kept) is
 * validated, and at the first error the record there is dropped and the
 * walk resynchronises on the next offset whose records frame plausibly
 * (resync_plausible); a buffer whose preamble is damaged is dropped whole.
 * Bytes between buffers are skipped up to the next plausible buffer start
 * (extents within buffer_size, then NewBuffer, then WallClockTime).
 * Version 1: the same within each buffer_size stride, the buffer closed by
 * an EndOfBuffer record and padded. Basic mode: 32-byte records, each
 * record an error is reported on dropped, again until none is left.
 * Open call stacks are not closed: a buffer ends with functions still
 * entered whenever a thread's trace spans buffers, and readers accept it. */
#include "repair.h"
#include "validators/xray/xray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 8           /* records dropped one by one before a buffer is cut at its error */
#define RESYNC_RECORDS 8   /* records that must frame plausibly after a resynchronisation */

struct seg {
	uint64_t off, len;
};

struct xr {
	struct tl_repair_job *job;
	struct xray_header hdr;
	const uint8_t *d;
	uint64_t n;
	unsigned preamble;      /* records of a buffer's preamble */
	uint8_t *scratch;
	size_t scratch_cap;
	struct seg *segs;
	size_t nseg, seg_cap;
	uint64_t buffer_index;
	uint64_t sound_until;   /* the buffers ending before it (strictly) validate as they are */
	unsigned reprobes;      /* validations of the rest of the file so far */
	size_t run_unit;        /* units while the last one counts whole buffers in a row */
	uint64_t run_first;     /* the first of those buffers */
};

/* Validations of the rest of the file after a damaged buffer; beyond them,
 * each buffer is validated alone (the cost stays linear either way). */
#define REPROBES 8

static uint8_t meta_byte(const struct xr *x, unsigned kind)
{
	return (uint8_t)(x->hdr.big ? 0x80u | kind : (kind << 1) | 1u);
}

static bool is_meta(const struct xr *x, uint64_t off, unsigned kind)
{
	return off < x->n && x->d[off] == meta_byte(x, kind);
}

static uint64_t word_at(const struct xr *x, uint64_t off, size_t pos, size_t width)
{
	uint64_t v = 0;
	if (off + XRAY_METADATA_SIZE <= x->n)
		(void)tl_read_uint_at(x->d + off, XRAY_METADATA_SIZE, pos, width, x->hdr.big, &v);
	return v;
}

static void put_word(const struct xr *x, uint8_t *rec, unsigned kind, uint64_t word)
{
	memset(rec, 0, XRAY_METADATA_SIZE);
	rec[0] = meta_byte(x, kind);
	for (size_t i = 0; i < 8; i++)
		rec[1 + (x->hdr.big ? 7 - i : i)] = (uint8_t)(word >> (8 * i));
}

/* Decodes the record at off if it lies wholly before limit. */
static bool record_at(const struct xr *x, uint64_t off, uint64_t limit, struct xray_record *rec)
{
	struct tl_cursor c;
	if (off >= limit || !tl_cursor_at(&c, x->d, (size_t)limit, off, limit - off))
		return false;
	rec->index = 0;
	return tl_xray_decode(&c, &x->hdr, rec) == XRAY_DECODED && rec->size <= limit - off;
}

/* A record that may stand in a buffer's body, judged by itself. */
static bool body_plausible(const struct xr *x, const struct xray_record *r)
{
	if (!r->metadata)
		return r->action <= XRAY_ENTRY_ARGS && r->function_id != 0;
	switch (r->kind) {
	case XRAY_NEW_CPU:
	case XRAY_TSC_WRAP:
	case XRAY_CALL_ARGUMENT:
		return true;
	case XRAY_CUSTOM_EVENT:
		return r->value > 0;
	case XRAY_TYPED_EVENT:
		return x->hdr.version >= 2 && r->value > 0;
	default:
		return false;
	}
}

/* The resynchronisation test at off: RESYNC_RECORDS records (or all up to
 * end, landing on it exactly) each plausible for a body, the first not a
 * CallArgument (which needs the entry it belongs to). */
static bool resync_plausible(const struct xr *x, uint64_t off, uint64_t end)
{
	struct xray_record r;
	for (unsigned i = 0; i < RESYNC_RECORDS && off < end; i++) {
		if (!record_at(x, off, end, &r) || !body_plausible(x, &r) ||
		    (i == 0 && r.metadata && r.kind == XRAY_CALL_ARGUMENT))
			return false;
		off += r.size;
	}
	return true;
}

/* The records from off while they fit before limit (and, with
 * stop_at_extents, up to a BufferExtents: the next buffer); returns where
 * framing stopped. */
static uint64_t frame(struct xr *x, uint64_t off, uint64_t limit, bool stop_at_extents)
{
	struct xray_record r;
	while (record_at(x, off, limit, &r)) {
		if (stop_at_extents && r.metadata && r.kind == XRAY_BUFFER_EXTENTS)
			break;
		if (x->nseg == x->seg_cap) {
			size_t cap = x->seg_cap ? x->seg_cap * 2 : 256;
			struct seg *bigger = realloc(x->segs, cap * sizeof *bigger);
			if (!bigger) {
				x->job->report->out_of_memory = true;
				break;
			}
			x->segs = bigger;
			x->seg_cap = cap;
		}
		x->segs[x->nseg++] = (struct seg){ off, r.size };
		off += r.size;
	}
	return off;
}

static bool scratch_reserve(struct xr *x, size_t need)
{
	if (need <= x->scratch_cap)
		return true;
	uint8_t *bigger = realloc(x->scratch, need);
	if (!bigger) {
		x->job->report->out_of_memory = true;
		return false;
	}
	x->scratch = bigger;
	x->scratch_cap = need;
	return true;
}

static uint64_t segs_bytes(const struct xr *x)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < x->nseg; i++)
		sum += x->segs[i].len;
	return sum;
}

/* The buffer made of the kept records: header, then (versions 2-5) extents
 * and records, or (version 1) records, EndOfBuffer and padding to
 * buffer_size. Returns the bytes of the file in scratch (0: no memory). */
static size_t build(struct xr *x)
{
	uint64_t body = segs_bytes(x);
	size_t total = XRAY_HEADER_SIZE + (size_t)body + XRAY_METADATA_SIZE;
	if (x->hdr.version == 1)
		total = XRAY_HEADER_SIZE + (size_t)x->hdr.buffer_size;
	if (!scratch_reserve(x, total))
		return 0;
	memcpy(x->scratch, x->d, XRAY_HEADER_SIZE);
	uint8_t *p = x->scratch + XRAY_HEADER_SIZE;
	if (x->hdr.version >= 2) {
		put_word(x, p, XRAY_BUFFER_EXTENTS, body);
		p += XRAY_METADATA_SIZE;
	}
	for (size_t i = 0; i < x->nseg; i++) {
		memcpy(p, x->d + x->segs[i].off, (size_t)x->segs[i].len);
		p += x->segs[i].len;
	}
	if (x->hdr.version == 1) {
		put_word(x, p, XRAY_END_OF_BUFFER, 0);
		p += XRAY_METADATA_SIZE;
		memset(p, 0, (size_t)(x->scratch + total - p));
	}
	return total;
}

/* The kept record holding scratch offset e, or nseg. */
static size_t seg_holding(const struct xr *x, uint64_t e)
{
	uint64_t at = XRAY_HEADER_SIZE + (x->hdr.version >= 2 ? XRAY_METADATA_SIZE : 0);
	for (size_t i = 0; i < x->nseg; i++) {
		if (e < at + x->segs[i].len)
			return e < at ? x->nseg : i;
		at += x->segs[i].len;
	}
	return x->nseg;
}

/* Buffers counted one by one in the report; after them, whole buffers in a
 * row share one count, so the report does not grow with the file. */
#define UNITS_APART 1024

static void unit(struct xr *x, int64_t tid, uint64_t kept, uint64_t dropped)
{
	struct tl_repair_report *r = x->job->report;
	if (dropped == 0 && r->unit_count >= UNITS_APART) {
		if (x->run_unit == r->unit_count && r->units) {
			struct tl_repair_unit *u = &r->units[r->unit_count - 1];
			u->kept += kept;
			r->kept += kept;
			snprintf(u->name, sizeof u->name, "buffers %llu-%llu (whole)",
				 (unsigned long long)x->run_first, (unsigned long long)x->buffer_index);
			return;
		}
		char name[96];
		snprintf(name, sizeof name, "buffer %llu (whole)", (unsigned long long)x->buffer_index);
		tl_repair_unit(x->job, name, kept, 0);
		x->run_unit = r->unit_count;
		x->run_first = x->buffer_index;
		return;
	}
	char name[96];
	if (tid >= 0)
		snprintf(name, sizeof name, "buffer %llu (thread %lld)",
			 (unsigned long long)x->buffer_index, (long long)tid);
	else
		snprintf(name, sizeof name, "buffer %llu", (unsigned long long)x->buffer_index);
	tl_repair_unit(x->job, name, kept, dropped);
}

static int64_t buffer_tid(const struct xr *x)
{
	if (x->nseg && is_meta(x, x->segs[0].off, XRAY_NEW_BUFFER))
		return (int64_t)(int32_t)word_at(x, x->segs[0].off, 1, 4);
	return -1;
}

static void drop_buffer(struct xr *x, uint64_t start, uint64_t end, uint64_t records,
			const char *rule, const char *why)
{
	tl_repair_change(x->job, TL_REPAIR_DROPPED, start, end - start, rule,
			 "buffer %llu dropped: %s", (unsigned long long)x->buffer_index, why);
	unit(x, buffer_tid(x), 0, records);
}

/* Makes the records in segs (framed from the buffer at [start, end)) into
 * a valid buffer, dropping what the validator objects to, and writes it.
 * records: how many the buffer was framed into; dropped: already left out. */
static void salvage_buffer(struct xr *x, uint64_t start, uint64_t end, uint64_t dropped,
			   const char *rule)
{
	struct tl_repair_probe probe = { 0 };
	for (unsigned round = 0; round <= ROUNDS; round++) {
		if (x->nseg < x->preamble) {
			drop_buffer(x, start, end, x->nseg + dropped, rule ? rule : "XRAY-FDR-PREAMBLE",
				    "its preamble is cut or damaged");
			return;
		}
		size_t size = build(x);
		if (!size)
			return;
		if (tl_repair_probe_run(x->job, x->scratch, size, &probe)) {
			if (x->hdr.version >= 2 && (end - start != size - XRAY_HEADER_SIZE ||
						    word_at(x, start, 1, 8) != size - XRAY_HEADER_SIZE - 16))
				tl_repair_change(x->job, TL_REPAIR_REWRITTEN, start, XRAY_METADATA_SIZE,
						 rule ? rule : "XRAY-FDR-EXTENTS-EOF",
						 "BufferExtents of buffer %llu: %llu bytes, as kept",
						 (unsigned long long)x->buffer_index,
						 (unsigned long long)(size - XRAY_HEADER_SIZE - 16));
			else if (x->hdr.version == 1)
				tl_repair_change(x->job, TL_REPAIR_ADDED, end, 0,
						 rule ? rule : "XRAY-FDR-V1-END-OF-BUFFER",
						 "buffer %llu closed by an EndOfBuffer record and padded to buffer_size",
						 (unsigned long long)x->buffer_index);
			tl_repair_emit(x->job, x->scratch + XRAY_HEADER_SIZE, size - XRAY_HEADER_SIZE);
			unit(x, buffer_tid(x), x->nseg, dropped);
			return;
		}
		size_t i = seg_holding(x, probe.first_error);
		if (!probe.ran || i < x->preamble || i >= x->nseg) {
			drop_buffer(x, start, end, x->nseg + dropped, probe.first_rule ? probe.first_rule : rule,
				    "its preamble or framing is damaged");
			return;
		}
		rule = probe.first_rule;
		uint64_t from = x->segs[i].off, limit = end;
		if (x->hdr.version == 1)
			limit = x->segs[x->nseg - 1].off + x->segs[x->nseg - 1].len;
		uint64_t q = from + 1;
		if (round < ROUNDS)
			while (q < limit && !resync_plausible(x, q, limit))
				q++;
		else
			q = limit;
		size_t before = x->nseg;
		x->nseg = i;
		uint64_t stop = q < limit ? frame(x, q, limit, false) : limit;
		tl_repair_change(x->job, TL_REPAIR_DROPPED, from, q - from, rule,
				 q < limit ? "buffer %llu: the record here does not validate; resynchronised %llu bytes on"
					   : "buffer %llu: the records from here on do not validate (%llu bytes)",
				 (unsigned long long)x->buffer_index, (unsigned long long)(q - from));
		if (stop < limit)
			tl_repair_change(x->job, TL_REPAIR_DROPPED, stop, limit - stop, rule,
					 "buffer %llu: a record crosses the buffer's end",
					 (unsigned long long)x->buffer_index);
		/* records lost: those framed from the error on that the new framing lacks, at least one */
		uint64_t lost = before > x->nseg ? before - x->nseg : 0;
		dropped += lost ? lost : 1;
	}
	tl_repair_probe_free(&probe);
}

/* The next offset from off where a buffer plausibly starts: extents within
 * buffer_size followed by NewBuffer and WallClockTime; n if none. */
static uint64_t next_buffer(const struct xr *x, uint64_t off)
{
	for (; off + 3 * XRAY_METADATA_SIZE <= x->n; off++) {
		if ((off & 0xfffff) == 0) /* a long damaged stretch: its pages go back behind the scan */
			tl_repair_release(x->job, off);
		if (!is_meta(x, off, XRAY_BUFFER_EXTENTS) || !is_meta(x, off + 16, XRAY_NEW_BUFFER) ||
		    !is_meta(x, off + 32, XRAY_WALLCLOCK))
			continue;
		uint64_t extents = word_at(x, off, 1, 8);
		if (extents >= 2 * XRAY_METADATA_SIZE && extents <= x->hdr.buffer_size)
			return off;
	}
	return x->n;
}

/* Records of a sound buffer from p to end (version 1: up to EndOfBuffer),
 * counted by their first byte alone: the validator has framed them already. */
static uint64_t count_records(const struct xr *x, uint64_t p, uint64_t end)
{
	uint64_t count = 0;
	while (p < end) {
		uint8_t b = x->d[p];
		if (!xray_first_is_metadata(b, x->hdr.big)) {
			p += XRAY_FUNCTION_SIZE;
		} else {
			unsigned kind = xray_first_kind(b, x->hdr.big);
			if (kind == XRAY_END_OF_BUFFER)
				break;
			p += XRAY_METADATA_SIZE;
			if (kind == XRAY_CUSTOM_EVENT || kind == XRAY_TYPED_EVENT)
				p += (uint32_t)word_at(x, p - XRAY_METADATA_SIZE, 1, 4);
		}
		count += p <= end;
	}
	return count;
}

static void copy_buffer(struct xr *x, uint64_t start, uint64_t end)
{
	uint64_t first = start + (x->hdr.version >= 2 ? XRAY_METADATA_SIZE : 0);
	x->nseg = 0;
	int64_t tid = -1;
	if (is_meta(x, first, XRAY_NEW_BUFFER))
		tid = (int64_t)(int32_t)word_at(x, first, 1, 4);
	uint64_t records = count_records(x, first, end);
	tl_repair_emit_input(x->job, start, end - start);
	unit(x, tid, records, 0);
}

/* Is the buffer at [start, end) valid as it is? */
static bool buffer_sound(struct xr *x, uint64_t start, uint64_t end)
{
	if (end < x->sound_until)
		return true;
	if (start >= x->sound_until && x->reprobes < REPROBES) {
		/* past the damage: where does the rest of the file first fail? */
		struct tl_repair_piece rest[2] = { { x->d, XRAY_HEADER_SIZE },
						   { x->d + start, (size_t)(x->n - start) } };
		struct tl_repair_probe probe = { 0 };
		x->reprobes++;
		if (tl_repair_probe_pieces(x->job, rest, 2, &probe))
			x->sound_until = UINT64_MAX;
		else if (probe.ran && probe.first_error >= XRAY_HEADER_SIZE && probe.first_error != UINT64_MAX)
			x->sound_until = start + (probe.first_error - XRAY_HEADER_SIZE);
		if (end < x->sound_until)
			return true;
	}
	if (!scratch_reserve(x, XRAY_HEADER_SIZE + (size_t)(end - start)))
		return false;
	memcpy(x->scratch, x->d, XRAY_HEADER_SIZE);
	memcpy(x->scratch + XRAY_HEADER_SIZE, x->d + start, (size_t)(end - start));
	struct tl_repair_probe probe = { 0 };
	return tl_repair_probe_run(x->job, x->scratch, XRAY_HEADER_SIZE + (size_t)(end - start), &probe);
}

static void fdr_extents(struct xr *x)
{
	uint64_t off = XRAY_HEADER_SIZE, cap = x->hdr.buffer_size;
	for (; off < x->n && !x->job->failed && !x->job->report->out_of_memory; x->buffer_index++) {
		tl_repair_release(x->job, off);
		if (!is_meta(x, off, XRAY_BUFFER_EXTENTS) || x->n - off < XRAY_METADATA_SIZE) {
			uint64_t next = next_buffer(x, off + 1);
			tl_repair_change(x->job, TL_REPAIR_DROPPED, off, next - off, "XRAY-FDR-EXTENTS-MISSING",
					 "%llu bytes where a buffer should start (BufferExtents), up to %s",
					 (unsigned long long)(next - off),
					 next < x->n ? "the next plausible buffer" : "the end of the file");
			off = next;
			x->buffer_index--; /* no buffer was read */
			continue;
		}
		uint64_t extents = word_at(x, off, 1, 8), end;
		const char *rule = NULL;
		x->nseg = 0;
		uint64_t body = off + XRAY_METADATA_SIZE;
		if (extents <= cap && extents <= x->n - body) {
			end = body + extents;
			if (buffer_sound(x, off, end)) {
				copy_buffer(x, off, end);
				off = end;
				continue;
			}
			uint64_t stop = frame(x, body, end, false);
			if (stop < end)
				tl_repair_change(x->job, TL_REPAIR_DROPPED, stop, end - stop,
						 "XRAY-FDR-RECORD-CROSSES-BUFFER",
						 "buffer %llu: a record crosses the buffer's end",
						 (unsigned long long)x->buffer_index);
		} else if (extents <= cap) {
			/* cut short: the whole records before the end of the file */
			rule = "XRAY-FDR-EXTENTS-EOF";
			end = x->n;
			uint64_t stop = frame(x, body, end, false);
			if (stop < end)
				tl_repair_change(x->job, TL_REPAIR_DROPPED, stop, end - stop, rule,
						 "buffer %llu: the file ends inside this record (cut)",
						 (unsigned long long)x->buffer_index);
		} else {
			/* extents damaged: the records up to the next buffer's extents */
			rule = "XRAY-FDR-EXTENTS-CAPACITY";
			uint64_t limit = cap < x->n - body ? body + cap : x->n;
			end = frame(x, body, limit, true);
		}
		salvage_buffer(x, off, end, 0, rule);
		off = end;
	}
}

/* Largest version-1 buffer rebuilt (padded to buffer_size) beyond the file's own size. */
#define V1_PAD_LIMIT (UINT64_C(16) << 20)

static void fdr_v1(struct xr *x)
{
	uint64_t bs = x->hdr.buffer_size;
	if (bs > x->n + V1_PAD_LIMIT) {
		tl_repair_change(x->job, TL_REPAIR_DROPPED, XRAY_HEADER_SIZE, x->n - XRAY_HEADER_SIZE,
				 "XRAY-FDR-V1-STRIDE", "buffer_size %llu is far beyond the file: no buffer can be rebuilt",
				 (unsigned long long)bs);
		return;
	}
	for (uint64_t off = XRAY_HEADER_SIZE; off < x->n && !x->job->failed &&
	     !x->job->report->out_of_memory; off += bs, x->buffer_index++) {
		uint64_t end = bs <= x->n - off ? off + bs : x->n;
		tl_repair_release(x->job, off);
		if (end - off == bs && buffer_sound(x, off, end)) {
			copy_buffer(x, off, end);
			continue;
		}
		x->nseg = 0;
		uint64_t stop = frame(x, off, end, false);
		for (size_t i = 0; i < x->nseg; i++)
			if (is_meta(x, x->segs[i].off, XRAY_END_OF_BUFFER)) {
				stop = x->segs[i].off;
				x->nseg = i;
				break;
			}
		/* room for the EndOfBuffer record */
		while (x->nseg && segs_bytes(x) + XRAY_METADATA_SIZE > bs)
			stop = x->segs[--x->nseg].off;
		const char *rule = end - off < bs ? "XRAY-FDR-V1-STRIDE" : NULL;
		if (stop < end && end - off < bs)
			tl_repair_change(x->job, TL_REPAIR_DROPPED, stop, end - stop, rule,
					 "buffer %llu: the file ends inside this record (cut)",
					 (unsigned long long)x->buffer_index);
		salvage_buffer(x, off, end, 0, rule);
	}
}

/* ---- basic mode ---- */

struct basic {
	uint64_t *drops;        /* indexes of dropped records, ascending */
	size_t count, cap;
};

static bool basic_dropped(const struct basic *b, uint64_t i)
{
	size_t lo = 0, hi = b->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->drops[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->count && b->drops[lo] == i;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The kept runs of records as pieces: header, runs. */
static struct tl_repair_piece *basic_pieces(const struct xr *x, const struct basic *b,
					    uint64_t records, size_t *count)
{
	struct tl_repair_piece *p = malloc((b->count + 2) * sizeof *p);
	if (!p)
		return NULL;
	size_t n = 0;
	p[n++] = (struct tl_repair_piece){ x->d, XRAY_HEADER_SIZE };
	uint64_t run = 0;
	for (size_t k = 0; k <= b->count; k++) {
		uint64_t stop = k < b->count ? b->drops[k] : records;
		if (stop > run)
			p[n++] = (struct tl_repair_piece){ x->d + XRAY_HEADER_SIZE + run * 32,
							   (size_t)((stop - run) * 32) };
		run = stop + 1;
	}
	*count = n;
	return p;
}

static void basic(struct xr *x)
{
	uint64_t records = (x->n - XRAY_HEADER_SIZE) / XRAY_BASIC_RECORD_SIZE;
	uint64_t tail = XRAY_HEADER_SIZE + records * XRAY_BASIC_RECORD_SIZE;
	if (tail < x->n)
		tl_repair_change(x->job, TL_REPAIR_DROPPED, tail, x->n - tail, "XRAY-BASIC-SIZE",
				 "a partial record at the end (cut)");
	struct basic b = { 0 };
	struct tl_repair_probe probe = { 0 };
	probe.collect_all = true;
	struct tl_repair_piece *pieces = NULL;
	size_t count = 0;
	for (unsigned round = 0; round <= ROUNDS + 1; round++) {
		free(pieces);
		pieces = basic_pieces(x, &b, records, &count);
		if (!pieces || tl_repair_probe_pieces(x->job, pieces, count, &probe) || !probe.ran)
			break;
		/* map error offsets of the candidate back to record indexes */
		size_t added = 0;
		for (size_t e = 0; e < probe.error_count && (round < ROUNDS || e == 0); e++) {
			uint64_t off = probe.error_offsets[e];
			if (off < XRAY_HEADER_SIZE)
				continue;
			/* the candidate's record there is the input's kept_index-th record not dropped */
			uint64_t i = (off - XRAY_HEADER_SIZE) / XRAY_BASIC_RECORD_SIZE;
			for (size_t k = 0; k < b.count && b.drops[k] <= i; k++)
				i++;
			if (i >= records || basic_dropped(&b, i))
				continue;
			if (b.count + added == b.cap) {
				size_t cap = b.cap ? b.cap * 2 : 64;
				uint64_t *bigger = realloc(b.drops, cap * sizeof *bigger);
				if (!bigger)
					break;
				b.drops = bigger;
				b.cap = cap;
			}
			b.drops[b.count + added++] = i;
			tl_repair_change(x->job, TL_REPAIR_DROPPED, XRAY_HEADER_SIZE + i * 32, 32,
					 probe.first_rule, "record %llu does not validate",
					 (unsigned long long)i);
		}
		if (!added)
			break;
		b.count += added;
		qsort(b.drops, b.count, sizeof *b.drops, by_u64);
		size_t w = 0;
		for (size_t k = 0; k < b.count; k++)
			if (!w || b.drops[w - 1] != b.drops[k])
				b.drops[w++] = b.drops[k];
		b.count = w;
	}
	if (pieces && probe.valid) {
		for (size_t i = 1; i < count; i++) /* the header is written already */
			tl_repair_emit(x->job, pieces[i].p, pieces[i].len);
		tl_repair_unit(x->job, "basic-mode records", records - b.count, b.count);
	} else {
		snprintf(x->job->report->reason, sizeof x->job->report->reason,
			 "no valid subset of the basic-mode records was found");
		x->buffer_index = UINT64_MAX; /* marks failure */
	}
	free(pieces);
	free(b.drops);
	tl_repair_probe_free(&probe);
}

enum tl_repair_outcome tl_repair_xray(struct tl_repair_job *job)
{
	struct tl_repair_report *rep = job->report;
	struct xr x = { .job = job, .d = job->data, .n = job->size };
	struct tl_cursor c;
	struct tl_repair_probe probe = { 0 };
	if (!tl_cursor_at(&c, x.d, (size_t)x.n, 0, XRAY_HEADER_SIZE) || !tl_xray_header_guess(c, &x.hdr) ||
	    !tl_repair_probe_run(job, x.d, XRAY_HEADER_SIZE, &probe)) {
		snprintf(rep->reason, sizeof rep->reason, "the file header is %s (%s)",
			 x.n < XRAY_HEADER_SIZE ? "cut short" : "damaged",
			 probe.first_rule ? probe.first_rule : "XRAY-HEADER-SIZE");
		return TL_REPAIR_NONE_LEFT;
	}
	if (job->base->endian != TL_ENDIAN_AUTO)
		x.hdr.big = job->base->endian == TL_ENDIAN_BIG;
	snprintf(rep->detail, sizeof rep->detail, "%s version %u, %s-endian",
		 x.hdr.type == XRAY_TYPE_FDR ? "FDR" : "basic mode", x.hdr.version,
		 x.hdr.big ? "big" : "little");
	x.preamble = x.hdr.version >= 3 ? 4 : 3;
	x.sound_until = job->first_error;
	tl_repair_emit(job, x.d, XRAY_HEADER_SIZE);
	if (x.hdr.type == XRAY_TYPE_BASIC)
		basic(&x);
	else if (x.hdr.version == 1)
		fdr_v1(&x);
	else
		fdr_extents(&x);
	free(x.scratch);
	free(x.segs);
	if (x.buffer_index == UINT64_MAX)
		return TL_REPAIR_NONE_LEFT;
	/* a header alone is valid, but no reader takes it and it holds nothing */
	if (rep->kept == 0) {
		snprintf(rep->reason, sizeof rep->reason, "no whole record could be kept (%llu dropped)",
			 (unsigned long long)rep->dropped);
		return TL_REPAIR_NONE_LEFT;
	}
	return TL_REPAIR_REPAIRED;
}

static uint64_t xray_records(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in,
			     struct tl_repair_job *copy);

uint64_t tl_repair_xray_records(const uint8_t *data, size_t size, uint64_t before)
{
	return xray_records(data, size, before, NULL, NULL);
}

static uint64_t xray_count(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in,
			   struct tl_repair_job *copy, uint64_t *copied);

uint64_t tl_repair_xray_copy(struct tl_repair_job *job)
{
	return xray_records(job->data, job->size, UINT64_MAX, job->in, job);
}

/* in (when not NULL) gets the pages counted handed back; copy (when not
 * NULL) gets each buffer written as it is counted, so each page is read once. */
static uint64_t xray_records(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in,
			     struct tl_repair_job *copy)
{
	uint64_t copied = 0, count = xray_count(data, size, before, in, copy, &copied);
	if (copy && copied < size)
		tl_repair_emit_input(copy, copied, size - copied);
	return count;
}

static uint64_t xray_count(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in,
			   struct tl_repair_job *copy, uint64_t *copied)
{
	struct xr x = { .d = data, .n = size };
	struct tl_cursor c;
	if (!tl_cursor_at(&c, data, size, 0, XRAY_HEADER_SIZE) || !tl_xray_header_guess(c, &x.hdr))
		return 0;
	uint64_t limit = before < size ? before : size, count = 0;
	struct xray_record r;
	if (x.hdr.type == XRAY_TYPE_BASIC)
		return limit < XRAY_HEADER_SIZE ? 0 : (limit - XRAY_HEADER_SIZE) / XRAY_BASIC_RECORD_SIZE;
	uint64_t off = XRAY_HEADER_SIZE;
	while (off < size) {
		uint64_t end, p = off;
		if (x.hdr.version == 1) {
			if (x.hdr.buffer_size == 0)
				break;
			end = x.hdr.buffer_size <= size - off ? off + x.hdr.buffer_size : size;
		} else {
			if (!is_meta(&x, off, XRAY_BUFFER_EXTENTS))
				break;
			uint64_t extents = word_at(&x, off, 1, 8);
			p = off + XRAY_METADATA_SIZE;
			end = extents <= size - p ? p + extents : size;
		}
		while (record_at(&x, p, end, &r) && !(r.metadata && r.kind == XRAY_END_OF_BUFFER)) {
			p += r.size;
			count += p <= limit;
		}
		if (copy && !tl_repair_emit(copy, data + *copied, (size_t)(end - *copied)))
			break;
		*copied = end;
		if (in)
			tl_input_release(in, end);
		off = end;
	}
	return count;
}
