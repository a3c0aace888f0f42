/* JSON style: one document, {"tool":..., "files":[{path, format, valid,
 * errors, warnings, diagnostics:[...]}]}, written with json-c. */
#include "writer.h"
#include "safe_text.h"

#include <json-c/json.h>

static json_object *json_u64(uint64_t v) { return json_object_new_uint64(v); }

/* A JSON string of any bytes: invalid UTF-8 read as Latin-1 (see safe_text.h). */
static json_object *json_text(const char *s)
{
	char out[2 * 4096 + 1];
	tl_utf8_repair(out, sizeof out, s);
	return json_object_new_string(out);
}

static void ensure_root(struct tl_writer *w)
{
	if (!w->root) {
		w->root = json_object_new_object();
		json_object *tool = json_object_new_object();
		json_object_object_add(tool, "name", json_object_new_string("tracelint"));
		json_object_object_add(tool, "version", json_object_new_string(TRACELINT_VERSION));
		json_object_object_add(w->root, "tool", tool);
		json_object_object_add(w->root, "files", json_object_new_array());
	}
}

static void json_begin(struct tl_writer *w)
{
	ensure_root(w);
	w->file = json_object_new_object();
	json_object_object_add(w->file, "path", json_text(w->path));
	if (!tl_utf8_valid(w->path)) {
		/* the exact bytes, for a path that is not UTF-8 */
		char hexpath[2 * 4096 + 1];
		tl_hex_of(hexpath, sizeof hexpath, w->path);
		json_object_object_add(w->file, "path_hex", json_object_new_string(hexpath));
	}
	w->current = json_object_new_array();
}

static void json_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "severity", json_object_new_string(tl_severity_name(d->severity)));
	json_object_object_add(o, "rule", json_object_new_string(d->rule->id));
	json_object_object_add(o, "message", json_text(d->message));
	json_object_object_add(o, "offset", json_u64(d->loc.offset));
	if (d->loc.line) {
		json_object_object_add(o, "line", json_u64(d->loc.line));
		json_object_object_add(o, "column", json_u64(d->loc.column));
	}
	if (d->loc.record >= 0)
		json_object_object_add(o, "record", json_object_new_int64(d->loc.record));
	if (d->loc.member)
		json_object_object_add(o, "member", json_text(d->loc.member));
	if (d->loc.pointer)
		json_object_object_add(o, "pointer", json_text(d->loc.pointer));
	json_object_array_add(w->current, o);
}

static void json_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		     const char *message)
{
	json_object *f = w->file;
	if (status == TL_OK) {
		json_object_object_add(f, "format", json_object_new_string(tl_format_name(r->format)));
		json_object_object_add(f, "valid", json_object_new_boolean(r->valid));
		json_object_object_add(f, "errors", json_u64(r->errors));
		json_object_object_add(f, "warnings", json_u64(r->warnings));
		json_object_object_add(f, "notes", json_u64(r->notes));
		json_object_object_add(f, "truncated", json_object_new_boolean(r->truncated));
		if (r->detail[0])
			json_object_object_add(f, "detail", json_text(r->detail));
	} else {
		json_object_object_add(f, "format", NULL);
		json_object_object_add(f, "valid", json_object_new_boolean(0));
		json_object_object_add(f, "error",
				       json_text(message ? message : "cannot validate"));
	}
	json_object_object_add(f, "diagnostics", w->current);
	json_object_array_add(json_object_object_get(w->root, "files"), f);
	w->file = w->current = NULL;
}

static int json_finish(struct tl_writer *w)
{
	ensure_root(w);
	const char *s = json_object_to_json_string_ext(
		w->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = fprintf(w->out, "%s\n", s) < 0 || fflush(w->out) != 0 ? -1 : 0;
	json_object_put(w->root);
	return rc;
}

const struct tl_writer_ops tl_json_writer = { json_begin, json_diag, json_end, json_finish, NULL };
