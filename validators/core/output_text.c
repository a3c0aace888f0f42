/* Text style: the compiler convention PATH:LOCATION: severity: message [RULE],
 * then one verdict line per path. */
#include "writer.h"

#include <inttypes.h>

static void text_begin(struct tl_writer *w) { (void)w; }

static void text_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	if (w->quiet)
		return;
	char path[4096];
	tl_diag_path(path, sizeof path, w->path, d);
	if (d->loc.line)
		fprintf(w->out, "%s:%" PRIu32 ":%" PRIu32, path, d->loc.line, d->loc.column);
	else
		fprintf(w->out, "%s:%" PRIu64, path, d->loc.offset);
	if (d->loc.record >= 0)
		fprintf(w->out, " (record %" PRId64 ")", d->loc.record);
	fprintf(w->out, ": %s: %s", tl_severity_name(d->severity), d->message);
	if (d->loc.pointer)
		fprintf(w->out, " at %s", *d->loc.pointer ? d->loc.pointer : "(root)");
	fprintf(w->out, " [%s]\n", d->rule->id);
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

static void text_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		     const char *message)
{
	if (status != TL_OK) {
		fprintf(w->out, "%s: error: %s\n", w->path, message ? message : "cannot validate");
		return;
	}
	fprintf(w->out, "%s: %s (%s: %" PRIu64 " error%s, %" PRIu64 " warning%s%s%s%s)\n", w->path,
		r->valid ? "valid" : "invalid", tl_format_name(r->format), r->errors,
		plural(r->errors), r->warnings, plural(r->warnings), r->detail[0] ? "; " : "",
		r->detail, r->truncated ? "; reporting stopped at --max-errors" : "");
}

static int text_finish(struct tl_writer *w) { return fflush(w->out) == 0 ? 0 : -1; }

const struct tl_writer_ops tl_text_writer = { text_begin, text_diag, text_end, text_finish };
