/* The frame section: frames of blocks R/M/V, then the end marker. One pass
 * with a bounded state: a bitmap of tracepoint numbers already reported. */
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "tfile.h"

#define frame_walk tfile_frame_walk

enum walk_mode { WALK_REPORT, WALK_QUIET };

/* Walks the blocks of one frame with registers of r_size bytes; reports
 * (WALK_REPORT) or only answers whether the blocks tile the frame. */
static bool walk_blocks(struct frame_walk *w, struct tl_cursor frame, bool r_known,
			uint64_t r_size, enum walk_mode mode)
{
	bool report = mode == WALK_REPORT;
	unsigned r_blocks = 0;
	while (tl_cursor_left(&frame) > 0 && !(report && tl_stopped(w->ctx))) {
		uint64_t at = tl_cursor_offset(&frame);
		struct tl_location loc = tl_at_record(at, (int64_t)w->index);
		uint8_t type;
		tl_cursor_u8(&frame, &type);
		size_t left = tl_cursor_left(&frame);
		if (type == 'R') {
			if (!r_known) {
				if (report && !w->r_unknown_reported)
					tl_report(w->ctx, RULE_TFILE_BLOCK_R_UNKNOWN_SIZE, &loc,
						  MSG_TFILE_BLOCK_R_UNKNOWN_SIZE);
				w->r_unknown_reported = true;
				return false;
			}
			if (r_size > left) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  MSG_TFILE_BLOCK_OVERRUN,
						  (unsigned long long)r_size, left);
				return false;
			}
			tl_cursor_skip(&frame, (size_t)r_size);
			if (++r_blocks == 2 && report && !w->r_repeated_reported) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_R_REPEATED, &loc,
					  MSG_TFILE_BLOCK_R_REPEATED);
				w->r_repeated_reported = true;
			}
		} else if (type == 'M') {
			uint64_t address;
			uint16_t length;
			if (!tl_cursor_u64(&frame, w->big, &address) ||
			    !tl_cursor_u16(&frame, w->big, &length) || !tl_cursor_skip(&frame, length)) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  MSG_TFILE_BLOCK_OVERRUN_2, left);
				return false;
			}
			if (!report)
				continue;
			uint64_t end;
			if (length == 0 && !w->m_empty_reported) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_EMPTY, &loc,
					  MSG_TFILE_BLOCK_M_EMPTY, (unsigned long long)address);
				w->m_empty_reported = true;
			}
			if (!tl_add_u64(address, length, &end) && end != 0) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_WRAP, &loc,
					  MSG_TFILE_BLOCK_M_WRAP, (unsigned long long)address, length);
			} else if (w->desc->arch_32bit && !w->m_addr32_reported &&
				   (address > UINT32_MAX || address + length > (uint64_t)UINT32_MAX + 1)) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_ADDR32, &loc,
					  MSG_TFILE_BLOCK_M_ADDR32, (unsigned long long)address, length);
				w->m_addr32_reported = true;
			}
		} else if (type == 'V') {
			uint32_t number;
			uint64_t value;
			if (!tl_cursor_u32(&frame, w->big, &number) || !tl_cursor_u64(&frame, w->big, &value)) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  MSG_TFILE_BLOCK_OVERRUN_3, left);
				return false;
			}
			if (report && !w->v_undefined_reported && !tl_tfile_tsv_defined(w->desc, number)) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_V_UNDEFINED, &loc,
					  MSG_TFILE_BLOCK_V_UNDEFINED, (int32_t)number);
				w->v_undefined_reported = true;
			}
		} else {
			if (report)
				tl_report(w->ctx, RULE_TFILE_BLOCK_TYPE, &loc,
					  MSG_TFILE_BLOCK_TYPE, type,
					  type == 'S' ? " ('S', a static tracepoint block gdb cannot read)" : "");
			return false;
		}
	}
	return true;
}

/* Decision 1: when the hex R size breaks a frame, see whether the decimal
 * reading of the same text would have tiled it. */
static void suggest_decimal(struct frame_walk *w, struct tl_cursor frame)
{
	const struct tfile_desc *d = w->desc;
	if (w->r_decimal_checked || !d->r_valid || !d->r_decimal_valid || d->r_size_decimal == d->r_size)
		return;
	w->r_decimal_checked = true;
	if (!walk_blocks(w, frame, true, d->r_size_decimal, WALK_QUIET))
		return;
	struct tl_location loc = tl_at_text(d->r.offset, d->r.line, 3);
	tl_report(w->ctx, RULE_TFILE_R_DECIMAL, &loc,
		  MSG_TFILE_R_DECIMAL,
		  (unsigned long long)d->r_size, (unsigned long long)w->index,
		  (unsigned long long)d->r_size_decimal);
}

static void check_end_marker(struct frame_walk *w, const struct tl_input *in, struct tl_cursor *c,
			     uint64_t marker_at)
{
	size_t trailing = tl_cursor_left(c);
	/* Padding may be gigabytes (truncate -s): scanned in constant memory. */
	uint64_t first = tl_input_first_nonzero(in, tl_cursor_offset(c));
	size_t zeros = (size_t)(first - tl_cursor_offset(c));
	if (zeros < trailing) {
		struct tl_location loc = tl_at(marker_at + 2 + zeros);
		uint64_t byte = 0;
		tl_read_uint_at(in->data, in->size, first, 1, false, &byte); /* inside: zeros < trailing */
		tl_report(w->ctx, RULE_TFILE_END_TRAILING, &loc,
			  MSG_TFILE_END_TRAILING, (unsigned)byte, trailing - zeros,
			  trailing - zeros == 1 ? "" : "s");
	} else if (trailing == 0) {
		struct tl_location loc = tl_at(marker_at);
		tl_report(w->ctx, RULE_TFILE_END_SHORT, &loc,
			  MSG_TFILE_END_SHORT);
	}
}

static void check_tpnum(struct frame_walk *w, uint16_t tpnum, const struct tl_location *loc)
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

void tl_tfile_frames_begin(struct frame_walk *w, struct tl_ctx *ctx, const struct tfile_desc *desc,
			   bool big, uint64_t start)
{
	memset(w, 0, sizeof *w);
	w->ctx = ctx;
	w->desc = desc;
	w->big = big;
	w->at = start;
}

/* While more bytes may come: whether the frame at w->at must wait for them
 * (its header or data is not all there, or it is the end marker). */
static bool frame_incomplete(const struct frame_walk *w, const struct tl_cursor *c)
{
	struct tl_cursor peek = *c;
	uint16_t tpnum;
	uint32_t size;
	return !tl_cursor_u16(&peek, w->big, &tpnum) || tpnum == 0 ||
	       !tl_cursor_u32(&peek, w->big, &size) || tl_cursor_left(&peek) < size;
}

void tl_tfile_frames_step(struct frame_walk *w, const struct tl_input *in, bool final)
{
	struct tl_ctx *ctx = w->ctx;
	bool big = w->big;
	struct tl_cursor c;
	if (w->done)
		return;
	if (!tl_cursor_at(&c, in->data, in->size, w->at, in->size - w->at))
		tl_cursor_init(&c, NULL, 0, w->at); /* nothing there yet */
	while (!tl_stopped(ctx)) {
		if (!final && frame_incomplete(w, &c))
			return;
		uint64_t at = tl_cursor_offset(&c);
		struct tl_location loc = tl_at_record(at, (int64_t)w->index);
		uint16_t tpnum;
		uint32_t size;
		if (!tl_cursor_u16(&c, big, &tpnum)) {
			loc = tl_at(at);
			tl_report(ctx, RULE_TFILE_END_MISSING, &loc,
				  MSG_TFILE_END_MISSING, (unsigned long long)w->index, w->index == 1 ? "" : "s");
			break;
		}
		if (tpnum == 0) {
			check_end_marker(w, in, &c, at);
			w->out.complete = true;
			break;
		}
		if (!tl_cursor_u32(&c, big, &size)) {
			tl_report(ctx, RULE_TFILE_FRAME_HEADER, &loc,
				  MSG_TFILE_FRAME_HEADER,
				  tl_cursor_left(&c) + 2);
			break;
		}
		check_tpnum(w, tpnum, &loc);
		struct tl_cursor frame;
		if (!tl_cursor_sub(&c, size, &frame)) {
			tl_report(ctx, RULE_TFILE_FRAME_SIZE, &loc,
				  MSG_TFILE_FRAME_SIZE, size, tl_cursor_left(&c));
			break;
		}
		if (!walk_blocks(w, frame, w->desc->r_valid, w->desc->r_size, WALK_REPORT))
			suggest_decimal(w, frame);
		w->index++;
		w->at = tl_cursor_offset(&c);
		w->out.frames = w->index;
		tl_input_release(in, w->at);
	}
	w->out.frames = w->index;
	w->done = true;
}
