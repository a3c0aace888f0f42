/* Streaming validation (tracelint.h, tl_stream_*): the fed bytes go to an
 * unlinked temporary file. A format that validates in steps (its stepper,
 * format.h: XRay) is run over that file as it grows, so its diagnostics
 * arrive while the trace is fed; any other format, or one to be detected,
 * is validated whole when the stream finishes. Either way the validator is
 * the one that reads whole files, so the chunking cannot change a result. */
#include "format.h"
#include "decompress.h"
#include "detect.h"
#include "input.h"
#include "write_cap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tl_stream {
	struct tl_options opts;
	char *name;
	int fd;
	uint64_t fed, cap;
	bool by_rlimit;
	enum tl_status failed;       /* TL_OK until a feed fails */
	char why[512];
	/* Validation in steps (stepper not NULL): its input, context and state. */
	bool steps_possible;         /* the format is given and validates in steps */
	const struct tl_format_stepper *stepper;
	void *state;
	struct tl_input in;
	struct tl_result result;
	struct tl_ctx ctx;
	char err[512];
};

/* Bytes enough to tell compressed data (decompress.h), which is validated
 * whole at the end, from the format's own. */
enum { SNIFF_BYTES = 10 };

/* Validation in steps when the format is given and validates that way, the
 * options apply to it as they would to a file (see validate.c), and the
 * bytes are not compressed. Started once SNIFF_BYTES are there. */
static void start_steps(struct tl_stream *s)
{
	/* A format with a stepper: steps_possible is set for no other. */
	const struct tl_format *f = tl_format_get(s->opts.format);
	uint8_t head[SNIFF_BYTES];
	s->steps_possible = false;
	if ((s->opts.pair_path && f->id != TL_FORMAT_DCFG_TRACE) ||
	    pread(s->fd, head, sizeof head, 0) != (ssize_t)sizeof head ||
	    tl_compression_sniff(head, sizeof head) != TL_COMPRESSION_NONE)
		return;
	s->in.name = s->name;
	s->in.fd = s->fd;
	s->in.has_fd = true;
	s->in.growing = true;
	s->result.format = f->id;
	struct tl_ctx ctx = { .opts = &s->opts, .result = &s->result, .path = s->name,
			      .err = s->err, .errlen = sizeof s->err, .input = &s->in, .format = f };
	s->ctx = ctx;
	tl_rule_policy_resolve(&s->opts, s->ctx.severity);
	s->state = f->stepper->begin(&s->ctx);
	if (s->state)
		s->stepper = f->stepper;
}

struct tl_stream *tl_stream_new(enum tl_format_id format, const char *name,
				const struct tl_options *opts, char *err, size_t errlen)
{
	struct tl_stream *s = calloc(1, sizeof *s);
	if (!s || !(s->name = strdup(name ? name : "stream"))) {
		free(s);
		if (err && errlen)
			snprintf(err, errlen, "cannot start a stream: out of memory");
		return NULL;
	}
	tl_options_init(&s->opts);
	size_t n = opts->struct_size;
	memcpy(&s->opts, opts, n >= sizeof n && n <= sizeof s->opts ? n : sizeof s->opts);
	s->opts.struct_size = sizeof s->opts;
	s->opts.format = format;
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-stream-XXXXXX", dir && *dir ? dir : "/tmp");
	s->fd = mkstemp(tmpl);
	if (s->fd < 0) {
		if (err && errlen)
			snprintf(err, errlen, "cannot make a file for the stream in %s: %s (set TMPDIR to a writable directory)",
				 dir && *dir ? dir : "/tmp", strerror(errno));
		free(s->name);
		free(s);
		return NULL;
	}
	unlink(tmpl);
	s->cap = tl_write_cap(s->opts.stdin_limit ? s->opts.stdin_limit : TL_STDIN_LIMIT_DEFAULT,
			      &s->by_rlimit);
	const struct tl_format *f = tl_format_get(format);
	s->steps_possible = f && f->stepper;
	return s;
}

enum tl_status tl_stream_feed(struct tl_stream *s, const void *data, size_t size)
{
	if (s->failed != TL_OK)
		return s->failed;
	if (size > s->cap - s->fed) {
		snprintf(s->why, sizeof s->why, "cannot keep %s: expected at most %llu bytes (%s), found more",
			 s->name, (unsigned long long)s->cap,
			 s->by_rlimit ? "the file size limit, ulimit -f" : "stdin_limit");
		return s->failed = TL_E_IO;
	}
	if (!tl_write_all(s->fd, data, size)) {
		snprintf(s->why, sizeof s->why, "cannot keep %s: %s (set TMPDIR to a larger file system)",
			 s->name, strerror(errno));
		return s->failed = TL_E_IO;
	}
	s->fed += size;
	if (s->steps_possible && s->fed >= SNIFF_BYTES)
		start_steps(s);
	if (s->stepper && !s->ctx.refused && !s->ctx.unreadable) {
		s->in.size = s->fed;
		s->stepper->step(s->state, &s->ctx, &s->in, false);
	}
	return TL_OK;
}

/* The last step, and the end every validation has (tl_conclude). */
static enum tl_status finish_steps(struct tl_stream *s, struct tl_result *r, char *err, size_t errlen)
{
	if (!s->ctx.refused && !s->ctx.unreadable) {
		s->in.size = s->fed;
		s->stepper->step(s->state, &s->ctx, &s->in, true);
	}
	enum tl_status status = tl_conclude(&s->ctx);
	*r = s->result;
	if (err && errlen)
		snprintf(err, errlen, "%s", s->err);
	return status;
}

static void stream_free(struct tl_stream *s)
{
	if (s->stepper)
		s->stepper->end(s->state);
	if (s->fd >= 0)
		close(s->fd);
	free(s->name);
	free(s);
}

enum tl_status tl_stream_finish_sized(struct tl_stream *s, struct tl_result *result,
				      size_t result_size, char *err, size_t errlen)
{
	struct tl_result r;
	memset(&r, 0, sizeof r);
	enum tl_status status = s->failed;
	if (status != TL_OK) {
		if (err && errlen)
			snprintf(err, errlen, "%s", s->why);
	} else if (s->stepper) {
		status = finish_steps(s, &r, err, errlen);
	} else {
		struct tl_input in;
		memset(&in, 0, sizeof in);
		int fd = s->fd;
		s->fd = -1; /* the input owns it now */
		status = tl_input_from_fd(&in, fd, s->name, err, errlen) ? TL_OK : TL_E_IO;
		/* a broken compressed stream is judged as a file of that name would be */
		if (status == TL_OK || tl_stream_defect_judged(&in, s->opts.format, s->name)) {
			status = tl_validate_input(&in, s->name, &s->opts, &r, err, errlen);
			tl_input_close(&in);
		}
	}
	memcpy(result, &r, result_size < sizeof r ? result_size : sizeof r);
	stream_free(s);
	return status;
}

void tl_stream_free(struct tl_stream *s)
{
	if (s)
		stream_free(s);
}
