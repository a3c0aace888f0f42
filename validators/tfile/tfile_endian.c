/* Byte order of the frame section, which the file does not record
 * (specs/tfile.md, decision 2): walk the frame headers under each order and
 * keep the one whose chain ends in a proper end marker at EOF. */
#include "cursor.h"
#include "tfile.h"

struct chain {
	bool ends_well;     /* zero tracepoint number followed by zero bytes only */
	uint64_t reached;   /* bytes of the section the chain covered */
	uint64_t frames;
};

static struct chain walk_chain(const struct tl_input *in, uint64_t start, bool big)
{
	struct chain ch = { false, 0, 0 };
	struct tl_cursor c;
	tl_cursor_init(&c, in->data + start, (size_t)(in->size - start), start);
	for (;;) {
		uint16_t tpnum;
		uint32_t size;
		if (!tl_cursor_u16(&c, big, &tpnum))
			break;
		if (tpnum == 0) {
			size_t left = tl_cursor_left(&c);
			const uint8_t *rest;
			tl_cursor_bytes(&c, left, &rest);
			bool zeros = true;
			for (size_t i = 0; i < left; i++)
				zeros = zeros && rest[i] == 0;
			ch.ends_well = zeros;
			break;
		}
		if (!tl_cursor_u32(&c, big, &size) || !tl_cursor_skip(&c, size))
			break;
		ch.frames++;
		ch.reached = tl_cursor_offset(&c) - start;
		tl_input_release(in, tl_cursor_offset(&c));
	}
	return ch;
}

bool tfile_choose_endian(struct tl_ctx *ctx, const struct tl_input *in, uint64_t start,
			 const struct tfile_desc *desc, bool *big)
{
	if (ctx->opts->endian != TL_ENDIAN_AUTO) {
		*big = ctx->opts->endian == TL_ENDIAN_BIG;
		return false;
	}
	struct chain little = walk_chain(in, start, false);
	struct chain bigc = walk_chain(in, start, true);
	tl_input_restart(in);
	if (little.ends_well != bigc.ends_well) {
		*big = bigc.ends_well;
		return true;
	}
	/* Zero frames read the same in both orders: nothing to guess. */
	if (little.frames == 0 && bigc.frames == 0 && little.ends_well) {
		*big = desc->arch_endian == 2;
		return true;
	}
	if (desc->arch_endian) {
		*big = desc->arch_endian == 2;
		return true;
	}
	if (little.reached != bigc.reached) {
		*big = bigc.reached > little.reached;
		return true;
	}
	*big = false;
	struct tl_location loc = tl_at(start);
	tl_report(ctx, RULE_TFILE_ENDIAN_GUESSED, &loc,
		  "expected one byte order to fit the frames, found that %s: assumed little-endian "
		  "(use --endian=little|big to say)", little.ends_well ? "both do" : "neither does");
	return true;
}
