/* GDB trace files (tfile): detection and the validator's three passes:
 * header, description section, frame section. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cursor.h"
#include "format.h"
#include "tfile.h"

static const uint8_t magic[7] = { 0x7f, 'T', 'R', 'A', 'C', 'E', 0 };

/* The first n bytes of the file, if it has them. */
static bool first_bytes(const struct tl_input *in, size_t n, const uint8_t **bytes)
{
	struct tl_cursor c;
	return tl_cursor_at(&c, in->data, in->size, 0, n) && tl_cursor_bytes(&c, n, bytes);
}

static bool named(const char *base)
{
	return tl_name_ends_with(base, ".tf") || tl_name_ends_with(base, ".tfile");
}

static int probe(const struct tl_input *in, const char **why_not)
{
	const uint8_t *h;
	if (first_bytes(in, 6, &h) && memcmp(h, magic, 6) == 0)
		return 100;
	*why_not = "no 7f \"TRACE\" header";
	return 0;
}

static bool check_header(struct tl_ctx *ctx, const struct tl_input *in)
{
	char q[64];
	struct tl_location loc = tl_at(0);
	const uint8_t *h;
	if (!first_bytes(in, TFILE_HEADER_SIZE, &h) || memcmp(h, magic, 6) != 0 ||
	    h[7] != '\n' || h[6] < '0' || h[6] > '9') {
		size_t n = in->size < TFILE_HEADER_SIZE ? in->size : TFILE_HEADER_SIZE;
		tl_report(ctx, RULE_TFILE_HEADER_MAGIC, &loc,
			  MSG_TFILE_HEADER_MAGIC,
			  tl_quote(q, sizeof q, in->data, n),
			  in->size < TFILE_HEADER_SIZE ? " and the end of the file" : "");
		return false;
	}
	if (h[6] != '0') {
		loc = tl_at(6);
		tl_report(ctx, RULE_TFILE_HEADER_VERSION, &loc,
			  MSG_TFILE_HEADER_VERSION,
			  h[6]);
		return false;
	}
	return true;
}

/* Status figures that can be compared only once the frames are counted. */
static void check_counts(struct tl_ctx *ctx, const struct tfile_desc *d, uint64_t frames)
{
	struct tl_location loc = tl_at_text(d->status.offset, d->status.line, 1);
	if (d->has_tframes && d->tframes != frames)
		tl_report(ctx, RULE_TFILE_STATUS_TFRAMES, &loc,
			  MSG_TFILE_STATUS_TFRAMES,
			  (unsigned long long)frames, frames == 1 ? "" : "s",
			  (unsigned long long)d->tframes, (unsigned long long)d->tframes);
	if (d->has_tcreated && d->has_tframes && d->tcreated < d->tframes)
		tl_report(ctx, RULE_TFILE_STATUS_TCREATED, &loc,
			  MSG_TFILE_STATUS_TCREATED,
			  (unsigned long long)d->tcreated, (unsigned long long)d->tframes);
	if (d->has_tfree && d->has_tsize && d->tfree > d->tsize)
		tl_report(ctx, RULE_TFILE_STATUS_TFREE, &loc,
			  MSG_TFILE_STATUS_TFREE,
			  (unsigned long long)d->tfree, (unsigned long long)d->tsize);
}

/* Validation in steps (a stream that grows): the header once its 8 bytes
 * are there, the description once its closing empty line is, then frames
 * as they complete. The byte order decides how frames are read: detected,
 * it needs the whole frame section, so only --endian (or a final step) lets
 * frames go before the end. validate() is begin, one final step and end.
 * A stream's input is a growing file with no mapping: each step maps what
 * has arrived (the validator reads through in->data). */
struct tfile_steps {
	enum { TS_HEADER, TS_DESCRIPTION, TS_ORDER, TS_FRAMES, TS_DONE } phase;
	struct tfile_desc desc;
	uint64_t scan;            /* where to look on for the description's end */
	uint64_t frames_at;
	bool big;
	const char *how;
	struct tfile_frame_walk frames;
	struct tl_input view;     /* what has arrived, mapped (streams only) */
	uint8_t *head;            /* header and description, read (inputs with only a descriptor) */
	struct tl_input text;     /* head as an input */
};

static void *steps_begin(struct tl_ctx *ctx)
{
	(void)ctx;
	struct tfile_steps *s = calloc(1, sizeof *s);
	if (s)
		s->scan = TFILE_HEADER_SIZE - 1;
	return s;
}

/* An input with only a descriptor (a file the browser reads in slices): the
 * header and the description, up to its closing empty line, are read into
 * memory for the line passes, which grow with the description anyway; the
 * frames are read through a window (tfile_window.c). Without an empty line
 * the description is the whole file. NULL when memory runs out. */
static const struct tl_input *text_of(struct tfile_steps *s, const struct tl_input *in)
{
	if (in->data || !in->has_fd || in->growing)
		return in;
	if (s->head)
		return &s->text;
	size_t cap = 0, len = 0;
	uint64_t scan = TFILE_HEADER_SIZE - 1;
	bool ended = false;
	while (!ended && len < in->size) {
		size_t more = cap ? cap : (size_t)64 << 10;
		if (more > in->size - len)
			more = (size_t)(in->size - len);
		uint8_t *grown = realloc(s->head, len + more);
		if (!grown)
			return NULL;
		s->head = grown;
		cap = len + more;
		size_t got = tl_input_read_at(in, len, s->head + len, more);
		len += got;
		/* the bytes read so far, from the last one looked at */
		struct tl_cursor c;
		const uint8_t *p;
		uint64_t from = scan;
		if (from < len && tl_cursor_at(&c, s->head, len, from, len - from) &&
		    tl_cursor_bytes(&c, (size_t)(len - from), &p))
			for (; scan + 1 < len; scan++)
				if (p[scan - from] == '\n' && p[scan - from + 1] == '\n') {
					ended = true;
					len = (size_t)scan + 2;
					break;
				}
		if (got < more)
			break;
	}
	tl_input_from_memory(&s->text, s->head, len, in->name);
	return &s->text;
}

static void unmap_view(struct tfile_steps *s)
{
	if (s->view.map)
		munmap(s->view.map, s->view.map_size);
	s->view.map = NULL;
	s->view.data = NULL;
}

/* The input as the validator reads it: itself when mapped (a file) or given
 * as a descriptor alone (text_of), else, for a stream, a fresh mapping of
 * the bytes that have arrived. NULL when it cannot be had. */
static const struct tl_input *view_of(struct tfile_steps *s, struct tl_ctx *ctx, const struct tl_input *in)
{
	if (in->data || in->size == 0 || !in->growing)
		return in;
	unmap_view(s);
	void *m = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, in->fd, 0);
	if (m == MAP_FAILED) {
		tl_unreadable(ctx, "cannot map %s: %s", ctx->path ? ctx->path : "the stream", strerror(errno));
		return NULL;
	}
	uint64_t released = s->view.released;
	s->view = *in;
	s->view.map = m;
	s->view.data = m;
	s->view.map_size = in->size;
	s->view.released = released;
	return &s->view;
}

/* Whether the description's closing empty line ("\n\n" after the header) has arrived. */
static bool description_ends(struct tfile_steps *s, const struct tl_input *in)
{
	if (in->size < TFILE_HEADER_SIZE + 1)
		return false;
	/* the bytes not scanned yet, from the last one looked at */
	struct tl_cursor c;
	const uint8_t *p;
	uint64_t from = s->scan;
	if (from >= in->size || !tl_cursor_at(&c, in->data, in->size, from, in->size - from) ||
	    !tl_cursor_bytes(&c, (size_t)(in->size - from), &p))
		return false;
	for (; s->scan + 1 < in->size; s->scan++)
		if (p[s->scan - from] == '\n' && p[s->scan - from + 1] == '\n')
			return true;
	return false;
}

static void steps_step(void *state, struct tl_ctx *ctx, const struct tl_input *grown, bool final)
{
	struct tfile_steps *s = state;
	if (s->phase == TS_DONE || (!final && grown->size < TFILE_HEADER_SIZE))
		return;
	const struct tl_input *in = view_of(s, ctx, grown);
	const struct tl_input *text = in ? text_of(s, in) : NULL;
	if (!in || !text) {
		if (in)
			tl_out_of_memory(ctx);
		s->phase = TS_DONE;
		return;
	}
	if (s->phase == TS_HEADER) {
		if (!check_header(ctx, text)) {
			tl_set_detail(ctx, "frames not read: the header is not usable");
			s->phase = TS_DONE;
			return;
		}
		s->phase = TS_DESCRIPTION;
	}
	if (s->phase == TS_DESCRIPTION) {
		if (!final && !description_ends(s, in))
			return;
		s->frames_at = tl_tfile_read_description(ctx, text, &s->desc);
		tl_tfile_finish_description(ctx, &s->desc);
		if (s->desc.out_of_memory)
			tl_out_of_memory(ctx);
		if (s->frames_at == 0)
			tl_set_detail(ctx, "frames not read: the description does not end");
		if (s->frames_at == 0 || tl_stopped(ctx)) {
			s->phase = TS_DONE;
			return;
		}
		s->phase = TS_ORDER;
	}
	if (s->phase == TS_ORDER) {
		if (!final && ctx->opts->endian == TL_ENDIAN_AUTO)
			return;
		s->how = tl_tfile_choose_endian(ctx, in, s->frames_at, &s->desc, &s->big);
		tl_tfile_frames_begin(&s->frames, ctx, &s->desc, s->big, s->frames_at);
		s->phase = TS_FRAMES;
	}
	tl_tfile_frames_step(&s->frames, in, final);
	if (!final)
		return;
	if (s->desc.out_of_memory)
		tl_out_of_memory(ctx);
	const struct tfile_frame_result *r = &s->frames.out;
	if (r->complete && !tl_stopped(ctx))
		check_counts(ctx, &s->desc, r->frames);
	tl_set_detail(ctx, "%s-endian (%s), %llu frame%s", s->big ? "big" : "little", s->how,
		      (unsigned long long)r->frames, r->frames == 1 ? "" : "s");
	s->phase = TS_DONE;
}

static void steps_end(void *state)
{
	struct tfile_steps *s = state;
	unmap_view(s);
	tl_tfile_desc_free(&s->desc);
	free(s->head);
	free(s);
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct tfile_steps *s = steps_begin(ctx);
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

const struct tl_format tl_format_tfile = {
	.id = TL_FORMAT_TFILE,
	.name = "tfile",
	.summary = "GDB trace file (tsave output, read by target tfile)",
	.probe = probe,
	.validate = validate,
	.stepper = &steps,
	.describe = tl_tfile_describe,
	.named = named,
};
