/* Text style: the compiler convention PATH:LOCATION: severity: message [RULE],
 * then one verdict line per path. LOCATION is LINE:COL for text and JSON,
 * "offset N" (with "(record R)" where known) for binary data. */
#include "writer.h"
#include "excerpt.h"
#include "safe_text.h"

#include <inttypes.h>

/* gcc's colours: the location in bold, the severity in its colour. */
static const char *severity_color(enum tl_severity s)
{
	return s == TL_ERROR ? "\033[01;31m" : s == TL_WARNING ? "\033[01;35m" : "\033[01;36m";
}

static void text_begin(struct tl_writer *w) { (void)w; }

static void text_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	if (w->quiet)
		return;
	/* a file name or message must not forge lines or send terminal escapes */
	char raw[4096], path[4 * 4096], message[4 * 1024], pointer[4 * 1024];
	tl_diag_path(raw, sizeof raw, w->path, d);
	tl_text_escape(path, sizeof path, raw);
	tl_text_escape(message, sizeof message, d->message);
	if (w->color)
		fputs("\033[01m", w->out);
	if (d->loc.line)
		fprintf(w->out, "%s:%" PRIu32 ":%" PRIu32, path, d->loc.line, d->loc.column);
	else
		/* not PATH:N: a gcc problem matcher would take N for a line of the file */
		fprintf(w->out, "%s:offset %" PRIu64, path, d->loc.offset);
	if (d->loc.record >= 0)
		fprintf(w->out, " (record %" PRId64 ")", d->loc.record);
	if (w->color)
		fprintf(w->out, ":\033[m %s%s:\033[m %s", severity_color(d->severity),
			tl_severity_name(d->severity), message);
	else
		fprintf(w->out, ": %s: %s", tl_severity_name(d->severity), message);
	if (d->loc.pointer) {
		tl_text_escape(pointer, sizeof pointer, d->loc.pointer);
		fprintf(w->out, " at %s", *pointer ? pointer : "(root)");
	}
	fprintf(w->out, " [%s]\n", d->rule->id);
	if (w->context)
		tl_write_excerpt(w->out, d, w->color);
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

static void text_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		     const char *message)
{
	char path[4 * 4096], why[4 * 1024];
	tl_text_escape(path, sizeof path, w->path);
	if (status != TL_OK) {
		tl_text_escape(why, sizeof why, message ? message : "cannot validate");
		fprintf(w->out, "%s: error: %s\n", path, why);
		return;
	}
	uint64_t known = r->known_errors + r->known_warnings + r->known_notes;
	char in_baseline[64] = "";
	if (known)
		snprintf(in_baseline, sizeof in_baseline, "; %" PRIu64 " in the baseline", known);
	fprintf(w->out, "%s: %s (%s: %" PRIu64 " error%s, %" PRIu64 " warning%s%s%s%s%s)\n", path,
		r->valid ? "valid" : "invalid", tl_format_name(r->format), r->errors,
		plural(r->errors), r->warnings, plural(r->warnings), r->detail[0] ? "; " : "",
		r->detail, in_baseline, r->truncated ? "; reporting stopped at --max-errors" : "");
}

static int text_finish(struct tl_writer *w) { return fflush(w->out) == 0 ? 0 : -1; }

/* -q lists skipped paths once, in the closing count (the command line's job) */
static void text_skipped(struct tl_writer *w, const char *reason)
{
	char path[4 * 4096], why[4 * 1024];
	if (w->quiet)
		return;
	tl_text_escape(path, sizeof path, w->path);
	tl_text_escape(why, sizeof why, reason);
	fprintf(w->out, "%s: skipped: %s\n", path, why);
}

const struct tl_writer_ops tl_text_writer = {
	.begin = text_begin,
	.diag = text_diag,
	.end = text_end,
	.finish = text_finish,
	.skipped = text_skipped,
};
