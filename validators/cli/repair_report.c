/* The report of tracelint repair in its three styles. */
#include "repair_report.h"
#include "json_out.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

void repair_warnings_add(struct repair_warnings *w, const struct tl_diagnostic *d)
{
	w->count++;
	if (w->kept == REPAIR_WARNINGS_KEPT)
		return;
	struct repair_warning *it = &w->items[w->kept++];
	it->rule = d->rule ? d->rule->id : "";
	it->offset = d->loc.offset;
	snprintf(it->message, sizeof it->message, "%s", d->message ? d->message : "");
}

void repair_warnings_free(struct repair_warnings *w)
{
	w->kept = 0;
	w->count = 0;
}

static const char *outcome_name(enum tl_repair_outcome o)
{
	switch (o) {
	case TL_REPAIR_NOTHING: return "nothing to repair";
	case TL_REPAIR_REPAIRED: return "repaired";
	case TL_REPAIR_NONE_LEFT: return "nothing salvageable";
	default: return "failed";
	}
}

static const char *action_name(enum tl_repair_action a)
{
	return a == TL_REPAIR_DROPPED ? "dropped" : a == TL_REPAIR_REWRITTEN ? "rewritten" : "added";
}

static bool wrote_output(const struct repair_view *v)
{
	return v->outcome == TL_REPAIR_REPAIRED || v->outcome == TL_REPAIR_NOTHING;
}

static int write_text(FILE *to, const struct repair_view *v)
{
	const struct tl_repair_report *r = v->rep;
	fprintf(to, "%s: %s", v->input, outcome_name(v->outcome));
	if (r->format != TL_FORMAT_AUTO)
		fprintf(to, " (%s%s%s)", tl_format_name(r->format), r->detail[0] ? ", " : "", r->detail);
	if (wrote_output(v))
		fprintf(to, ", written to %s", v->output);
	if (r->reason[0] && !wrote_output(v))
		fprintf(to, ": %s", r->reason);
	fputc('\n', to);
	if (v->outcome == TL_REPAIR_REPAIRED) {
		for (size_t i = 0; !v->quiet && i < r->change_count; i++) {
			const struct tl_repair_change *c = &r->changes[i];
			if (c->action == TL_REPAIR_ADDED)
				fprintf(to, "  added     at %" PRIu64 ": %s: %s\n", c->offset, c->rule, c->what);
			else
				fprintf(to, "  %-9s %" PRIu64 "..%" PRIu64 " (%" PRIu64 " bytes): %s: %s\n",
					action_name(c->action), c->offset, c->offset + c->length - 1, c->length,
					c->rule, c->what);
		}
		for (size_t i = 0; !v->quiet && i < r->unit_count; i++)
			fprintf(to, "  %s: %" PRIu64 " records kept, %" PRIu64 " dropped\n", r->units[i].name,
				r->units[i].kept, r->units[i].dropped);
		fprintf(to, "  records: %" PRIu64 " kept, %" PRIu64 " dropped; %" PRIu64 " bytes in, %" PRIu64
			" out\n", r->kept, r->dropped, r->input_size, r->output_size);
	}
	if (wrote_output(v) && v->warnings->count) {
		fprintf(to, "  the output is valid with %" PRIu64 " warning%s:\n", v->warnings->count,
			v->warnings->count == 1 ? "" : "s");
		for (size_t i = 0; !v->quiet && i < v->warnings->kept; i++)
			fprintf(to, "    %s at %" PRIu64 ": %s\n", v->warnings->items[i].rule,
				v->warnings->items[i].offset, v->warnings->items[i].message);
	}
	return fflush(to) == 0 && !ferror(to) ? 0 : -1;
}

static json_object *u64(bool *nomem, uint64_t v)
{
	return tl_jmade(nomem, json_object_new_uint64(v));
}

static json_object *str(bool *nomem, const char *s)
{
	return tl_jmade(nomem, json_object_new_string(s));
}

static int write_json(FILE *to, const struct repair_view *v)
{
	const struct tl_repair_report *r = v->rep;
	bool nomem = false;
	json_object *root = tl_jmade(&nomem, json_object_new_object());
	tl_jset(&nomem, root, "input", str(&nomem, v->input));
	if (wrote_output(v))
		tl_jset(&nomem, root, "output", str(&nomem, v->output));
	else
		tl_jset_null(&nomem, root, "output");
	tl_jset(&nomem, root, "outcome", str(&nomem, outcome_name(v->outcome)));
	tl_jset(&nomem, root, "exit_status", tl_jmade(&nomem, json_object_new_int((int)v->outcome)));
	if (r->format != TL_FORMAT_AUTO)
		tl_jset(&nomem, root, "format", str(&nomem, tl_format_name(r->format)));
	if (r->detail[0])
		tl_jset(&nomem, root, "detail", str(&nomem, r->detail));
	if (r->reason[0] && !wrote_output(v))
		tl_jset(&nomem, root, "reason", str(&nomem, r->reason));
	json_object *changes = tl_jmade(&nomem, json_object_new_array());
	for (size_t i = 0; v->outcome == TL_REPAIR_REPAIRED && i < r->change_count; i++) {
		const struct tl_repair_change *c = &r->changes[i];
		json_object *o = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, o, "action", str(&nomem, action_name(c->action)));
		tl_jset(&nomem, o, "offset", u64(&nomem, c->offset));
		tl_jset(&nomem, o, "length", u64(&nomem, c->length));
		tl_jset(&nomem, o, "rule", str(&nomem, c->rule));
		tl_jset(&nomem, o, "message", str(&nomem, c->what));
		tl_jpush(&nomem, changes, o);
	}
	tl_jset(&nomem, root, "changes", changes);
	json_object *units = tl_jmade(&nomem, json_object_new_array());
	for (size_t i = 0; v->outcome == TL_REPAIR_REPAIRED && i < r->unit_count; i++) {
		json_object *o = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, o, "unit", str(&nomem, r->units[i].name));
		tl_jset(&nomem, o, "kept", u64(&nomem, r->units[i].kept));
		tl_jset(&nomem, o, "dropped", u64(&nomem, r->units[i].dropped));
		tl_jpush(&nomem, units, o);
	}
	tl_jset(&nomem, root, "units", units);
	tl_jset(&nomem, root, "records_kept", u64(&nomem, r->kept));
	tl_jset(&nomem, root, "records_dropped", u64(&nomem, r->dropped));
	tl_jset(&nomem, root, "bytes_in", u64(&nomem, r->input_size));
	tl_jset(&nomem, root, "bytes_out", u64(&nomem, wrote_output(v) ? r->output_size : 0));
	json_object *warns = tl_jmade(&nomem, json_object_new_array());
	for (size_t i = 0; wrote_output(v) && i < v->warnings->kept; i++) {
		json_object *o = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, o, "rule", str(&nomem, v->warnings->items[i].rule));
		tl_jset(&nomem, o, "offset", u64(&nomem, v->warnings->items[i].offset));
		tl_jset(&nomem, o, "message", str(&nomem, v->warnings->items[i].message));
		tl_jpush(&nomem, warns, o);
	}
	tl_jset(&nomem, root, "output_warnings", warns);
	tl_jset(&nomem, root, "output_warning_count", u64(&nomem, wrote_output(v) ? v->warnings->count : 0));
	return tl_jprint(to, root, nomem);
}

/* SARIF 2.1.0: one result (level note) per change, located in the input. */
static int write_sarif(FILE *to, const struct repair_view *v)
{
	const struct tl_repair_report *r = v->rep;
	bool nomem = false;
	json_object *root = tl_jmade(&nomem, json_object_new_object());
	tl_jset(&nomem, root, "$schema", str(&nomem, "https://json.schemastore.org/sarif-2.1.0.json"));
	tl_jset(&nomem, root, "version", str(&nomem, "2.1.0"));
	json_object *runs = tl_jmade(&nomem, json_object_new_array());
	json_object *run = tl_jmade(&nomem, json_object_new_object());
	json_object *tool = tl_jmade(&nomem, json_object_new_object());
	json_object *driver = tl_jmade(&nomem, json_object_new_object());
	tl_jset(&nomem, driver, "name", str(&nomem, "tracelint repair"));
	tl_jset(&nomem, driver, "version", str(&nomem, tl_version()));
	tl_jset(&nomem, tool, "driver", driver);
	tl_jset(&nomem, run, "tool", tool);
	json_object *results = tl_jmade(&nomem, json_object_new_array());
	for (size_t i = 0; v->outcome == TL_REPAIR_REPAIRED && i < r->change_count; i++) {
		const struct tl_repair_change *c = &r->changes[i];
		json_object *res = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, res, "ruleId", str(&nomem, c->rule));
		tl_jset(&nomem, res, "level", str(&nomem, "note"));
		json_object *msg = tl_jmade(&nomem, json_object_new_object());
		char text[300];
		snprintf(text, sizeof text, "%s: %s", action_name(c->action), c->what);
		tl_jset(&nomem, msg, "text", str(&nomem, text));
		tl_jset(&nomem, res, "message", msg);
		json_object *locs = tl_jmade(&nomem, json_object_new_array());
		json_object *loc = tl_jmade(&nomem, json_object_new_object());
		json_object *phys = tl_jmade(&nomem, json_object_new_object());
		json_object *art = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, art, "uri", str(&nomem, v->input));
		tl_jset(&nomem, phys, "artifactLocation", art);
		json_object *region = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, region, "byteOffset", u64(&nomem, c->offset));
		tl_jset(&nomem, region, "byteLength", u64(&nomem, c->length));
		tl_jset(&nomem, phys, "region", region);
		tl_jset(&nomem, loc, "physicalLocation", phys);
		tl_jpush(&nomem, locs, loc);
		tl_jset(&nomem, res, "locations", locs);
		tl_jpush(&nomem, results, res);
	}
	tl_jset(&nomem, run, "results", results);
	json_object *inv = tl_jmade(&nomem, json_object_new_array());
	json_object *one = tl_jmade(&nomem, json_object_new_object());
	tl_jset(&nomem, one, "executionSuccessful",
		tl_jmade(&nomem, json_object_new_boolean(v->outcome == TL_REPAIR_NOTHING ||
							 v->outcome == TL_REPAIR_REPAIRED)));
	json_object *props = tl_jmade(&nomem, json_object_new_object());
	tl_jset(&nomem, props, "outcome", str(&nomem, outcome_name(v->outcome)));
	tl_jset(&nomem, props, "recordsKept", u64(&nomem, r->kept));
	tl_jset(&nomem, props, "recordsDropped", u64(&nomem, r->dropped));
	if (r->reason[0] && !wrote_output(v))
		tl_jset(&nomem, props, "reason", str(&nomem, r->reason));
	tl_jset(&nomem, one, "properties", props);
	tl_jpush(&nomem, inv, one);
	tl_jset(&nomem, run, "invocations", inv);
	tl_jpush(&nomem, runs, run);
	tl_jset(&nomem, root, "runs", runs);
	return tl_jprint(to, root, nomem);
}

int repair_report_write(FILE *to, enum tl_output_style style, const struct repair_view *v)
{
	switch (style) {
	case TL_OUTPUT_JSON: return write_json(to, v);
	case TL_OUTPUT_SARIF: return write_sarif(to, v);
	default: return write_text(to, v);
	}
}
