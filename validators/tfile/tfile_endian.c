/* Byte order of the frame section, which the file does not record
 * (specs/tfile.md, decision 2): walk the frame headers under each order and
 * keep the one whose chain ends in a proper end marker at EOF. */
#include "cursor.h"
#include "tfile.h"

/* How far a frame chain got under one byte order, best first. */
enum chain_state { CHAIN_ENDS_WELL = 2, CHAIN_ALIVE = 1, CHAIN_BROKEN = 0 };

struct chain {
	enum chain_state state;  /* ENDS_WELL: a zero tracepoint number, then zero bytes only */
	uint64_t reached;        /* bytes of the section the chain covered */
	uint64_t frames;
};

/* The wrong order almost always breaks at the first frame header, so the
 * walks look at a bounded number of frames first and only walk to the end
 * of the file when both orders survive that far. */
#define CHAIN_PROBE_FRAMES 4096

static struct chain walk_chain(const struct tl_input *in, uint64_t start, bool big,
			       uint64_t max_frames)
{
	struct chain ch = { CHAIN_BROKEN, 0, 0 };
	struct tl_cursor c;
	if (!tl_cursor_at(&c, in->data, in->size, start, in->size - start))
		tl_cursor_init(&c, NULL, 0, start); /* nothing there: the walk finds the end */
	while (ch.frames < max_frames) {
		uint16_t tpnum;
		uint32_t size;
		if (!tl_cursor_u16(&c, big, &tpnum))
			return ch;
		if (tpnum == 0) {
			bool zeros = tl_input_first_nonzero(in, tl_cursor_offset(&c)) == in->size;
			ch.state = zeros ? CHAIN_ENDS_WELL : CHAIN_BROKEN;
			return ch;
		}
		if (!tl_cursor_u32(&c, big, &size) || !tl_cursor_skip(&c, size))
			return ch;
		ch.frames++;
		ch.reached = tl_cursor_offset(&c) - start;
		tl_input_release(in, tl_cursor_offset(&c));
	}
	ch.state = CHAIN_ALIVE;
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
	struct chain little = walk_chain(in, start, false, CHAIN_PROBE_FRAMES);
	tl_input_restart(in);
	struct chain bigc = walk_chain(in, start, true, CHAIN_PROBE_FRAMES);
	tl_input_restart(in);
	if (little.state == CHAIN_ALIVE && bigc.state == CHAIN_ALIVE) {
		little = walk_chain(in, start, false, UINT64_MAX);
		tl_input_restart(in);
		bigc = walk_chain(in, start, true, UINT64_MAX);
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
