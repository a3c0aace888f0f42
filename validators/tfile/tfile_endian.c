/* Byte order of the frame section, which the file does not record
 * (specs/tfile.md, decision 2): walk the frame headers under each order and
 * keep the one whose chain ends in a proper end marker at EOF. */
#include "cursor.h"
#include "tfile.h"
#include "tfile_decode.h"

/* How far a frame chain got under one byte order, best first. */
enum chain_state { CHAIN_ENDS_WELL = 2, CHAIN_ALIVE = 1, CHAIN_BROKEN = 0 };

struct chain {
	enum chain_state state;  /* ENDS_WELL: a zero tracepoint number, then zero bytes only */
	uint64_t reached;        /* bytes of the section the chain covered */
	uint64_t frames;
};

/* The wrong order almost always breaks at the first frame header, so the
 * walks look at a bounded number of frames (and bytes: a file read in
 * slices pays for every byte the probe reads again) first and only walk to
 * the end of the file when both orders survive that far. */
#define CHAIN_PROBE_FRAMES 4096
#define CHAIN_PROBE_BYTES ((uint64_t)1 << 20)
/* A probe's window: its bytes and the header after them. */
#define PROBE_SLACK 4096

static struct chain walk_chain(const struct tl_input *in, uint64_t start, bool big,
			       uint64_t max_frames, uint64_t max_bytes)
{
	struct chain ch = { CHAIN_BROKEN, 0, 0 };
	struct tl_window win;
	struct tl_input flat;
	/* a probe reads no further ahead than it may walk */
	size_t cap = 0;
	if (max_bytes < SIZE_MAX - PROBE_SLACK)
		cap = (size_t)max_bytes + PROBE_SLACK;
	tl_tfile_window_open(&win, &flat, in, cap);
	uint64_t at = start;
	while (ch.frames < max_frames && ch.reached < max_bytes) {
		struct tfile_frame f;
		enum tfile_frame_end end = tl_tfile_frame_read(tl_tfile_head(&win, at, in->size, TFILE_FRAME_HEAD),
							       in->size, big, &f);
		if (end == TFILE_FRAME_MARKER) {
			bool zeros = tl_input_first_nonzero(in, at + 2) == in->size;
			ch.state = zeros ? CHAIN_ENDS_WELL : CHAIN_BROKEN;
			break;
		}
		if (end != TFILE_FRAME_READ)
			break;
		at = f.end;
		ch.frames++;
		ch.reached = at - start;
		tl_input_release(in, at);
	}
	if ((ch.frames == max_frames || ch.reached >= max_bytes) && ch.state == CHAIN_BROKEN)
		ch.state = CHAIN_ALIVE;
	tl_window_close(&win);
	return ch;
}

const char *tl_tfile_choose_endian(struct tl_ctx *ctx, const struct tl_input *in, uint64_t start,
				   const struct tfile_desc *desc, bool *big)
{
	if (ctx->opts->endian != TL_ENDIAN_AUTO) {
		*big = ctx->opts->endian == TL_ENDIAN_BIG;
		return "given";
	}
	/* Each walk starts from a released mapping: pages are handed back as a
	 * walk passes them only beyond what was already released, so without the
	 * restarts the second walk over a file would keep every page it read. */
	struct chain little = walk_chain(in, start, false, CHAIN_PROBE_FRAMES, CHAIN_PROBE_BYTES);
	tl_input_restart(in);
	struct chain bigc = walk_chain(in, start, true, CHAIN_PROBE_FRAMES, CHAIN_PROBE_BYTES);
	tl_input_restart(in);
	if (little.state == CHAIN_ALIVE && bigc.state == CHAIN_ALIVE) {
		little = walk_chain(in, start, false, UINT64_MAX, UINT64_MAX);
		tl_input_restart(in);
		bigc = walk_chain(in, start, true, UINT64_MAX, UINT64_MAX);
		tl_input_restart(in);
	}
	if (little.state != bigc.state) {
		*big = bigc.state > little.state;
		return "detected";
	}
	/* Zero frames read the same in both orders: nothing to guess. */
	if (little.frames == 0 && bigc.frames == 0 && little.state == CHAIN_ENDS_WELL) {
		*big = desc->arch_endian == 2;
		return "detected";
	}
	if (desc->arch_endian) {
		*big = desc->arch_endian == 2;
		return "detected";
	}
	if (little.reached != bigc.reached) {
		*big = bigc.reached > little.reached;
		return "detected";
	}
	*big = false;
	struct tl_location loc = tl_at(start);
	tl_report(ctx, RULE_TFILE_ENDIAN_GUESSED, &loc,
		  MSG_TFILE_ENDIAN_GUESSED,
		  little.state == CHAIN_ENDS_WELL ? "both do" : "neither does");
	return "assumed";
}
