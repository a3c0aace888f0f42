/* The frame section: frames of blocks R/M/V, then the end marker. One pass
 * with a bounded state: a bitmap of tracepoint numbers already reported. */
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "tfile.h"

#define frame_walk tfile_frame_walk

enum walk_mode { WALK_REPORT, WALK_QUIET };

/* The longest block head: 'V', a 4-byte number and an 8-byte value. */
#define BLOCK_HEAD 13

/* A cursor over the block head at `at`, clipped to the frame's end; the
 * block's data is skipped by offset, never read. */
static struct tl_cursor block_head(struct tl_window *win, uint64_t at, uint64_t end)
{
	size_t want = end - at < BLOCK_HEAD ? (size_t)(end - at) : BLOCK_HEAD;
	size_t avail;
	const uint8_t *p = tl_window_at(win, at, want, &avail);
	struct tl_cursor c;
	tl_cursor_init(&c, p, avail < want ? avail : want, at);
	return c;
}

/* Walks the blocks of the frame data [start, end) with registers of r_size
 * bytes; reports (WALK_REPORT) or only answers whether the blocks tile the
 * frame. Reads through the window, so a frame may be larger than it. */
static bool walk_blocks(struct frame_walk *w, struct tl_window *win, uint64_t start, uint64_t end,
			bool r_known, uint64_t r_size, enum walk_mode mode)
{
	bool report = mode == WALK_REPORT;
	unsigned r_blocks = 0;
	uint64_t pos = start;
	while (pos < end && !(report && tl_stopped(w->ctx))) {
		uint64_t at = pos;
		struct tl_location loc = tl_at_record(at, (int64_t)w->index);
		struct tl_cursor head = block_head(win, at, end);
		uint8_t type;
		tl_cursor_u8(&head, &type);
		uint64_t left = end - at - 1;
		if (type == 'R') {
			if (!r_known) {
				if (report && !w->r_unknown_reported)
					tl_report(w->ctx, RULE_TFILE_BLOCK_R_UNKNOWN_SIZE, &loc,
						  "expected a valid R line giving the register block size, "
						  "found an R block without one; the blocks of frames with R "
						  "blocks are not checked");
				w->r_unknown_reported = true;
				return false;
			}
			if (r_size > left) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  "expected an R block of 0x%llx bytes within its frame, found "
						  "only %llu bytes left in the frame",
						  (unsigned long long)r_size, (unsigned long long)left);
				return false;
			}
			pos = at + 1 + r_size;
			if (++r_blocks == 2 && report && !w->r_repeated_reported) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_R_REPEATED, &loc,
					  "expected at most one R block per frame, found a second one "
					  "(gdb uses only the first)");
				w->r_repeated_reported = true;
			}
		} else if (type == 'M') {
			uint64_t address;
			uint16_t length;
			if (!tl_cursor_u64(&head, w->big, &address) ||
			    !tl_cursor_u16(&head, w->big, &length) || length > left - 10) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  "expected an M block (8-byte address, 2-byte length, data) "
						  "within its frame, found only %llu bytes left",
						  (unsigned long long)left);
				return false;
			}
			pos = at + 11 + length;
			if (!report)
				continue;
			uint64_t last;
			if (length == 0 && !w->m_empty_reported) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_EMPTY, &loc,
					  "expected an M block of at least 1 byte, found length 0 at "
					  "address 0x%llx", (unsigned long long)address);
				w->m_empty_reported = true;
			}
			if (!tl_add_u64(address, length, &last) && last != 0) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_WRAP, &loc,
					  "expected an M block's range to end within 2^64, found address "
					  "0x%llx + length 0x%x", (unsigned long long)address, length);
			} else if (w->desc->arch_32bit && !w->m_addr32_reported &&
				   (address > UINT32_MAX || address + length > (uint64_t)UINT32_MAX + 1)) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_M_ADDR32, &loc,
					  "expected addresses below 2^32 on a 32-bit architecture, found "
					  "0x%llx + 0x%x", (unsigned long long)address, length);
				w->m_addr32_reported = true;
			}
		} else if (type == 'V') {
			uint32_t number;
			uint64_t value;
			if (!tl_cursor_u32(&head, w->big, &number) || !tl_cursor_u64(&head, w->big, &value)) {
				if (report)
					tl_report(w->ctx, RULE_TFILE_BLOCK_OVERRUN, &loc,
						  "expected a V block (4-byte number, 8-byte value) within its "
						  "frame, found only %llu bytes left", (unsigned long long)left);
				return false;
			}
			pos = at + 13;
			if (report && !w->v_undefined_reported && !tl_tfile_tsv_defined(w->desc, number)) {
				tl_report(w->ctx, RULE_TFILE_BLOCK_V_UNDEFINED, &loc,
					  "expected a trace state variable defined by a tsv line, found "
					  "number %d", (int32_t)number);
				w->v_undefined_reported = true;
			}
		} else {
			if (report)
				tl_report(w->ctx, RULE_TFILE_BLOCK_TYPE, &loc,
					  "expected a block type 'R', 'M' or 'V', found 0x%02x%s", type,
					  type == 'S' ? " ('S', a static tracepoint block gdb cannot read)" : "");
			return false;
		}
	}
	return true;
}

/* Decision 1: when the hex R size breaks a frame, see whether the decimal
 * reading of the same text would have tiled it. */
static void suggest_decimal(struct frame_walk *w, struct tl_window *win, uint64_t start, uint64_t end)
{
	const struct tfile_desc *d = w->desc;
	if (w->r_decimal_checked || !d->r_valid || !d->r_decimal_valid || d->r_size_decimal == d->r_size)
		return;
	w->r_decimal_checked = true;
	if (!walk_blocks(w, win, start, end, true, d->r_size_decimal, WALK_QUIET))
		return;
	struct tl_location loc = tl_at_text(d->r.offset, d->r.line, 3);
	tl_report(w->ctx, RULE_TFILE_R_DECIMAL, &loc,
		  "expected the R size in hex (0x%llx bytes), but frame %llu tiles only with its "
		  "decimal reading (%llu bytes): the producer wrote decimal",
		  (unsigned long long)d->r_size, (unsigned long long)w->index,
		  (unsigned long long)d->r_size_decimal);
}

static void check_end_marker(struct frame_walk *w, const struct tl_input *in, uint64_t marker_at)
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
			  "expected only zero bytes after the end marker, found byte 0x%02x (%llu "
			  "byte%s of data after the marker)", (unsigned)byte,
			  (unsigned long long)(trailing - zeros), trailing - zeros == 1 ? "" : "s");
	} else if (trailing == 0) {
		struct tl_location loc = tl_at(marker_at);
		tl_report(w->ctx, RULE_TFILE_END_SHORT, &loc,
			  "expected the 4-byte end marker tsave writes, found a bare 2-byte zero "
			  "tracepoint number at the end of the file");
	}
}

static void check_tpnum(struct frame_walk *w, uint16_t tpnum, const struct tl_location *loc)
{
	if (tpnum > TFILE_MAX_TPNUM) {
		tl_report(w->ctx, RULE_TFILE_FRAME_TPNUM, loc,
			  "expected a tracepoint number in 1..0x7fff, found 0x%x (%d to gdb, which "
			  "reads it as signed)", tpnum, (int16_t)tpnum);
		return;
	}
	uint8_t bit = (uint8_t)(1u << (tpnum % 8));
	if (tl_tfile_tp_defined(w->desc, tpnum) || (w->undefined_reported[tpnum / 8] & bit))
		return;
	w->undefined_reported[tpnum / 8] |= bit;
	tl_report(w->ctx, RULE_TFILE_FRAME_TPNUM_UNDEFINED, loc,
		  "expected the tracepoint number of a T piece, found %u, which no tp T line defines",
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

/* The frame header at `at`: a cursor over its 6 bytes, or fewer at the end. */
static struct tl_cursor frame_head(struct tl_window *win, const struct tl_input *in, uint64_t at)
{
	size_t want = in->size - at < 6 ? (size_t)(in->size - at) : 6;
	size_t avail;
	const uint8_t *p = tl_window_at(win, at, want, &avail);
	struct tl_cursor c;
	tl_cursor_init(&c, p, avail < want ? avail : want, at);
	return c;
}

/* While more bytes may come: whether the frame at `at` must wait for them
 * (its header or data is not all there, or it is the end marker). */
static bool frame_incomplete(const struct frame_walk *w, struct tl_window *win, const struct tl_input *in,
			     uint64_t at)
{
	struct tl_cursor peek = frame_head(win, in, at);
	uint16_t tpnum;
	uint32_t size;
	return !tl_cursor_u16(&peek, w->big, &tpnum) || tpnum == 0 ||
	       !tl_cursor_u32(&peek, w->big, &size) || in->size - (at + 6) < size;
}

void tl_tfile_frames_step(struct frame_walk *w, const struct tl_input *in, bool final)
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
		struct tl_cursor c = frame_head(&win, in, at);
		uint16_t tpnum;
		uint32_t size;
		if (!tl_cursor_u16(&c, big, &tpnum)) {
			loc = tl_at(at);
			tl_report(ctx, RULE_TFILE_END_MISSING, &loc,
				  "expected an end marker (tracepoint number 0), found the end of the file "
				  "after %llu frame%s", (unsigned long long)w->index, w->index == 1 ? "" : "s");
			w->done = true;
			break;
		}
		if (tpnum == 0) {
			check_end_marker(w, in, at);
			w->out.complete = true;
			w->done = true;
			break;
		}
		if (!tl_cursor_u32(&c, big, &size)) {
			tl_report(ctx, RULE_TFILE_FRAME_HEADER, &loc,
				  "expected a 6-byte frame header, found %llu bytes before the end of the file",
				  (unsigned long long)(in->size - at));
			w->done = true;
			break;
		}
		check_tpnum(w, tpnum, &loc);
		uint64_t data = at + 6;
		if (in->size - data < size) {
			tl_report(ctx, RULE_TFILE_FRAME_SIZE, &loc,
				  "expected %u bytes of frame data, found only %llu bytes before the end of "
				  "the file", size, (unsigned long long)(in->size - data));
			w->done = true;
			break;
		}
		if (!walk_blocks(w, &win, data, data + size, w->desc->r_valid, w->desc->r_size, WALK_REPORT))
			suggest_decimal(w, &win, data, data + size);
		w->index++;
		at = data + size;
		w->at = at;
		w->out.frames = w->index;
		tl_input_release(in, w->at);
	}
	tl_window_close(&win);
	w->out.frames = w->index;
	if (final || tl_stopped(ctx))
		w->done = true;
}
