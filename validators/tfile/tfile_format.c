/* GDB trace files (tfile): detection and the validator's three passes:
 * header, description section, frame section. */
#include <string.h>

#include "format.h"
#include "tfile.h"

static const uint8_t magic[7] = { 0x7f, 'T', 'R', 'A', 'C', 'E', 0 };

static int probe(const struct tl_input *in, const char **why_not)
{
	if (in->size >= 6 && memcmp(in->data, magic, 6) == 0)
		return 100;
	*why_not = "no 7f \"TRACE\" header";
	return 0;
}

static bool check_header(struct tl_ctx *ctx, const struct tl_input *in)
{
	char q[64];
	struct tl_location loc = tl_at(0);
	if (in->size < TFILE_HEADER_SIZE || memcmp(in->data, magic, 6) != 0 ||
	    in->data[7] != '\n' || in->data[6] < '0' || in->data[6] > '9') {
		size_t n = in->size < TFILE_HEADER_SIZE ? in->size : TFILE_HEADER_SIZE;
		tl_report(ctx, RULE_TFILE_HEADER_MAGIC, &loc,
			  "expected the 8 header bytes 7f \"TRACE0\" 0a, found \"%s\"%s",
			  tl_quote(q, sizeof q, in->data, n),
			  in->size < TFILE_HEADER_SIZE ? " and the end of the file" : "");
		return false;
	}
	if (in->data[6] != '0') {
		loc = tl_at(6);
		tl_report(ctx, RULE_TFILE_HEADER_VERSION, &loc,
			  "expected trace file version 0, found version %c (gdb reads only 0)",
			  in->data[6]);
		return false;
	}
	return true;
}

/* Status figures that can be compared only once the frames are counted. */
static void check_counts(struct tl_ctx *ctx, const struct tfile_desc *d, uint64_t frames)
{
	struct tl_location loc = tl_at_text(d->status_offset, d->status_line, 1);
	if (d->has_tframes && d->tframes != frames)
		tl_report(ctx, RULE_TFILE_STATUS_TFRAMES, &loc,
			  "expected tframes to equal the %llu frame%s in the file, found tframes:%llx (%llu)",
			  (unsigned long long)frames, frames == 1 ? "" : "s",
			  (unsigned long long)d->tframes, (unsigned long long)d->tframes);
	if (d->has_tcreated && d->has_tframes && d->tcreated < d->tframes)
		tl_report(ctx, RULE_TFILE_STATUS_TCREATED, &loc,
			  "expected tcreated (0x%llx) to be at least tframes (0x%llx)",
			  (unsigned long long)d->tcreated, (unsigned long long)d->tframes);
	if (d->has_tfree && d->has_tsize && d->tfree > d->tsize)
		tl_report(ctx, RULE_TFILE_STATUS_TFREE, &loc,
			  "expected tfree (0x%llx) to be at most tsize (0x%llx)",
			  (unsigned long long)d->tfree, (unsigned long long)d->tsize);
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	if (!check_header(ctx, in)) {
		tl_set_detail(ctx, "frames not read: the header is not usable");
		return;
	}
	struct tfile_desc desc;
	memset(&desc, 0, sizeof desc);
	uint64_t frames_at = tl_tfile_read_description(ctx, in, &desc);
	tl_tfile_finish_description(ctx, &desc);
	if (frames_at == 0)
		tl_set_detail(ctx, "frames not read: the description does not end");
	if (frames_at != 0 && !tl_stopped(ctx)) {
		bool big = false;
		const char *how = tl_tfile_choose_endian(ctx, in, frames_at, &desc, &big);
		struct tfile_frame_result frames = { 0 };
		tl_tfile_read_frames(ctx, in, frames_at, &desc, big, &frames);
		if (frames.complete && !tl_stopped(ctx))
			check_counts(ctx, &desc, frames.frames);
		tl_set_detail(ctx, "%s-endian (%s), %llu frame%s", big ? "big" : "little",
			      how, (unsigned long long)frames.frames,
			      frames.frames == 1 ? "" : "s");
	}
	tl_tfile_desc_free(&desc);
}

const struct tl_format tl_format_tfile = {
	TL_FORMAT_TFILE, "tfile", "GDB trace file (tsave output, read by target tfile)", false,
	probe, validate, NULL, /* validated whole when a stream finishes */
};
