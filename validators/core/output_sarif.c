/* SARIF 2.1.0 style, as GitHub code scanning reads it: the whole rule
 * catalog under tool.driver.rules and one result per diagnostic, written as
 * they arrive (json_emit.h); the notifications of paths that could not be
 * validated follow the results, so they wait in a spool (spool.h). */
#include "writer.h"
#include "json_emit.h"
#include "safe_text.h"
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Where a rule's documentation lives: its row in the catalog of its format. */
#define TRACELINT_HOME "https://github.com/tracelint/tracelint"
#define CATALOG_BASE TRACELINT_HOME "/blob/main/specs/"

/* {"text": ...} at level, its key at level + 1. */
static void text_object(FILE *f, int level, const char *text)
{
	bool first = true;
	fputs("{\n", f);
	tl_je_ktext(f, &first, level + 1, "text", text);
	tl_je_close(f, first, level, '}');
}

static const char *sarif_level(enum tl_severity s)
{
	return s == TL_ERROR ? "error" : s == TL_WARNING ? "warning" : "note";
}

/* A rule's page where a team publishes the rule pages (base + "<ID>.md",
 * as make install writes them); by default the catalog file its row is in,
 * specs/<format>.md ("core" rules too). */
static void help_uri(char *buf, size_t len, const char *base, const struct tl_rule_info *r)
{
	if (base)
		snprintf(buf, len, "%s%s.md", base, r->id);
	else
		snprintf(buf, len, "%s%s.md", CATALOG_BASE, r->format);
}

static void rule_help(FILE *f, int level, const struct tl_rule_info *r, const char *uri)
{
	char text[2048 + 4160], markdown[2304 + 4160];
	snprintf(text, sizeof text, "%s Severity: %s. Source: %s. Catalog: %s", r->summary,
		 tl_severity_name(r->severity), r->source, uri);
	snprintf(markdown, sizeof markdown, "**%s** (%s, %s)\n\n%s\n\nSource: %s. See [the %s catalog](%s).",
		 r->id, r->format, tl_severity_name(r->severity), r->summary, r->source, r->format, uri);
	bool first = true;
	fputs("{\n", f);
	tl_je_ktext(f, &first, level + 1, "text", text);
	tl_je_kstr(f, &first, level + 1, "markdown", markdown);
	tl_je_close(f, first, level, '}');
}

/* The catalog as tool.driver.rules, an array at level. */
static void rule_descriptors(FILE *f, int level, const char *base)
{
	bool any = true;
	int keys = level + 2;
	fputs("[\n", f);
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		char uri[4096 + 64];
		help_uri(uri, sizeof uri, base, r);
		bool first = true, cfg = true, props = true;
		tl_je_item(f, &any, level + 1);
		fputs("{\n", f);
		tl_je_kstr(f, &first, keys, "id", r->id);
		tl_je_key(f, &first, keys, "shortDescription");
		text_object(f, keys, r->summary);
		tl_je_key(f, &first, keys, "fullDescription");
		text_object(f, keys, r->summary);
		tl_je_key(f, &first, keys, "help");
		rule_help(f, keys, r, uri);
		tl_je_kstr(f, &first, keys, "helpUri", uri);
		tl_je_key(f, &first, keys, "defaultConfiguration");
		fputs("{\n", f);
		tl_je_kstr(f, &cfg, keys + 1, "level", sarif_level(r->severity));
		tl_je_close(f, cfg, keys, '}');
		tl_je_key(f, &first, keys, "properties");
		fputs("{\n", f);
		tl_je_kstr(f, &props, keys + 1, "format", r->format);
		tl_je_kstr(f, &props, keys + 1, "source", r->source);
		tl_je_close(f, props, keys, '}');
		tl_je_close(f, first, level + 1, '}');
	}
	tl_je_close(f, any, level, ']');
}

/* "file:///abs/dir/": a directory URI ends with '/' so that relative
 * references resolve inside it. */
static void root_uri(char *buf, size_t len, const char *dir)
{
	char encoded[3 * PATH_MAX + 1];
	tl_uri_encode(encoded, sizeof encoded, dir);
	snprintf(buf, len, "file://%s%s", encoded, strcmp(dir, "/") == 0 ? "" : "/");
}

/* The artifact URI of a path: relative to the source root when one is set
 * and the path lies below it (*based set), else as given (relative paths
 * are relative to the working directory) or a file:// URI when absolute. */
static void artifact_uri(const struct tl_writer *w, const char *path, char *uri, size_t len,
			 bool *based)
{
	char abs[2 * PATH_MAX + 2], cwd[PATH_MAX];
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	*based = false;
	if (w->source_root && strcmp(path, "-") != 0) {
		if (path[0] == '/')
			snprintf(abs, sizeof abs, "%s", path);
		else if (getcwd(cwd, sizeof cwd))
			snprintf(abs, sizeof abs, "%s/%s", cwd, path);
		else
			abs[0] = '\0';
		size_t n = strlen(w->source_root);
		if (abs[0] && strncmp(abs, w->source_root, n) == 0 && abs[n] == '/') {
			tl_uri_encode(uri, len, abs + n + 1);
			*based = true;
			return;
		}
	}
	if (path[0] == '/' && len > 8) {
		memcpy(uri, "file://", 7);
		tl_uri_encode(uri + 7, len - 7, path);
	} else {
		tl_uri_encode(uri, len, path);
	}
}

/* A byte column as a code-point column: the line's bytes before the
 * column, read back from the file, less their UTF-8 continuation bytes.
 * 0 when the file cannot be read again (standard input, a member). */
static uint64_t code_point_column(struct tl_writer *w, const char *path, uint64_t offset,
				  uint32_t byte_column)
{
	if (byte_column <= 1)
		return byte_column;
	uint32_t before = byte_column - 1;
	if (strcmp(path, "-") == 0 || offset < before || before > (1u << 20))
		return 0;
	/* opened once a path, not once a result */
	if (!w->column_tried) {
		w->column_tried = true;
		w->column_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	int fd = w->column_fd;
	if (fd < 0)
		return 0;
	uint64_t column = 1, start = offset - before;
	unsigned char buf[4096];
	while (before > 0) {
		size_t want = before < sizeof buf ? before : sizeof buf;
		ssize_t got = pread(fd, buf, want, (off_t)start);
		if (got <= 0) {
			column = 0;
			break;
		}
		for (ssize_t i = 0; i < got; i++)
			column += (buf[i] & 0xc0) != 0x80;
		start += (uint64_t)got;
		before -= (uint32_t)got;
	}
	return column;
}

static void close_column_file(struct tl_writer *w)
{
	if (w->column_tried && w->column_fd >= 0)
		close(w->column_fd);
	w->column_tried = false;
}

/* Levels of the document: the run's keys, the results' items and their keys. */
enum { RUN_KEYS = 3, RESULT_LEVEL = 4, RESULT_KEYS = 5, NOTE_LEVEL = 6 };

static void lose(struct tl_writer *w)
{
	if (!w->lost)
		w->lost_errno = errno ? errno : EIO;
	w->lost = true;
}

/* Everything before the first result: the tool, its rules, and the run's
 * settings, up to the opening of "results". */
static void ensure_run(struct tl_writer *w)
{
	if (w->started)
		return;
	w->started = true;
	w->first_item = true;
	FILE *f = w->out;
	bool root = true, run = true, tool = true, driver = true;
	fputs("{\n", f);
	tl_je_kstr(f, &root, 1, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	tl_je_kstr(f, &root, 1, "version", "2.1.0");
	tl_je_key(f, &root, 1, "runs");
	fputs("[\n", f);
	bool runs = true;
	tl_je_item(f, &runs, 2);
	fputs("{\n", f);
	tl_je_key(f, &run, RUN_KEYS, "tool");
	fputs("{\n", f);
	tl_je_key(f, &tool, 4, "driver");
	fputs("{\n", f);
	tl_je_kstr(f, &driver, 5, "name", "tracelint");
	tl_je_kstr(f, &driver, 5, "version", TRACELINT_VERSION);
	tl_je_kstr(f, &driver, 5, "informationUri", TRACELINT_HOME);
	tl_je_key(f, &driver, 5, "rules");
	rule_descriptors(f, 5, w->help_base);
	tl_je_close(f, driver, 4, '}');
	tl_je_close(f, tool, RUN_KEYS, '}');
	if (w->source_root) {
		char uri[3 * PATH_MAX + 64];
		root_uri(uri, sizeof uri, w->source_root);
		bool bases = true, base = true;
		tl_je_key(f, &run, RUN_KEYS, "originalUriBaseIds");
		fputs("{\n", f);
		tl_je_key(f, &bases, 4, "SRCROOT");
		fputs("{\n", f);
		tl_je_kstr(f, &base, 5, "uri", uri);
		tl_je_close(f, base, 4, '}');
		tl_je_close(f, bases, RUN_KEYS, '}');
	}
	/* columns of text inputs count characters (code points), not bytes */
	tl_je_kstr(f, &run, RUN_KEYS, "columnKind", "unicodeCodePoints");
	tl_je_key(f, &run, RUN_KEYS, "results");
	fputs("[\n", f);
}

static void sarif_begin(struct tl_writer *w)
{
	close_column_file(w);
	ensure_run(w);
}

static size_t rule_index(const struct tl_rule_info *rule)
{
	/* Catalog entries are one array, so the index is the pointer distance. */
	return (size_t)(rule - tl_rule_at(0));
}

/* One result. state: the baselineState, or NULL when no baseline is in use. */
static void add_result(struct tl_writer *w, const struct tl_diagnostic *d, const char *state)
{
	char path[4096], uri[3 * 4096];
	bool based;
	FILE *f = w->out;
	ensure_run(w);
	tl_diag_path(path, sizeof path, w->path, d);
	artifact_uri(w, path, uri, sizeof uri, &based);
	bool res = true, region = true, prints = true, artifact = true, physical = true,
	     location = true, locations = true;
	tl_je_item(f, &w->first_item, RESULT_LEVEL);
	fputs("{\n", f);
	tl_je_kstr(f, &res, RESULT_KEYS, "ruleId", d->rule->id);
	tl_je_ku64(f, &res, RESULT_KEYS, "ruleIndex", rule_index(d->rule));
	tl_je_kstr(f, &res, RESULT_KEYS, "level", sarif_level(d->severity));
	tl_je_key(f, &res, RESULT_KEYS, "message");
	uint64_t column = 0;
	if (d->loc.line) {
		column = d->loc.member ? 0 : code_point_column(w, w->path, d->loc.offset, d->loc.column);
		text_object(f, RESULT_KEYS, d->message);
	} else {
		/* A binary file has no lines: code scanning shows the result on the
		 * file (line 1), byteOffset holds the place, and the message says it. */
		char text[1200];
		int n = snprintf(text, sizeof text, "At byte %" PRIu64, d->loc.offset);
		if (d->loc.record >= 0)
			n += snprintf(text + n, sizeof text - (size_t)n, " (record %" PRId64 ")", d->loc.record);
		snprintf(text + n, sizeof text - (size_t)n, ": %s", d->message);
		text_object(f, RESULT_KEYS, text);
	}
	char key[32];
	tl_diagnostic_fingerprint(key, sizeof key, path, d);
	tl_je_key(f, &res, RESULT_KEYS, "partialFingerprints");
	fputs("{\n", f);
	tl_je_kstr(f, &prints, 6, "tracelintLocation/v1", key);
	tl_je_close(f, prints, RESULT_KEYS, '}');
	tl_je_key(f, &res, RESULT_KEYS, "locations");
	fputs("[\n", f);
	tl_je_item(f, &locations, 6);
	fputs("{\n", f);
	tl_je_key(f, &location, 7, "physicalLocation");
	fputs("{\n", f);
	tl_je_key(f, &physical, 8, "artifactLocation");
	fputs("{\n", f);
	tl_je_kstr(f, &artifact, 9, "uri", uri);
	if (based)
		tl_je_kstr(f, &artifact, 9, "uriBaseId", "SRCROOT");
	tl_je_close(f, artifact, 8, '}');
	tl_je_key(f, &physical, 8, "region");
	fputs("{\n", f);
	tl_je_ku64(f, &region, 9, "startLine", d->loc.line ? d->loc.line : 1);
	/* a file that cannot be read again: its byte column, right for ASCII */
	if (d->loc.line)
		tl_je_ku64(f, &region, 9, "startColumn", column ? column : d->loc.column);
	tl_je_ku64(f, &region, 9, "byteOffset", d->loc.offset);
	tl_je_close(f, region, 8, '}');
	tl_je_close(f, physical, 7, '}');
	tl_je_close(f, location, 6, '}');
	tl_je_close(f, locations, RESULT_KEYS, ']');
	if (state)
		tl_je_kstr(f, &res, RESULT_KEYS, "baselineState", state);
	if (state && strcmp(state, "unchanged") == 0) {
		bool list = true, suppression = true;
		tl_je_key(f, &res, RESULT_KEYS, "suppressions");
		fputs("[\n", f);
		tl_je_item(f, &list, 6);
		fputs("{\n", f);
		tl_je_kstr(f, &suppression, 7, "kind", "external");
		tl_je_kstr(f, &suppression, 7, "justification", "recorded in the baseline");
		tl_je_close(f, suppression, 6, '}');
		tl_je_close(f, list, RESULT_KEYS, ']');
	}
	if (d->loc.pointer || d->loc.record >= 0) {
		bool props = true;
		tl_je_key(f, &res, RESULT_KEYS, "properties");
		fputs("{\n", f);
		if (d->loc.pointer)
			tl_je_kstr(f, &props, 6, "pointer", d->loc.pointer);
		if (d->loc.record >= 0)
			tl_je_ku64(f, &props, 6, "record", (uint64_t)d->loc.record);
		tl_je_close(f, props, RESULT_KEYS, '}');
	}
	tl_je_close(f, res, RESULT_LEVEL, '}');
}

static void sarif_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	add_result(w, d, w->baseline ? "new" : NULL);
}

static void sarif_known(struct tl_writer *w, const struct tl_diagnostic *d)
{
	w->known_shown++;
	add_result(w, d, "unchanged");
}

/* A notification, to the spool until the results end; with a path, it
 * names that path's artifact as its location. */
static void notify_at(struct tl_writer *w, const char *level, const char *text, const char *path)
{
	if (!w->spool && !w->lost && !(w->spool = tl_spool_open()))
		lose(w);
	if (!w->spool)
		return;
	FILE *f = w->spool;
	bool first = true;
	tl_je_item(f, &(bool){ !w->any_spooled }, NOTE_LEVEL);
	w->any_spooled = true;
	fputs("{\n", f);
	tl_je_kstr(f, &first, NOTE_LEVEL + 1, "level", level);
	tl_je_key(f, &first, NOTE_LEVEL + 1, "message");
	text_object(f, NOTE_LEVEL + 1, text);
	if (path) {
		char uri[3 * 4096];
		bool based, loc_first = true, phys_first = true, art_first = true;
		artifact_uri(w, path, uri, sizeof uri, &based);
		tl_je_key(f, &first, NOTE_LEVEL + 1, "locations");
		fputs("[\n", f);
		tl_je_item(f, &(bool){ true }, NOTE_LEVEL + 2);
		fputs("{\n", f);
		tl_je_key(f, &loc_first, NOTE_LEVEL + 3, "physicalLocation");
		fputs("{\n", f);
		tl_je_key(f, &phys_first, NOTE_LEVEL + 4, "artifactLocation");
		fputs("{\n", f);
		tl_je_kstr(f, &art_first, NOTE_LEVEL + 5, "uri", uri);
		if (based)
			tl_je_kstr(f, &art_first, NOTE_LEVEL + 5, "uriBaseId", "SRCROOT");
		tl_je_close(f, art_first, NOTE_LEVEL + 4, '}');
		tl_je_close(f, phys_first, NOTE_LEVEL + 3, '}');
		tl_je_close(f, loc_first, NOTE_LEVEL + 2, '}');
		tl_je_close(f, false, NOTE_LEVEL + 1, ']');
	}
	tl_je_close(f, first, NOTE_LEVEL, '}');
	if (ferror(f))
		lose(w);
}

static void notify(struct tl_writer *w, const char *level, const char *text)
{
	notify_at(w, level, text, NULL);
}

static void sarif_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		      const char *message)
{
	char text[4352];
	close_column_file(w);
	if (status == TL_OK) {
		/* known diagnostics past the limit are not results: say how many */
		uint64_t known = r->known_errors + r->known_warnings + r->known_notes;
		if (w->baseline && r->truncated && known > w->known_shown) {
			snprintf(text, sizeof text, "%s: %" PRIu64 " diagnostics recorded in the baseline "
				 "are not listed as unchanged results (past --max-errors)", w->path,
				 known - w->known_shown);
			notify(w, "note", text);
			w->known_left_out += known - w->known_shown;
		}
		w->known_shown = 0;
		return;
	}
	w->known_shown = 0;
	/* A path that could not be validated is a tool notification, not a result. */
	snprintf(text, sizeof text, "%s: %s", w->path, message ? message : "cannot validate");
	notify(w, "error", text);
	w->run_failed = true;
}

static int sarif_finish(struct tl_writer *w)
{
	close_column_file(w);
	ensure_run(w);
	FILE *f = w->out;
	bool run = false, invocations = true, invocation = true;
	tl_je_close(f, w->first_item, RUN_KEYS, ']');
	tl_je_key(f, &run, RUN_KEYS, "invocations");
	fputs("[\n", f);
	tl_je_item(f, &invocations, 4);
	fputs("{\n", f);
	tl_je_key(f, &invocation, 5, "executionSuccessful");
	tl_je_bool(f, !w->run_failed);
	tl_je_key(f, &invocation, 5, "toolExecutionNotifications");
	fputs("[\n", f);
	if (w->any_spooled) {
		long n = ftell(w->spool);
		if (n < 0 || !tl_spool_copy(w->spool, n, f))
			lose(w);
	}
	tl_je_close(f, !w->any_spooled, 5, ']');
	tl_je_close(f, invocation, 4, '}');
	tl_je_close(f, invocations, RUN_KEYS, ']');
	if (w->known_left_out) {
		bool props = true;
		tl_je_key(f, &run, RUN_KEYS, "properties");
		fputs("{\n", f);
		tl_je_ku64(f, &props, 4, "tracelintUnchangedNotListed", w->known_left_out);
		tl_je_close(f, props, RUN_KEYS, '}');
	}
	tl_je_close(f, false, 2, '}');
	tl_je_close(f, false, 1, ']');
	fputs("\n}\n", f);
	if (w->spool)
		fclose(w->spool);
	if (w->lost) {
		errno = w->lost_errno;
		return -1;
	}
	return ferror(f) || fflush(f) != 0 ? -1 : 0;
}

/* A skipped path is a note among the tool's notifications, naming it. */
static void sarif_skipped(struct tl_writer *w, const char *reason)
{
	ensure_run(w);
	char text[4352];
	snprintf(text, sizeof text, "%s: skipped: %s", w->path, reason);
	notify_at(w, "note", text, w->path);
}

const struct tl_writer_ops tl_sarif_writer = {
	.begin = sarif_begin,
	.diag = sarif_diag,
	.end = sarif_end,
	.finish = sarif_finish,
	.known = sarif_known,
	.skipped = sarif_skipped,
};
