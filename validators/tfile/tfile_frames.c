/* The frame section: frames of blocks R/M/V, then the end marker. One pass
 * with a bounded state: a bitmap of tracepoint numbers already reported. */
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "tfile.h"
#include "tfile_decode.h"

/* A block the decoder could not read: the frame's remaining blocks are not
 * checked. */
static void report_fault(struct tfile_frame_walk *w, const struct tfile_block *b,
			 enum tfile_block_fault fault, const struct tl_location *loc)
{
	switch (fault) {
	case TFILE_BLOCK_R_SIZE_UNKNOWN:
		if (!w->r_unknown_reported)
			tl_report(w->ctx, RULE_TFILE_BLOCK_R_UNKNOWN_SIZE, loc,
				  MSG_TFILE_BLOCK_R_UNKNOWN_SIZE);
		w->r_unknown_reported = true;
		break;
	case TFILE_BLOCK_OVERRUN:
		if (b->type == 'R')
			tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, loc,
				  MSG_TFILE_BLOCK_OVERRUN,
				  (unsigned long long)w->desc->r_size, (unsigned long long)b->left);
		else if (b->type == 'M')
			tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, loc,
				  MSG_TFILE_BLOCK_OVERRUN_2,
				  (unsigned long long)b->left);
		else
			tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, loc,
				  MSG_TFILE_BLOCK_OVERRUN_3, (unsigned long long)b->left);
		break;
	case TFILE_BLOCK_BAD_TYPE:
		tl_report(w->ctx, RULE_TFILE_BLOCK_TYPE, loc,
			  MSG_TFILE_BLOCK_TYPE, b->type,
			  b->type == 'S' ? " ('S', a static tracepoint block gdb cannot read)" : "");
		break;
	case TFILE_BLOCK_OK:
		break;
	}
}

static void check_r(struct tfile_frame_walk *w, unsigned r_blocks, const struct tl_location *loc)
{
	if (r_blocks == 2 && !w->r_repeated_reported) {
		tl_report(w->ctx, RULE_TFILE_BLOCK_R_REPEATED, loc,
			  MSG_TFILE_BLOCK_R_REPEATED);
		w->r_repeated_reported = true;
	}
}

static void check_m(struct tfile_frame_walk *w, const struct tfile_block *b,
		    const struct tl_location *loc)
{
	uint64_t last;
	if (b->length == 0 && !w->m_empty_reported) {
		tl_report(w->ctx, RULE_TFILE_BLOCK_M_EMPTY, loc,
			  MSG_TFILE_BLOCK_M_EMPTY, (unsigned long long)b->address);
		w->m_empty_reported = true;
	}
	if (!tl_add_u64(b->address, b->length, &last) && last != 0) {
		tl_report(w->ctx, RULE_TFILE_BLOCK_M_WRAP, loc,
			  MSG_TFILE_BLOCK_M_WRAP, (unsigned long long)b->address, b->length);
	} else if (w->desc->arch_32bit && !w->m_addr32_reported &&
		   (b->address > UINT32_MAX || b->address + b->length > (uint64_t)UINT32_MAX + 1)) {
		tl_report(w->ctx, RULE_TFILE_BLOCK_M_ADDR32, loc,
			  MSG_TFILE_BLOCK_M_ADDR32, (unsigned long long)b->address, b->length);
		w->m_addr32_reported = true;
	}
}

static void check_v(struct tfile_frame_walk *w, const struct tfile_block *b,
		    const struct tl_location *loc)
{
	if (!w->v_undefined_reported && !tl_tfile_tsv_defined(w->desc, b->number)) {
		tl_report(w->ctx, RULE_TFILE_BLOCK_V_UNDEFINED, loc,
			  MSG_TFILE_BLOCK_V_UNDEFINED, (int32_t)b->number);
		w->v_undefined_reported = true;
	}
}

/* The blocks of the frame data [start, end), each handed to its checker;
 * false when one could not be read (reported), so the frame does not tile.
 * Reads through the window, so a frame may be larger than it. */
static bool check_blocks(struct tfile_frame_walk *w, struct tl_window *win, uint64_t start,
			 uint64_t end)
{
	unsigned r_blocks = 0;
	for (uint64_t at = start; at < end && !tl_stopped(w->ctx);) {
		struct tfile_block b;
		enum tfile_block_fault fault =
			tl_tfile_block_read(tl_tfile_head(win, at, end, TFILE_BLOCK_HEAD), end, w->big,
					    w->desc->r_valid, w->desc->r_size, &b);
		struct tl_location loc = tl_at_record(at, (int64_t)w->index);
		if (fault != TFILE_BLOCK_OK) {
			report_fault(w, &b, fault, &loc);
			return false;
		}
		if (b.type == 'R')
			check_r(w, ++r_blocks, &loc);
		else if (b.type == 'M')
			check_m(w, &b, &loc);
		else
			check_v(w, &b, &loc);
		at = b.next;
	}
	return true;
}

/* Whether the blocks of [start, end) tile it with registers of r_size bytes. */
static bool blocks_tile(const struct tfile_frame_walk *w, struct tl_window *win, uint64_t start,
			uint64_t end, uint64_t r_size)
{
	for (uint64_t at = start; at < end;) {
		struct tfile_block b;
		if (tl_tfile_block_read(tl_tfile_head(win, at, end, TFILE_BLOCK_HEAD), end, w->big, true,
					r_size, &b) != TFILE_BLOCK_OK)
			return false;
		at = b.next;
	}
	return true;
}

/* Decision 1: when the hex R size breaks a frame, see whether the decimal
 * reading of the same text would have tiled it. */
static void suggest_decimal(struct tfile_frame_walk *w, struct tl_window *win, uint64_t start, uint64_t end)
{
	const struct tfile_desc *d = w->desc;
	if (w->r_decimal_checked || !d->r_valid || !d->r_decimal_valid || d->r_size_decimal == d->r_size)
		return;
	w->r_decimal_checked = true;
	if (!blocks_tile(w, win, start, end, d->r_size_decimal))
		return;
	struct tl_location loc = tl_at_text(d->r.offset, d->r.line, 3);
	tl_report(w->ctx, RULE_TFILE_R_DECIMAL, &loc,
		  MSG_TFILE_R_DECIMAL,
		  (unsigned long long)d->r_size, (unsigned long long)w->index,
		  (unsigned long long)d->r_size_decimal);
}

static void check_end_marker(struct tfile_frame_walk *w, const struct tl_input *in, uint64_t marker_at)
{
	uint64_t after = marker_at + 2;
	uint64_t trailing = in->size - after;
	/* Padding may be gigabytes (truncate -s): scanned in constant memory. */
	uint64_t first = tl_input_first_nonzero(in, after);
	uint64_t zeros = first - after;
	if (zeros < trailing) {
		struct tl_location loc = tl_at(after + zeros);
		uint8_t byte = 0;
		tl_input_read_at(in, first, &byte, 1); /* inside: zeros < trailing */
		tl_report(w->ctx, RULE_TFILE_END_TRAILING, &loc,
			  MSG_TFILE_END_TRAILING, (unsigned)byte,
			  (unsigned long long)(trailing - zeros), trailing - zeros == 1 ? "" : "s");
	} else if (trailing == 0) {
		struct tl_location loc = tl_at(marker_at);
		tl_report(w->ctx, RULE_TFILE_END_SHORT, &loc,
			  MSG_TFILE_END_SHORT);
	}
}

static void check_tpnum(struct tfile_frame_walk *w, uint16_t tpnum, const struct tl_location *loc)
{
	if (tpnum > TFILE_MAX_TPNUM) {
		tl_report(w->ctx, RULE_TFILE_FRAME_TPNUM, loc,
			  MSG_TFILE_FRAME_TPNUM, tpnum, (int16_t)tpnum);
		return;
	}
	uint8_t bit = (uint8_t)(1u << (tpnum % 8));
	if (tl_tfile_tp_defined(w->desc, tpnum) || (w->undefined_reported[tpnum / 8] & bit))
		return;
	w->undefined_reported[tpnum / 8] |= bit;
	tl_report(w->ctx, RULE_TFILE_FRAME_TPNUM_UNDEFINED, loc,
		  MSG_TFILE_FRAME_TPNUM_UNDEFINED,
		  tpnum);
}

void tl_tfile_frames_begin(struct tfile_frame_walk *w, struct tl_ctx *ctx, const struct tfile_desc *desc,
			   bool big, uint64_t start)
{
	memset(w, 0, sizeof *w);
	w->ctx = ctx;
	w->desc = desc;
	w->big = big;
	w->at = start;
}

/* While more bytes may come: whether the frame at `at` must wait for them
 * (its header or data is not all there, or it is the end marker). */
static bool frame_incomplete(const struct tfile_frame_walk *w, struct tl_window *win,
			     const struct tl_input *in, uint64_t at)
{
	struct tfile_frame f;
	return tl_tfile_frame_read(tl_tfile_head(win, at, in->size, TFILE_FRAME_HEAD), in->size, w->big,
				   &f) != TFILE_FRAME_READ;
}

void tl_tfile_frames_step(struct tfile_frame_walk *w, const struct tl_input *in, bool final)
{
	struct tl_ctx *ctx = w->ctx;
	bool big = w->big;
	if (w->done)
		return;
	struct tl_window win;
	struct tl_input flat;
	tl_tfile_window_open(&win, &flat, in, 0);
	uint64_t at = w->at;
	while (!tl_stopped(ctx)) {
		if (!final && frame_incomplete(w, &win, in, at))
			break;
		struct tl_location loc = tl_at_record(at, (int64_t)w->index);
		struct tfile_frame f;
		enum tfile_frame_end end = tl_tfile_frame_read(tl_tfile_head(&win, at, in->size, TFILE_FRAME_HEAD),
							       in->size, big, &f);
		if (end == TFILE_FRAME_NONE) {
			loc = tl_at(at);
			tl_report(ctx, RULE_TFILE_END_MISSING, &loc,
				  MSG_TFILE_END_MISSING, (unsigned long long)w->index, w->index == 1 ? "" : "s");
			w->done = true;
			break;
		}
		if (end == TFILE_FRAME_MARKER) {
			check_end_marker(w, in, at);
			w->out.complete = true;
			w->done = true;
			break;
		}
		if (end == TFILE_FRAME_HEADER_CUT) {
			tl_report(ctx, RULE_TFILE_FRAME_HEADER, &loc,
				  MSG_TFILE_FRAME_HEADER,
				  (unsigned long long)(in->size - at));
			w->done = true;
			break;
		}
		check_tpnum(w, f.tpnum, &loc);
		if (end == TFILE_FRAME_DATA_CUT) {
			tl_report(ctx, RULE_TFILE_FRAME_SIZE, &loc,
				  MSG_TFILE_FRAME_SIZE, f.size, (unsigned long long)(in->size - f.at - TFILE_FRAME_HEAD));
			w->done = true;
			break;
		}
		if (!check_blocks(w, &win, f.body, f.end))
			suggest_decimal(w, &win, f.body, f.end);
		w->index++;
		at = f.end;
		w->at = at;
		w->out.frames = w->index;
		tl_input_release(in, w->at);
	}
	tl_window_close(&win);
	w->out.frames = w->index;
	if (final || tl_stopped(ctx))
		w->done = true;
}
