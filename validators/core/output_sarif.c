/* SARIF 2.1.0 style, as GitHub code scanning reads it: the whole rule
 * catalog under tool.driver.rules and one result per diagnostic. */
#include "writer.h"
#include "json_out.h"
#include "safe_text.h"

#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Where a rule's documentation lives: its row in the catalog of its format. */
#define TRACELINT_HOME "https://github.com/tracelint/tracelint"
#define CATALOG_BASE TRACELINT_HOME "/blob/main/specs/"

static json_object *text_object(bool *nomem, const char *text)
{
	char safe[2 * 4096 + 1];
	tl_utf8_repair(safe, sizeof safe, text);
	json_object *o = json_object_new_object();
	tl_jset(nomem, o, "text", json_object_new_string(safe));
	return o;
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

static json_object *rule_help(bool *nomem, const struct tl_rule_info *r, const char *uri)
{
	char text[2048 + 4160], markdown[2304 + 4160];
	snprintf(text, sizeof text, "%s Severity: %s. Source: %s. Catalog: %s", r->summary,
		 tl_severity_name(r->severity), r->source, uri);
	snprintf(markdown, sizeof markdown, "**%s** (%s, %s)\n\n%s\n\nSource: %s. See [the %s catalog](%s).",
		 r->id, r->format, tl_severity_name(r->severity), r->summary, r->source, r->format, uri);
	json_object *help = text_object(nomem, text);
	tl_jset(nomem, help, "markdown", json_object_new_string(markdown));
	return help;
}

static json_object *rule_descriptors(bool *nomem, const char *base)
{
	json_object *rules = json_object_new_array();
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		char uri[4096 + 64];
		help_uri(uri, sizeof uri, base, r);
		json_object *o = json_object_new_object();
		tl_jset(nomem, o, "id", json_object_new_string(r->id));
		tl_jset(nomem, o, "shortDescription", text_object(nomem, r->summary));
		tl_jset(nomem, o, "fullDescription", text_object(nomem, r->summary));
		tl_jset(nomem, o, "help", rule_help(nomem, r, uri));
		tl_jset(nomem, o, "helpUri", json_object_new_string(uri));
		json_object *cfg = json_object_new_object();
		tl_jset(nomem, cfg, "level", json_object_new_string(sarif_level(r->severity)));
		tl_jset(nomem, o, "defaultConfiguration", cfg);
		json_object *props = json_object_new_object();
		tl_jset(nomem, props, "format", json_object_new_string(r->format));
		tl_jset(nomem, props, "source", json_object_new_string(r->source));
		tl_jset(nomem, o, "properties", props);
		tl_jpush(nomem, rules, o);
	}
	return rules;
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
static uint64_t code_point_column(const char *path, uint64_t offset, uint32_t byte_column)
{
	if (byte_column <= 1)
		return byte_column;
	uint32_t before = byte_column - 1;
	if (strcmp(path, "-") == 0 || offset < before || before > (1u << 20))
		return 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
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
	close(fd);
	return column;
}

static void ensure_run(struct tl_writer *w)
{
	if (w->root)
		return;
	w->root = json_object_new_object();
	tl_jset(&w->nomem, w->root, "$schema",
			       json_object_new_string("https://json.schemastore.org/sarif-2.1.0.json"));
	tl_jset(&w->nomem, w->root, "version", json_object_new_string("2.1.0"));
	json_object *run = json_object_new_object();
	json_object *tool = json_object_new_object();
	json_object *driver = json_object_new_object();
	tl_jset(&w->nomem, driver, "name", json_object_new_string("tracelint"));
	tl_jset(&w->nomem, driver, "version", json_object_new_string(TRACELINT_VERSION));
	tl_jset(&w->nomem, driver, "informationUri", json_object_new_string(TRACELINT_HOME));
	tl_jset(&w->nomem, driver, "rules", rule_descriptors(&w->nomem, w->help_base));
	tl_jset(&w->nomem, tool, "driver", driver);
	tl_jset(&w->nomem, run, "tool", tool);
	if (w->source_root) {
		char uri[3 * PATH_MAX + 64];
		root_uri(uri, sizeof uri, w->source_root);
		json_object *base = json_object_new_object();
		tl_jset(&w->nomem, base, "uri", json_object_new_string(uri));
		json_object *bases = json_object_new_object();
		tl_jset(&w->nomem, bases, "SRCROOT", base);
		tl_jset(&w->nomem, run, "originalUriBaseIds", bases);
	}
	/* columns of text inputs count characters (code points), not bytes */
	tl_jset(&w->nomem, run, "columnKind", json_object_new_string("unicodeCodePoints"));
	w->current = json_object_new_array();
	tl_jset(&w->nomem, run, "results", w->current);
	json_object *invocation = json_object_new_object();
	tl_jset(&w->nomem, invocation, "executionSuccessful", json_object_new_boolean(1));
	tl_jset(&w->nomem, invocation, "toolExecutionNotifications", json_object_new_array());
	json_object *invocations = json_object_new_array();
	tl_jpush(&w->nomem, invocations, invocation);
	tl_jset(&w->nomem, run, "invocations", invocations);
	json_object *runs = json_object_new_array();
	tl_jpush(&w->nomem, runs, run);
	tl_jset(&w->nomem, w->root, "runs", runs);
	w->file = invocation;
	if (w->nomem) /* they may have been freed unplaced: the report is lost anyway */
		w->current = w->file = NULL;
}

static void sarif_begin(struct tl_writer *w) { ensure_run(w); }

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
	tl_diag_path(path, sizeof path, w->path, d);
	artifact_uri(w, path, uri, sizeof uri, &based);
	json_object *res = json_object_new_object();
	tl_jset(&w->nomem, res, "ruleId", json_object_new_string(d->rule->id));
	tl_jset(&w->nomem, res, "ruleIndex", json_object_new_uint64(rule_index(d->rule)));
	tl_jset(&w->nomem, res, "level", json_object_new_string(sarif_level(d->severity)));
	json_object *region = json_object_new_object();
	if (d->loc.line) {
		uint64_t column = d->loc.member ? 0 : code_point_column(w->path, d->loc.offset, d->loc.column);
		tl_jset(&w->nomem, region, "startLine", json_object_new_uint64(d->loc.line));
		/* a file that cannot be read again: its byte column, right for ASCII */
		tl_jset(&w->nomem, region, "startColumn",
				       json_object_new_uint64(column ? column : d->loc.column));
		tl_jset(&w->nomem, res, "message", text_object(&w->nomem, d->message));
	} else {
		/* A binary file has no lines: code scanning shows the result on the
		 * file (line 1), byteOffset holds the place, and the message says it. */
		char text[1200];
		int n = snprintf(text, sizeof text, "At byte %" PRIu64, d->loc.offset);
		if (d->loc.record >= 0)
			n += snprintf(text + n, sizeof text - (size_t)n, " (record %" PRId64 ")", d->loc.record);
		snprintf(text + n, sizeof text - (size_t)n, ": %s", d->message);
		tl_jset(&w->nomem, res, "message", text_object(&w->nomem, text));
		tl_jset(&w->nomem, region, "startLine", json_object_new_uint64(1));
	}
	tl_jset(&w->nomem, region, "byteOffset", json_object_new_uint64(d->loc.offset));
	char key[32];
	tl_diagnostic_fingerprint(key, sizeof key, path, d);
	json_object *prints = json_object_new_object();
	tl_jset(&w->nomem, prints, "tracelintLocation/v1", json_object_new_string(key));
	tl_jset(&w->nomem, res, "partialFingerprints", prints);
	json_object *artifact = json_object_new_object();
	tl_jset(&w->nomem, artifact, "uri", json_object_new_string(uri));
	if (based)
		tl_jset(&w->nomem, artifact, "uriBaseId", json_object_new_string("SRCROOT"));
	json_object *physical = json_object_new_object();
	tl_jset(&w->nomem, physical, "artifactLocation", artifact);
	tl_jset(&w->nomem, physical, "region", region);
	json_object *location = json_object_new_object();
	tl_jset(&w->nomem, location, "physicalLocation", physical);
	json_object *locations = json_object_new_array();
	tl_jpush(&w->nomem, locations, location);
	tl_jset(&w->nomem, res, "locations", locations);
	if (state)
		tl_jset(&w->nomem, res, "baselineState", json_object_new_string(state));
	if (state && strcmp(state, "unchanged") == 0) {
		json_object *suppression = json_object_new_object();
		tl_jset(&w->nomem, suppression, "kind", json_object_new_string("external"));
		tl_jset(&w->nomem, suppression, "justification",
				       json_object_new_string("recorded in the baseline"));
		json_object *suppressions = json_object_new_array();
		tl_jpush(&w->nomem, suppressions, suppression);
		tl_jset(&w->nomem, res, "suppressions", suppressions);
	}
	if (d->loc.pointer || d->loc.record >= 0) {
		json_object *props = json_object_new_object();
		if (d->loc.pointer)
			tl_jset(&w->nomem, props, "pointer", json_object_new_string(d->loc.pointer));
		if (d->loc.record >= 0)
			tl_jset(&w->nomem, props, "record", json_object_new_int64(d->loc.record));
		tl_jset(&w->nomem, res, "properties", props);
	}
	tl_jpush(&w->nomem, w->current, res);
}

static void sarif_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	add_result(w, d, w->baseline ? "new" : NULL);
}

static void sarif_known(struct tl_writer *w, const struct tl_diagnostic *d)
{
	add_result(w, d, "unchanged");
}

static void sarif_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		      const char *message)
{
	(void)r;
	if (status == TL_OK)
		return;
	/* A path that could not be validated is a tool notification, not a result. */
	json_object *n = json_object_new_object();
	tl_jset(&w->nomem, n, "level", json_object_new_string("error"));
	char text[4352];
	snprintf(text, sizeof text, "%s: %s", w->path, message ? message : "cannot validate");
	tl_jset(&w->nomem, n, "message", text_object(&w->nomem, text));
	tl_jpush(&w->nomem, json_object_object_get(w->file, "toolExecutionNotifications"), n);
	tl_jset(&w->nomem, w->file, "executionSuccessful", json_object_new_boolean(0));
}

static int sarif_finish(struct tl_writer *w)
{
	ensure_run(w);
	return tl_jprint(w->out, w->root, w->nomem);
}

/* A skipped path is a note among the tool's notifications, naming it. */
static void sarif_skipped(struct tl_writer *w, const char *reason)
{
	ensure_run(w);
	json_object *n = json_object_new_object();
	tl_jset(&w->nomem, n, "level", json_object_new_string("note"));
	char text[4352];
	snprintf(text, sizeof text, "%s: skipped: %s", w->path, reason);
	tl_jset(&w->nomem, n, "message", text_object(&w->nomem, text));
	char uri[3 * 4096];
	bool based;
	artifact_uri(w, w->path, uri, sizeof uri, &based);
	json_object *artifact = json_object_new_object();
	tl_jset(&w->nomem, artifact, "uri", json_object_new_string(uri));
	if (based)
		tl_jset(&w->nomem, artifact, "uriBaseId", json_object_new_string("SRCROOT"));
	json_object *physical = json_object_new_object();
	tl_jset(&w->nomem, physical, "artifactLocation", artifact);
	json_object *location = json_object_new_object();
	tl_jset(&w->nomem, location, "physicalLocation", physical);
	json_object *locations = json_object_new_array();
	tl_jpush(&w->nomem, locations, location);
	tl_jset(&w->nomem, n, "locations", locations);
	tl_jpush(&w->nomem, json_object_object_get(w->file, "toolExecutionNotifications"), n);
}

const struct tl_writer_ops tl_sarif_writer = { sarif_begin, sarif_diag, sarif_end, sarif_finish,
					       sarif_known, sarif_skipped };
