/* --list-rules [RULE...]: the catalog, all of it, one format's (--format) or
 * the rules the given IDs and globs name; as text or as JSON (-o json). */
#include "json_out.h"
#include "cli.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

/* Rules of one format, or of all; DCFG-trace includes the pair rules and
 * every JSON format includes the shared JSON rules. */
static bool in_format(const struct tl_rule_info *r, enum tl_format_id f)
{
	if (f == TL_FORMAT_AUTO)
		return true;
	const char *name = tl_format_name(f);
	if (strcmp(r->format, name) == 0 || strcmp(r->format, "core") == 0)
		return true;
	return strcmp(r->format, "json") == 0 &&
	       (f == TL_FORMAT_DCFG || f == TL_FORMAT_DCFG_TRACE);
}

static bool named(const struct cli *c, const struct tl_rule_info *r)
{
	if (c->path_count == 0)
		return true;
	for (size_t i = 0; i < c->path_count; i++)
		if (tl_rule_matches(c->paths[i], r))
			return true;
	return false;
}

int cli_list_rules(const struct cli *c)
{
	for (size_t i = 0; i < c->path_count; i++)
		if (tl_rule_pattern_matches(c->paths[i]) == 0)
			return cli_usage_error("--list-rules: '%s' matches no rule", c->paths[i]);
	bool json = c->style != TL_OUTPUT_TEXT, nomem = false;
	json_object *all = json ? tl_jmade(&nomem, json_object_new_array()) : NULL;
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		if (!in_format(r, c->opts.format) || !named(c, r))
			continue;
		if (!json) {
			printf("%-28s %-7s %-10s %s (%s)\n", r->id, tl_severity_name(r->severity),
			       r->format, r->summary, r->source);
			continue;
		}
		json_object *o = json_object_new_object();
		tl_jset(&nomem, o, "id", json_object_new_string(r->id));
		tl_jset(&nomem, o, "severity", json_object_new_string(tl_severity_name(r->severity)));
		tl_jset(&nomem, o, "format", json_object_new_string(r->format));
		tl_jset(&nomem, o, "summary", json_object_new_string(r->summary));
		tl_jset(&nomem, o, "source", json_object_new_string(r->source));
		tl_jpush(&nomem, all, o);
	}
	if (json) {
		json_object *doc = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, doc, "rules", all);
		if (tl_jprint(stdout, doc, nomem) != 0)
			return cli_usage_error("cannot write the rule list: %s", strerror(errno));
	}
	return EXIT_VALID;
}
