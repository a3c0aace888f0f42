/* SARIF 2.1.0 style, as GitHub code scanning reads it: the whole rule
 * catalog under tool.driver.rules and one result per diagnostic. */
#include "writer.h"
#include "safe_text.h"

#include <json-c/json.h>

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

static json_object *rule_descriptors(void)
{
	json_object *rules = json_object_new_array();
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(r->id));
		json_object_object_add(o, "shortDescription", text_object(r->summary));
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
