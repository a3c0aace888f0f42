/* The FDR walker: frames the data section into buffers (version 1: fixed
 * buffer_size stride ending in EndOfBuffer; versions 2-5: BufferExtents
 * byte counts), decodes each record once and feeds the rule-group checkers.
 * One pass, constant memory: the file is read through a window (window.h),
 * plain function records go through the fast path (xray_fast.c). */
#include "xray.h"

#include <inttypes.h>
#include <string.h>

enum buffer_outcome {
	BUFFER_DONE,            /* walked to its end (or to EndOfBuffer) */
	BUFFER_CUT,             /* a record crossed its end */
	BUFFER_LOST             /* framing lost inside it: nothing after it can be trusted */
};

static void report_crossing(struct xray_fdr_walk *w, const struct xray_record *rec, uint64_t left)
{
	struct tl_location at = tl_at_record(rec->offset, rec->index);
	const char *what = rec->metadata ? tl_xray_kind_name(rec->kind) : "function record";
	tl_report(w->ctx, RULE_XRAY_FDR_RECORD_CROSSES_BUFFER, &at,
		  MSG_XRAY_FDR_RECORD_CROSSES_BUFFER,
		  what, rec->size,
		  rec->size > XRAY_METADATA_SIZE ? " with its payload" : "", w->buf.index,
		  w->buf.end, left);
}

static void report_negative_event(struct xray_fdr_walk *w, const struct xray_record *rec)
{
	struct tl_location at = tl_at_record(rec->offset + 1, rec->index);
	tl_report(w->ctx, RULE_XRAY_FDR_EVENT_SIZE, &at,
		  MSG_XRAY_FDR_EVENT_SIZE, tl_xray_kind_name(rec->kind), rec->value);
}

/* Walks the records in [start, end) as one buffer. */
static enum buffer_outcome walk_buffer(struct xray_fdr_walk *w, uint64_t start, uint64_t end,
				       bool already_cut, bool *saw_end)
{
	struct xray_run run = { w->ctx, w->hdr, &w->buf, w->map };
	struct tl_cursor c;
	enum buffer_outcome outcome = BUFFER_DONE;
	w->buf.start = start;
	w->buf.end = end;
	w->buf.tid = -1;
	*saw_end = false;
	tl_xray_grammar_begin(&w->grammar);
	tl_xray_stack_begin(&w->stack);
	tl_xray_tsc_begin(&w->tsc);
	uint64_t off = start;
	while (off < end && !w->win.read_failed) {
		size_t avail;
		const uint8_t *p = tl_window_at(&w->win, off, XRAY_METADATA_SIZE, &avail);
		uint64_t left = end - off;
		/* At least min(16, left) bytes: a whole metadata record when the buffer has one. */
		size_t n = avail < left ? avail : (size_t)left;
		size_t fast = tl_xray_fast_functions(p, n, w->hdr->big, w->max_id, &w->grammar,
						  &w->stack, &w->tsc, &w->next_index);
		if (fast) {
			off += fast;
			continue;
		}
		struct xray_record rec;
		rec.index = w->next_index;
		tl_cursor_init(&c, p, n, off);
		enum xray_decode_status st = tl_xray_decode(&c, w->hdr, &rec);
		/* The decoder saw only the window: an event payload may go on past it. */
		if (st == XRAY_SHORT && rec.size <= left)
			st = XRAY_DECODED;
		if (st == XRAY_NEGATIVE_EVENT) {
			report_negative_event(w, &rec);
			return BUFFER_LOST;
		}
		if (st == XRAY_SHORT) {
			if (!already_cut)
				report_crossing(w, &rec, left);
			outcome = BUFFER_CUT;
			break;
		}
		w->next_index++;
		if (rec.metadata && rec.kind == XRAY_NEW_BUFFER)
			w->buf.tid = rec.value;
		*saw_end = tl_xray_grammar_record(&w->grammar, &run, &rec);
		tl_xray_stack_record(&w->stack, &run, &rec);
		tl_xray_tsc_record(&w->tsc, &run, &rec);
		off += rec.size;
		if (*saw_end)
			break;
	}
	tl_xray_grammar_end(&w->grammar, &run, w->next_index);
	return outcome;
}

/* Version 1: buffers of exactly buffer_size bytes, each closed by EndOfBuffer. */
static void walk_fixed_buffers(struct xray_fdr_walk *w)
{
	uint64_t size = w->in->size, stride = w->hdr->buffer_size;
	uint64_t data = size - XRAY_HEADER_SIZE, rest = data % stride;
	bool last_is_partial = rest != 0;
	if (last_is_partial) {
		struct tl_location at = tl_at(size - rest);
		tl_report(w->ctx, RULE_XRAY_FDR_V1_STRIDE, &at,
			  MSG_XRAY_FDR_V1_STRIDE, data, stride, rest);
	}
	for (uint64_t start = XRAY_HEADER_SIZE; start < size;
	     start += stride) {
		uint64_t end = size - start > stride ? start + stride : size;
		bool saw_end;
		int64_t first_index = w->next_index;
		enum buffer_outcome out = walk_buffer(w, start, end, end - start < stride, &saw_end);
		if (out == BUFFER_DONE && !saw_end) {
			struct tl_location at = tl_at_record(start, first_index);
			tl_report(w->ctx, RULE_XRAY_FDR_V1_END_OF_BUFFER, &at,
				  MSG_XRAY_FDR_V1_END_OF_BUFFER,
				  end - start, w->buf.index, w->buf.tid);
		}
		w->buf.index++;
		if (stride > size - start)
			break; /* the next start would pass the end (and may overflow) */
	}
}

static bool check_extents_record(struct xray_fdr_walk *w, struct tl_cursor *c,
				 struct xray_record *rec)
{
	rec->index = w->next_index;
	enum xray_decode_status st = tl_xray_decode(c, w->hdr, rec);
	bool is_extents = rec->metadata && rec->kind == XRAY_BUFFER_EXTENTS;
	struct tl_location at = tl_at_record(rec->offset, rec->index);
	if (!is_extents) {
		uint8_t first = 0;
		(void)tl_cursor_peek_u8(c, &first);
		tl_report(w->ctx, RULE_XRAY_FDR_EXTENTS_MISSING, &at,
			  MSG_XRAY_FDR_EXTENTS_MISSING,
			  w->buf.index,
			  rec->metadata ? tl_xray_kind_name(rec->kind) : "a function record",
			  (unsigned)first);
		return false;
	}
	if (st != XRAY_DECODED) {
		tl_report(w->ctx, RULE_XRAY_FDR_EXTENTS_EOF, &at,
			  MSG_XRAY_FDR_EXTENTS_EOF, tl_cursor_left(c));
		return false;
	}
	w->next_index++;
	return true;
}

/* While more bytes may come: whether the buffer at w->off must wait for
 * them. It waits when its BufferExtents record, or the bytes that record
 * counts, are not all there yet; anything else (another record where the
 * extents should be) is judged now, as it would be on the whole file. */
static bool buffer_incomplete(struct xray_fdr_walk *w, uint64_t size)
{
	if (size - w->off < XRAY_METADATA_SIZE)
		return true;
	size_t avail;
	const uint8_t *p = tl_window_at(&w->win, w->off, XRAY_METADATA_SIZE, &avail);
	struct tl_cursor c;
	struct xray_record ext;
	tl_cursor_init(&c, p, avail < XRAY_METADATA_SIZE ? avail : XRAY_METADATA_SIZE, w->off);
	if (tl_xray_decode(&c, w->hdr, &ext) != XRAY_DECODED || !ext.metadata ||
	    ext.kind != XRAY_BUFFER_EXTENTS)
		return false;
	uint64_t end;
	return !tl_add_u64(w->off + XRAY_METADATA_SIZE, ext.word, &end) || end > size;
}

/* Versions 2-5: each buffer is a BufferExtents record and the bytes it counts. */
static void walk_extents_buffers(struct xray_fdr_walk *w, bool final)
{
	uint64_t size = w->in->size;
	/* A short read means the file shrank: stop, validate.c reports it unreadable. */
	while (w->off < size && !w->win.read_failed) {
		if (!final && buffer_incomplete(w, size))
			return;
		uint64_t off = w->off;
		struct tl_cursor c;
		struct xray_record ext;
		size_t avail;
		const uint8_t *p = tl_window_at(&w->win, off, XRAY_METADATA_SIZE, &avail);
		/* The window holds the whole record, or all that is left of the file. */
		tl_cursor_init(&c, p, avail < XRAY_METADATA_SIZE ? avail : XRAY_METADATA_SIZE, off);
		if (!check_extents_record(w, &c, &ext)) {
			w->done = true;
			return;
		}
		uint64_t extents = ext.word, body = off + XRAY_METADATA_SIZE, end;
		struct tl_location at = tl_at_record(ext.offset + 1, ext.index);
		if (extents > w->hdr->buffer_size)
			tl_report(w->ctx, RULE_XRAY_FDR_EXTENTS_CAPACITY, &at,
				  MSG_XRAY_FDR_EXTENTS_CAPACITY,
				  w->hdr->buffer_size, w->buf.index, extents);
		bool cut = !tl_add_u64(body, extents, &end) || end > size;
		if (cut) {
			tl_report(w->ctx, RULE_XRAY_FDR_EXTENTS_EOF, &at,
				  MSG_XRAY_FDR_EXTENTS_EOF_2,
				  extents, w->buf.index, size - body);
			end = size;
		}
		if (extents == 0) {
			tl_report(w->ctx, RULE_XRAY_FDR_EXTENTS_EMPTY, &at,
				  MSG_XRAY_FDR_EXTENTS_EMPTY, w->buf.index);
		} else {
			bool saw_end;
			if (walk_buffer(w, body, end, cut, &saw_end) == BUFFER_LOST) {
				w->done = true;
				return;
			}
		}
		w->buf.index++;
		w->off = end;
	}
}

void tl_xray_fdr_begin(struct xray_fdr_walk *w, struct tl_ctx *ctx, const struct tl_input *in,
		       const struct xray_header *hdr, const struct xray_instr_map *map)
{
	memset(w, 0, sizeof *w);
	w->ctx = ctx;
	w->in = in;
	w->hdr = hdr;
	w->map = map;
	w->max_id = xray_max_function_id(map);
	w->off = XRAY_HEADER_SIZE;
	tl_window_open(&w->win, in, 0);
}

void tl_xray_fdr_step(struct xray_fdr_walk *w, bool final)
{
	if (w->done)
		return;
	if (w->hdr->version == 1) {
		if (!final)
			return;
		walk_fixed_buffers(w);
	} else {
		walk_extents_buffers(w, final);
	}
	if (final)
		w->done = true;
}

void tl_xray_fdr_end(struct xray_fdr_walk *w)
{
	tl_window_close(&w->win);
}

void tl_xray_fdr_validate(struct tl_ctx *ctx, const struct tl_input *in, const struct xray_header *hdr,
		       const struct xray_instr_map *map)
{
	struct xray_fdr_walk w;
	tl_xray_fdr_begin(&w, ctx, in, hdr, map);
	tl_xray_fdr_step(&w, true);
	tl_xray_fdr_end(&w);
}
