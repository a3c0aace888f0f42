/* JSON style: one document, {"tool":..., "files":[{path, format, valid,
 * errors, warnings, diagnostics:[...]}]}, written with json-c. */
#include "writer.h"
#include "json_out.h"
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
		tl_jset(&w->nomem, tool, "name", json_object_new_string("tracelint"));
		tl_jset(&w->nomem, tool, "version", json_object_new_string(TRACELINT_VERSION));
		tl_jset(&w->nomem, w->root, "tool", tool);
		tl_jset(&w->nomem, w->root, "files", json_object_new_array());
	}
}

static void json_begin(struct tl_writer *w)
{
	ensure_root(w);
	w->file = json_object_new_object();
	tl_jset(&w->nomem, w->file, "path", json_text(w->path));
	if (!tl_utf8_valid(w->path)) {
		/* the exact bytes, for a path that is not UTF-8 */
		char hexpath[2 * 4096 + 1];
		tl_hex_of(hexpath, sizeof hexpath, w->path);
		tl_jset(&w->nomem, w->file, "path_hex", json_object_new_string(hexpath));
	}
	w->current = json_object_new_array();
}

static void json_diag(struct tl_writer *w, const struct tl_diagnostic *d)
{
	json_object *o = json_object_new_object();
	tl_jset(&w->nomem, o, "severity", json_object_new_string(tl_severity_name(d->severity)));
	tl_jset(&w->nomem, o, "rule", json_object_new_string(d->rule->id));
	tl_jset(&w->nomem, o, "message", json_text(d->message));
	tl_jset(&w->nomem, o, "offset", json_u64(d->loc.offset));
	if (d->loc.line) {
		tl_jset(&w->nomem, o, "line", json_u64(d->loc.line));
		tl_jset(&w->nomem, o, "column", json_u64(d->loc.column));
	}
	if (d->loc.record >= 0)
		tl_jset(&w->nomem, o, "record", json_object_new_int64(d->loc.record));
	if (d->loc.member)
		tl_jset(&w->nomem, o, "member", json_text(d->loc.member));
	if (d->loc.pointer)
		tl_jset(&w->nomem, o, "pointer", json_text(d->loc.pointer));
	tl_jpush(&w->nomem, w->current, o);
}

static void json_end(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		     const char *message)
{
	json_object *f = w->file;
	if (status == TL_OK) {
		tl_jset(&w->nomem, f, "format", json_object_new_string(tl_format_name(r->format)));
		tl_jset(&w->nomem, f, "valid", json_object_new_boolean(r->valid));
		tl_jset(&w->nomem, f, "errors", json_u64(r->errors));
		tl_jset(&w->nomem, f, "warnings", json_u64(r->warnings));
		tl_jset(&w->nomem, f, "notes", json_u64(r->notes));
		tl_jset(&w->nomem, f, "truncated", json_object_new_boolean(r->truncated));
		if (r->detail[0])
			tl_jset(&w->nomem, f, "detail", json_text(r->detail));
	} else {
		tl_jset_null(&w->nomem, f, "format");
		tl_jset(&w->nomem, f, "valid", json_object_new_boolean(0));
		tl_jset(&w->nomem, f, "error",
				       json_text(message ? message : "cannot validate"));
	}
	tl_jset(&w->nomem, f, "diagnostics", w->current);
	tl_jpush(&w->nomem, json_object_object_get(w->root, "files"), f);
	w->file = w->current = NULL;
}

static int json_finish(struct tl_writer *w)
{
	ensure_root(w);
	return tl_jprint(w->out, w->root, w->nomem);
}

/* "skipped": [{path, reason}] beside "files", which hold verdicts only */
static void json_skipped(struct tl_writer *w, const char *reason)
{
	ensure_root(w);
	json_object *list = json_object_object_get(w->root, "skipped");
	if (!list) {
		list = json_object_new_array();
		tl_jset(&w->nomem, w->root, "skipped", list);
	}
	json_object *o = json_object_new_object();
	tl_jset(&w->nomem, o, "path", json_text(w->path));
	tl_jset(&w->nomem, o, "reason", json_text(reason));
	tl_jpush(&w->nomem, list, o);
}

const struct tl_writer_ops tl_json_writer = { json_begin, json_diag, json_end, json_finish, NULL,
					      json_skipped };
