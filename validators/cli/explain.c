/* --explain RULE...: each rule's full explanation, as the catalogs in specs/
 * write it (what it checks, why it matters, how to fix it, where it comes
 * from) with the corpus case that breaks it, as text or JSON (-o json). */
#include "json_out.h"
#include "cli.h"
#include "explain.h"
#include "rule_table.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static const struct cli_explanation explanations[] = {
#define TL_EXPLAIN(id, why, fix) { id, why, fix },
#define TL_MESSAGE(id, template)
#include "explain.inc"
#undef TL_MESSAGE
#undef TL_EXPLAIN
};

/* The message templates each rule is reported with (specs/, "## Messages"). */
static const struct { const char *id, *template; } messages[] = {
#define TL_EXPLAIN(id, why, fix)
#define TL_MESSAGE(id, template) { id, template },
#include "explain.inc"
#undef TL_MESSAGE
#undef TL_EXPLAIN
};

static const struct cli_example examples[] = {
#define TL_EXAMPLE(id, path, location, excerpt) { id, path, location, excerpt },
#include "examples.inc"
#undef TL_EXAMPLE
};

const struct cli_explanation *cli_explanation_of(const char *id)
{
	for (size_t i = 0; i < sizeof explanations / sizeof *explanations; i++)
		if (strcmp(explanations[i].id, id) == 0)
			return &explanations[i];
	return NULL;
}

const struct cli_example *cli_example_of(const char *id)
{
	for (size_t i = 0; i < sizeof examples / sizeof *examples; i++)
		if (strcmp(examples[i].id, id) == 0)
			return &examples[i];
	return NULL;
}

/* Text wrapped at 76 columns, indented by two spaces. */
static void paragraph(const char *text)
{
	const char *p = text;
	while (*p) {
		size_t room = 74, n = strlen(p);
		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = strcspn(p, " ");
		}
		printf("  %.*s\n", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* "112" is a byte offset, written as text output writes it; "7:6" a line
 * and column. */
static const char *location_prefix(const char *location)
{
	return strchr(location, ':') ? "" : "offset ";
}

static void explain_text(const struct tl_rule_info *r)
{
	const struct cli_explanation *e = cli_explanation_of(r->id);
	const struct cli_example *x = cli_example_of(r->id);
	const char *former = tl_rule_former_id(r);
	printf("%s (%s, %s%s%s)\n\nWhat it checks\n", r->id, tl_severity_name(r->severity), r->format,
	       former ? "; formerly " : "", former ? former : "");
	paragraph(r->summary);
	size_t templates = 0;
	for (size_t i = 0; i < sizeof messages / sizeof *messages; i++)
		templates += strcmp(messages[i].id, r->id) == 0;
	if (templates)
		printf("\nMessage template%s\n", templates > 1 ? "s" : "");
	for (size_t i = 0; i < sizeof messages / sizeof *messages; i++)
		if (strcmp(messages[i].id, r->id) == 0)
			paragraph(messages[i].template);
	printf("\nWhy it matters\n");
	paragraph(e && *e->why ? e->why : "(no explanation written yet)");
	if (x) {
		printf("\nExample (a case of the test corpus)\n  %s:%s%s: %s: ... [%s]\n", x->path,
		       location_prefix(x->location), x->location, tl_severity_name(r->severity), r->id);
		for (const char *line = x->excerpt; *line;) {
			size_t n = strcspn(line, "\n");
			printf("  %.*s\n", (int)n, line);
			line += n + (line[n] == '\n');
		}
	}
	printf("\nHow to fix it\n");
	paragraph(e && *e->fix ? e->fix : "(no explanation written yet)");
	printf("\nSource\n");
	paragraph(r->source);
}

static json_object *explain_json(bool *nomem, const struct tl_rule_info *r)
{
	const struct cli_explanation *e = cli_explanation_of(r->id);
	const struct cli_example *x = cli_example_of(r->id);
	json_object *o = tl_jmade(nomem, json_object_new_object());
	tl_jset(nomem, o, "id", json_object_new_string(r->id));
	tl_jset(nomem, o, "severity", json_object_new_string(tl_severity_name(r->severity)));
	tl_jset(nomem, o, "format", json_object_new_string(r->format));
	const char *former = tl_rule_former_id(r);
	if (former)
		tl_jset(nomem, o, "former_id", json_object_new_string(former));
	else
		tl_jset_null(nomem, o, "former_id");
	tl_jset(nomem, o, "summary", json_object_new_string(r->summary));
	json_object *templates = tl_jmade(nomem, json_object_new_array());
	for (size_t i = 0; i < sizeof messages / sizeof *messages; i++)
		if (strcmp(messages[i].id, r->id) == 0)
			tl_jpush(nomem, templates, json_object_new_string(messages[i].template));
	tl_jset(nomem, o, "messages", templates);
	if (e) {
		tl_jset(nomem, o, "why", json_object_new_string(e->why));
		tl_jset(nomem, o, "fix", json_object_new_string(e->fix));
	} else {
		tl_jset_null(nomem, o, "why");
		tl_jset_null(nomem, o, "fix");
	}
	tl_jset(nomem, o, "source", json_object_new_string(r->source));
	if (x) {
		json_object *ex = tl_jmade(nomem, json_object_new_object());
		tl_jset(nomem, ex, "path", json_object_new_string(x->path));
		tl_jset(nomem, ex, "location", json_object_new_string(x->location));
		tl_jset(nomem, ex, "excerpt", json_object_new_string(x->excerpt));
		tl_jset(nomem, o, "example", ex);
	} else {
		tl_jset_null(nomem, o, "example");
	}
	return o;
}

int cli_explain(const struct cli *c)
{
	if (c->path_count == 0)
		return cli_usage_error("%s", "--explain needs a RULE (an ID or a glob such as 'XRAY-FDR-*')");
	for (size_t i = 0; i < c->path_count; i++)
		if (tl_rule_pattern_matches(c->paths[i]) == 0)
			return cli_usage_error("--explain: '%s' matches no rule (see --list-rules)", c->paths[i]);
	bool json = c->style != TL_OUTPUT_TEXT, nomem = false;
	json_object *all = json ? tl_jmade(&nomem, json_object_new_array()) : NULL;
	bool first = true;
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		bool named = false;
		for (size_t k = 0; k < c->path_count && !named; k++)
			named = tl_rule_matches(c->paths[k], r);
		if (!named)
			continue;
		if (json) {
			tl_jpush(&nomem, all, explain_json(&nomem, r));
			continue;
		}
		if (!first)
			printf("\n");
		first = false;
		explain_text(r);
	}
	if (json) {
		json_object *doc = tl_jmade(&nomem, json_object_new_object());
		tl_jset(&nomem, doc, "rules", all);
		if (tl_jprint(stdout, doc, nomem) != 0)
			return cli_usage_error("cannot write the explanations: %s", strerror(errno));
	}
	return fflush(stdout) == 0 ? EXIT_VALID : EXIT_USAGE;
}
