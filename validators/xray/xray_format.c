/* LLVM XRay: detection by content and the validator's entry point, which
 * reads the header and hands the data to the FDR or basic-mode walker. */
#include "format.h"
#include "xray.h"

#include <stdint.h>
#include <stdlib.h>

/* The header's version and type in one byte order, when they make sense. */
static bool plausible(const uint8_t *p, bool big)
{
	unsigned version = big ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
	unsigned type = big ? (unsigned)(p[2] << 8 | p[3]) : (unsigned)(p[3] << 8 | p[2]);
	if (type == XRAY_TYPE_FDR)
		return version >= 1 && version <= 5;
	return type == XRAY_TYPE_BASIC && version >= 1 && version <= 3;
}

/* compiler-rt names its logs xray-log.<program>.<id>; tools save them as .xray */
static bool named(const char *base)
{
	return tl_name_ends_with(base, ".xray") || strncmp(base, "xray-log.", 9) == 0;
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
		unsigned kind = xray_first_kind(first, big);
		bool meta = xray_first_is_metadata(first, big);
		return meta && (kind == XRAY_BUFFER_EXTENTS || kind == XRAY_NEW_BUFFER) ? 80 : 30;
	}
	return in->size % XRAY_BASIC_RECORD_SIZE == 0 ? 50 : 20;
}

/* Validation in steps (a stream that grows): the instrumentation map, the
 * header once its 32 bytes are there, then FDR buffers as they complete.
 * Basic mode and FDR version 1 frame records by the file size, so they are
 * walked when the input is final. validate() is the same with one step. */
struct xray_steps {
	enum { XS_MAP, XS_HEADER, XS_BUFFERS, XS_AT_END, XS_DONE } phase;
	struct xray_instr_map map;
	const struct xray_instr_map *known;  /* &map with --instr-map, else NULL */
	struct xray_header hdr;
	struct xray_fdr_walk fdr;
};

static void *steps_begin(struct tl_ctx *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct xray_steps));
}

static void steps_step(void *state, struct tl_ctx *ctx, const struct tl_input *in, bool final)
{
	struct xray_steps *s = state;
	if (s->phase == XS_MAP) {
		/* The binary is checked first: a trace cannot be held against a bad map. */
		s->phase = XS_HEADER;
		if (ctx->opts->instr_map_path) {
			char err[768];
			if (!tl_xray_instr_map_load(ctx->opts->instr_map_path, &s->map, err, sizeof err)) {
				tl_refuse(ctx, err);
				s->phase = XS_DONE;
				return;
			}
			s->known = &s->map;
		}
	}
	if (s->phase == XS_HEADER) {
		if (!final && in->size < XRAY_HEADER_SIZE)
			return;
		if (!tl_xray_header_read(ctx, in, &s->hdr)) {
			s->phase = XS_DONE;
			return;
		}
		s->phase = XS_AT_END;
		if (s->hdr.type == XRAY_TYPE_FDR) {
			tl_xray_fdr_begin(&s->fdr, ctx, in, &s->hdr, s->known);
			s->phase = XS_BUFFERS;
		}
	}
	if (s->phase == XS_BUFFERS) {
		tl_xray_fdr_step(&s->fdr, final);
		if (final) {
			tl_xray_fdr_end(&s->fdr);
			s->phase = XS_DONE;
		}
	} else if (s->phase == XS_AT_END && final) {
		tl_xray_basic_validate(ctx, in, &s->hdr, s->known);
		s->phase = XS_DONE;
	}
}

static void steps_end(void *state)
{
	struct xray_steps *s = state;
	if (s->phase == XS_BUFFERS)
		tl_xray_fdr_end(&s->fdr);
	free(s);
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct xray_steps *s = steps_begin(ctx);
	if (!s) {
		tl_out_of_memory(ctx);
		return;
	}
	steps_step(s, ctx, in, true);
	steps_end(s);
}

static const struct tl_format_stepper steps = {
	.begin = steps_begin,
	.step = steps_step,
	.end = steps_end,
};

const struct tl_format tl_format_xray = {
	.id = TL_FORMAT_XRAY,
	.name = "xray",
	.summary = "LLVM XRay trace (FDR versions 1-5, basic mode versions 1-3)",
	.probe = probe,
	.validate = validate,
	.stepper = &steps,
	.describe = tl_xray_describe,
	.named = named,
};
