/* LLVM XRay: detection by content and the validator's entry point, which
 * reads the header and hands the data to the FDR or basic-mode walker. */
#include "format.h"
#include "xray.h"

#include <stdint.h>

/* The header's version and type in one byte order, when they make sense. */
static bool plausible(const uint8_t *p, bool big)
{
	unsigned version = big ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
	unsigned type = big ? (unsigned)(p[2] << 8 | p[3]) : (unsigned)(p[3] << 8 | p[2]);
	if (type == XRAY_TYPE_FDR)
		return version >= 1 && version <= 5;
	return type == XRAY_TYPE_BASIC && version >= 1 && version <= 3;
}

static int probe(const struct tl_input *in, const char **why_not)
{
	struct tl_cursor c;
	const uint8_t *head;
	tl_cursor_init(&c, in->data, in->size, 0);
	if (!tl_cursor_bytes(&c, XRAY_HEADER_SIZE, &head)) {
		*why_not = "shorter than the 32-byte XRay header";
		return 0;
	}
	bool big = !plausible(head, false);
	if (!plausible(head, big)) {
		*why_not = "no XRay type (0 or 1) and version at offset 0";
		return 0;
	}
	/* The header alone is a weak signature; the first record makes it strong. */
	uint8_t first;
	if (!tl_cursor_peek_u8(&c, &first))
		return 40;
	bool is_fdr = head[big ? 3 : 2] == XRAY_TYPE_FDR;
	if (is_fdr) {
		unsigned kind = big ? (first & 0x7fu) : (first >> 1);
		bool meta = big ? (first & 0x80u) : (first & 1u);
		return meta && (kind == XRAY_BUFFER_EXTENTS || kind == XRAY_NEW_BUFFER) ? 80 : 30;
	}
	return in->size % XRAY_BASIC_RECORD_SIZE == 0 ? 50 : 20;
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct xray_header hdr;
	struct xray_instr_map map, *known = NULL;
	/* The binary is checked first: a trace cannot be held against a bad map. */
	if (ctx->opts->instr_map_path) {
		char err[768];
		if (!tl_xray_instr_map_load(ctx->opts->instr_map_path, &map, err, sizeof err)) {
			tl_refuse(ctx, err);
			return;
		}
		known = &map;
	}
	if (!tl_xray_header_read(ctx, in, &hdr))
		return;
	if (hdr.type == XRAY_TYPE_FDR)
		tl_xray_fdr_validate(ctx, in, &hdr, known);
	else
		tl_xray_basic_validate(ctx, in, &hdr, known);
}

const struct tl_format tl_format_xray = {
	TL_FORMAT_XRAY, "xray", "LLVM XRay trace (FDR versions 1-5, basic mode versions 1-3)",
	false, probe, validate,
};
