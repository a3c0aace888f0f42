/* JSON style: one document, {"tool":..., "files":[{path, format, valid,
 * errors, warnings, diagnostics:[...]}]}, written as it goes (json_emit.h).
 * A file's counts come before its diagnostics, so the diagnostics wait in a
 * spool (spool.h) until the file ends: memory stays flat however many. */
#include "writer.h"
#include "json_emit.h"
#include "safe_text.h"
#include "spool.h"

#include <errno.h>

/* Levels of the document: the files array's items, their keys, the
 * diagnostics' items and their keys. */
enum { FILE_LEVEL = 2, FILE_KEYS = 3, DIAG_LEVEL = 4, DIAG_KEYS = 5 };

static void ensure_head(struct tl_writer *w)
{
	if (w->started)
		return;
	w->started = true;
	w->first_item = true;
	bool first = true, tool_first = true;
	fputs("{\n", w->out);
	tl_je_key(w->out, &first, 1, "tool");
	fputs("{\n", w->out);
	tl_je_kstr(w->out, &tool_first, 2, "name", "tracelint");
	tl_je_kstr(w->out, &tool_first, 2, "version", TRACELINT_VERSION);
	tl_je_close(w->out, tool_first, 1, '}');
	tl_je_key(w->out, &first, 1, "files");
	fputs("[\n", w->out);
}

static void lose(struct tl_writer *w)
{
	if (!w->lost)
		w->lost_errno = errno ? errno : EIO;
	w->lost = true;
}

static void json_begin(struct tl_writer *w)
{
	ensure_head(w);
	w->first_diag = true;
	if (w->spool && fseek(w->spool, 0, SEEK_SET) != 0)
		lose(w);
}

static void json_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	if (!w->spool && !w->lost && !(w->spool = tl_spool_open()))
		lose(w);
	if (!w->spool)
		return;
	FILE *f = w->spool;
	bool first = true;
	tl_je_item(f, &w->first_diag, DIAG_LEVEL);
	fputs("{\n", f);
	tl_je_kstr(f, &first, DIAG_KEYS, "severity", tl_severity_name(d->severity));
	tl_je_kstr(f, &first, DIAG_KEYS, "rule", d->rule->id);
	tl_je_ktext(f, &first, DIAG_KEYS, "message", d->message);
	tl_je_ku64(f, &first, DIAG_KEYS, "offset", d->loc.offset);
	if (d->loc.line) {
		tl_je_ku64(f, &first, DIAG_KEYS, "line", d->loc.line);
		tl_je_ku64(f, &first, DIAG_KEYS, "column", d->loc.column);
	}
	if (d->loc.record >= 0)
		tl_je_ku64(f, &first, DIAG_KEYS, "record", (uint64_t)d->loc.record);
	if (d->loc.member)
		tl_je_ktext(f, &first, DIAG_KEYS, "member", d->loc.member);
	if (d->loc.pointer)
		tl_je_ktext(f, &first, DIAG_KEYS, "pointer", d->loc.pointer);
	tl_je_close(f, first, DIAG_LEVEL, '}');
	if (ferror(f))
		lose(w);
}

static void json_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		     const char *message)
{
	FILE *out = w->out;
	bool first = true;
	tl_je_item(out, &w->first_item, FILE_LEVEL);
	fputs("{\n", out);
	tl_je_ktext(out, &first, FILE_KEYS, "path", w->path);
	if (!tl_utf8_valid(w->path)) {
		/* the exact bytes, for a path that is not UTF-8 */
		char hexpath[2 * 4096 + 1];
		tl_hex_of(hexpath, sizeof hexpath, w->path);
		tl_je_kstr(out, &first, FILE_KEYS, "path_hex", hexpath);
	}
	if (status == TL_OK) {
		tl_je_kstr(out, &first, FILE_KEYS, "format", tl_format_name(r->format));
		tl_je_key(out, &first, FILE_KEYS, "valid");
		tl_je_bool(out, r->valid);
		tl_je_ku64(out, &first, FILE_KEYS, "errors", r->errors);
		tl_je_ku64(out, &first, FILE_KEYS, "warnings", r->warnings);
		tl_je_ku64(out, &first, FILE_KEYS, "notes", r->notes);
		tl_je_key(out, &first, FILE_KEYS, "truncated");
		tl_je_bool(out, r->truncated);
		if (r->detail[0])
			tl_je_ktext(out, &first, FILE_KEYS, "detail", r->detail);
		if (w->baseline) {
			tl_je_ku64(out, &first, FILE_KEYS, "known_errors", r->known_errors);
			tl_je_ku64(out, &first, FILE_KEYS, "known_warnings", r->known_warnings);
			tl_je_ku64(out, &first, FILE_KEYS, "known_notes", r->known_notes);
		}
	} else {
		tl_je_key(out, &first, FILE_KEYS, "format");
		fputs("null", out);
		tl_je_key(out, &first, FILE_KEYS, "valid");
		tl_je_bool(out, false);
		tl_je_ktext(out, &first, FILE_KEYS, "error", message ? message : "cannot validate");
	}
	tl_je_key(out, &first, FILE_KEYS, "diagnostics");
	fputs("[\n", out);
	if (!w->first_diag && w->spool) {
		long n = ftell(w->spool);
		if (n < 0 || !tl_spool_copy(w->spool, n, out))
			lose(w);
	}
	tl_je_close(out, w->first_diag, FILE_KEYS, ']');
	tl_je_close(out, first, FILE_LEVEL, '}');
}

static int json_finish(struct tl_writer *w)
{
	ensure_head(w);
	tl_je_close(w->out, w->first_item, 1, ']');
	if (w->any_skipped) {
		fputs(",\n  \"skipped\":[\n", w->out);
		long n = ftell(w->skip_spool);
		if (n < 0 || !tl_spool_copy(w->skip_spool, n, w->out))
			lose(w);
		tl_je_close(w->out, false, 1, ']');
	}
	fputs("\n}\n", w->out);
	if (w->spool)
		fclose(w->spool);
	if (w->skip_spool)
		fclose(w->skip_spool);
	if (w->lost) {
		errno = w->lost_errno;
		return -1;
	}
	return ferror(w->out) || fflush(w->out) != 0 ? -1 : 0;
}

/* "skipped": [{path, reason}] beside "files", which hold verdicts only;
 * spooled until the files end. */
static void json_skipped(struct tl_writer *w, const char *reason)
{
	ensure_head(w);
	if (!w->skip_spool && !w->lost && !(w->skip_spool = tl_spool_open()))
		lose(w);
	if (!w->skip_spool)
		return;
	FILE *f = w->skip_spool;
	bool first = true;
	tl_je_item(f, &(bool){ !w->any_skipped }, 2);
	w->any_skipped = true;
	fputs("{\n", f);
	tl_je_ktext(f, &first, 3, "path", w->path);
	tl_je_ktext(f, &first, 3, "reason", reason);
	tl_je_close(f, first, 2, '}');
	if (ferror(f))
		lose(w);
}

const struct tl_writer_ops tl_json_writer = {
	.begin = json_begin,
	.diag = json_diag,
	.end = json_end,
	.finish = json_finish,
	.skipped = json_skipped,
};
