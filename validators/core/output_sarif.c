/* SARIF 2.1.0 style, as GitHub code scanning reads it: the whole rule
 * catalog under tool.driver.rules and one result per diagnostic. */
#include "writer.h"
#include "safe_text.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Where a rule's documentation lives: its row in the catalog of its format. */
#define TRACELINT_HOME "https://github.com/tracelint/tracelint"
#define CATALOG_BASE TRACELINT_HOME "/blob/main/specs/"

static json_object *text_object(const char *text)
{
	char safe[2 * 4096 + 1];
	tl_utf8_repair(safe, sizeof safe, text);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "text", json_object_new_string(safe));
	return o;
}

static const char *sarif_level(enum tl_severity s)
{
	return s == TL_ERROR ? "error" : s == TL_WARNING ? "warning" : "note";
}

/* The catalog file a rule's row is in: specs/<format>.md ("core" rules too). */
static void help_uri(char *buf, size_t len, const struct tl_rule_info *r)
{
	snprintf(buf, len, CATALOG_BASE "%s.md", r->format);
}

static json_object *rule_help(const struct tl_rule_info *r, const char *uri)
{
	char text[2048], markdown[2304];
	snprintf(text, sizeof text, "%s Severity: %s. Source: %s. Catalog: %s", r->summary,
		 tl_severity_name(r->severity), r->source, uri);
	snprintf(markdown, sizeof markdown, "**%s** (%s, %s)\n\n%s\n\nSource: %s. See [the %s catalog](%s).",
		 r->id, r->format, tl_severity_name(r->severity), r->summary, r->source, r->format, uri);
	json_object *help = text_object(text);
	json_object_object_add(help, "markdown", json_object_new_string(markdown));
	return help;
}

static json_object *rule_descriptors(void)
{
	json_object *rules = json_object_new_array();
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		char uri[256];
		help_uri(uri, sizeof uri, r);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(r->id));
		json_object_object_add(o, "shortDescription", text_object(r->summary));
		json_object_object_add(o, "fullDescription", text_object(r->summary));
		json_object_object_add(o, "help", rule_help(r, uri));
		json_object_object_add(o, "helpUri", json_object_new_string(uri));
		json_object *cfg = json_object_new_object();
		json_object_object_add(cfg, "level", json_object_new_string(sarif_level(r->severity)));
		json_object_object_add(o, "defaultConfiguration", cfg);
		json_object *props = json_object_new_object();
		json_object_object_add(props, "format", json_object_new_string(r->format));
		json_object_object_add(props, "source", json_object_new_string(r->source));
		json_object_object_add(o, "properties", props);
		json_object_array_add(rules, o);
	}
	return rules;
}

/* FNV-1a, 64 bits, over a NUL-separated list of parts. */
static uint64_t fnv(uint64_t h, const char *part)
{
	for (const unsigned char *p = (const unsigned char *)part; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

/* A fingerprint that survives unrelated edits of the file: the path, the rule
 * and where the defect is without its byte offset (the JSON pointer, or the
 * member and record index), else the message with its digits masked. */
static void fingerprint(char *buf, size_t len, const char *path, const struct tl_diagnostic *d)
{
	uint64_t h = fnv(fnv(0xcbf29ce484222325ULL, path), d->rule->id);
	if (d->loc.member)
		h = fnv(h, d->loc.member);
	if (d->loc.pointer) {
		h = fnv(h, d->loc.pointer);
	} else if (d->loc.record >= 0) {
		char rec[32];
		snprintf(rec, sizeof rec, "record %lld", (long long)d->loc.record);
		h = fnv(h, rec);
	} else {
		char masked[1024];
		size_t n = 0;
		for (const char *p = d->message; *p && n + 1 < sizeof masked; p++)
			masked[n++] = (*p >= '0' && *p <= '9') ? '#' : *p;
		masked[n] = '\0';
		h = fnv(h, masked);
	}
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}

static void ensure_run(struct tl_writer *w)
{
	if (w->root)
		return;
	w->root = json_object_new_object();
	json_object_object_add(w->root, "$schema",
			       json_object_new_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_object_add(w->root, "version", json_object_new_string("2.1.0"));
	json_object *run = json_object_new_object();
	json_object *tool = json_object_new_object();
	json_object *driver = json_object_new_object();
	json_object_object_add(driver, "name", json_object_new_string("tracelint"));
	json_object_object_add(driver, "version", json_object_new_string(TRACELINT_VERSION));
	json_object_object_add(driver, "informationUri", json_object_new_string(TRACELINT_HOME));
	json_object_object_add(driver, "rules", rule_descriptors());
	json_object_object_add(tool, "driver", driver);
	json_object_object_add(run, "tool", tool);
	w->current = json_object_new_array();
	json_object_object_add(run, "results", w->current);
	json_object *invocation = json_object_new_object();
	json_object_object_add(invocation, "executionSuccessful", json_object_new_boolean(1));
	json_object_object_add(invocation, "toolExecutionNotifications", json_object_new_array());
	json_object *invocations = json_object_new_array();
	json_object_array_add(invocations, invocation);
	json_object_object_add(run, "invocations", invocations);
	json_object *runs = json_object_new_array();
	json_object_array_add(runs, run);
	json_object_object_add(w->root, "runs", runs);
	w->file = invocation;
}

static void sarif_begin(struct tl_writer *w) { ensure_run(w); }

static size_t rule_index(const struct tl_rule_info *rule)
{
	/* Catalog entries are one array, so the index is the pointer distance. */
	return (size_t)(rule - tl_rule_at(0));
}

static void sarif_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	char path[4096], uri[3 * 4096];
	tl_diag_path(path, sizeof path, w->path, d);
	tl_uri_encode(uri, sizeof uri, path);
	json_object *res = json_object_new_object();
	json_object_object_add(res, "ruleId", json_object_new_string(d->rule->id));
	json_object_object_add(res, "ruleIndex", json_object_new_uint64(rule_index(d->rule)));
	json_object_object_add(res, "level", json_object_new_string(sarif_level(d->severity)));
	json_object_object_add(res, "message", text_object(d->message));
	char key[32];
	fingerprint(key, sizeof key, path, d);
	json_object *prints = json_object_new_object();
	json_object_object_add(prints, "tracelintLocation/v1", json_object_new_string(key));
	json_object_object_add(res, "partialFingerprints", prints);
	json_object *region = json_object_new_object();
	if (d->loc.line) {
		json_object_object_add(region, "startLine", json_object_new_uint64(d->loc.line));
		json_object_object_add(region, "startColumn", json_object_new_uint64(d->loc.column));
	}
	json_object_object_add(region, "byteOffset", json_object_new_uint64(d->loc.offset));
	json_object *artifact = json_object_new_object();
	json_object_object_add(artifact, "uri", json_object_new_string(uri));
	json_object *physical = json_object_new_object();
	json_object_object_add(physical, "artifactLocation", artifact);
	json_object_object_add(physical, "region", region);
	json_object *location = json_object_new_object();
	json_object_object_add(location, "physicalLocation", physical);
	json_object *locations = json_object_new_array();
	json_object_array_add(locations, location);
	json_object_object_add(res, "locations", locations);
	if (d->loc.pointer || d->loc.record >= 0) {
		json_object *props = json_object_new_object();
		if (d->loc.pointer)
			json_object_object_add(props, "pointer", json_object_new_string(d->loc.pointer));
		if (d->loc.record >= 0)
			json_object_object_add(props, "record", json_object_new_int64(d->loc.record));
		json_object_object_add(res, "properties", props);
	}
	json_object_array_add(w->current, res);
}

static void sarif_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		      const char *message)
{
	(void)r;
	if (status == TL_OK)
		return;
	/* A path that could not be validated is a tool notification, not a result. */
	json_object *n = json_object_new_object();
	json_object_object_add(n, "level", json_object_new_string("error"));
	char text[4352];
	snprintf(text, sizeof text, "%s: %s", w->path, message ? message : "cannot validate");
	json_object_object_add(n, "message", text_object(text));
	json_object_array_add(json_object_object_get(w->file, "toolExecutionNotifications"), n);
	json_object_object_add(w->file, "executionSuccessful", json_object_new_boolean(0));
}

static int sarif_finish(struct tl_writer *w)
{
	ensure_run(w);
	const char *s = json_object_to_json_string_ext(
		w->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = fprintf(w->out, "%s\n", s) < 0 || fflush(w->out) != 0 ? -1 : 0;
	json_object_put(w->root);
	return rc;
}

const struct tl_writer_ops tl_sarif_writer = { sarif_begin, sarif_diag, sarif_end, sarif_finish };
