/* --explain RULE...: what a rule checks (its catalog row: statement,
 * severity, format, source) and an example from the labelled corpus: the
 * first case whose expected diagnostics hold the rule, validated here, with
 * the diagnostic and its context as text output shows them. */
#include "cli.h"
#include "writer.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TRACELINT_DATADIR
#define TRACELINT_DATADIR "/usr/local/share/tracelint"
#endif

/* The corpus: TRACELINT_CORPUS, the installed copy, or the source tree's
 * when tracelint runs from its build directory (build/ or build/san/). */
static bool find_corpus(char *out, size_t len) /* out: PATH_MAX bytes at least */
{
	const char *env = getenv("TRACELINT_CORPUS");
	struct stat st;
	if (env && *env) {
		int w = snprintf(out, len, "%s", env);
		return w > 0 && (size_t)w < len && stat(out, &st) == 0 && S_ISDIR(st.st_mode);
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		static const char *const up[] = { "/../corpus", "/../../corpus" };
		for (size_t i = 0; i < sizeof up / sizeof *up; i++) {
			char candidate[PATH_MAX + 16];
			int w = snprintf(candidate, sizeof candidate, "%s%s", exe, up[i]);
			/* shown in examples: the real path, without "build/.." */
			if (w > 0 && (size_t)w < sizeof candidate && realpath(candidate, out) &&
			    stat(out, &st) == 0 && S_ISDIR(st.st_mode))
				return true;
		}
	}
	int w = snprintf(out, len, "%s/corpus", TRACELINT_DATADIR);
	return w > 0 && (size_t)w < len && stat(out, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether the .expected sidecar at path names the rule ("LOCATION SEVERITY RULE" lines). */
static bool expects(const char *path, const char *rule)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	size_t n = strlen(rule);
	while (!found && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		size_t k = strlen(line);
		found = line[0] != '#' && k > n && line[k - n - 1] == ' ' && strcmp(line + k - n, rule) == 0;
	}
	fclose(f);
	return found;
}

/* The first case (in name order) of corpus/<format dir>/{invalid,valid,regressions}
 * expected to give the rule; false when none is. */
static bool find_case(const char *corpus, const struct tl_rule_info *r, char *out, size_t len)
{
	static const char *const kinds[] = { "invalid", "valid", "regressions" };
	const char *dir = strcmp(r->format, "json") == 0 || strcmp(r->format, "core") == 0 ? NULL : r->format;
	static const char *const all[] = { "xray", "tfile", "dcfg", "dcfg-trace", "umtrace" };
	for (size_t d = 0; d < sizeof all / sizeof *all; d++) {
		if (dir && strcmp(dir, all[d]) != 0 && !(strcmp(dir, "pair") == 0 && strcmp(all[d], "dcfg-trace") == 0))
			continue;
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			char where[PATH_MAX];
			int w = snprintf(where, sizeof where, "%s/%s/%s", corpus, all[d], kinds[k]);
			if (w < 0 || (size_t)w >= sizeof where)
				continue;
			struct dirent **names;
			int n = scandir(where, &names, NULL, alphasort);
			bool hit = false;
			for (int i = 0; i < n; i++) {
				const char *name = names[i]->d_name;
				size_t l = strlen(name);
				if (!hit && l > 9 && strcmp(name + l - 9, ".expected") == 0) {
					char sidecar[PATH_MAX + 256];
					int s1 = snprintf(sidecar, sizeof sidecar, "%s/%s", where, name);
					if (s1 > 0 && (size_t)s1 < sizeof sidecar && expects(sidecar, r->id)) {
						int s2 = snprintf(out, len, "%s/%.*s", where, (int)(l - 9), name);
						hit = s2 > 0 && (size_t)s2 < len;
					}
				}
				free(names[i]);
			}
			if (n >= 0)
				free(names);
			if (hit)
				return true;
		}
	}
	return false;
}

struct example {
	const struct tl_rule_info *rule;
	struct tl_writer *w;
	unsigned shown;
};

/* Shows the diagnostics of the rule only, the first few. */
static void show(const struct tl_diagnostic *d, void *user)
{
	struct example *e = user;
	if (d->rule == e->rule && e->shown++ < 2)
		tl_writer_diag(d, e->w);
}

/* The options of the case's .args sidecar (--pair, --instr-map relative to it, --endian, --format). */
static void case_options(const char *path, struct tl_options *o, char *pair, char *map, size_t len)
{
	char args[PATH_MAX + 8], dir[PATH_MAX];
	snprintf(args, sizeof args, "%s.args", path);
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	FILE *f = fopen(args, "r");
	char line[1024];
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		const char *v;
		int w;
		if (strncmp(line, "--pair=", 7) == 0 && (v = line + 7)) {
			w = snprintf(pair, len, "%s%s%s", *v == '/' ? "" : dir, *v == '/' ? "" : "/", v);
			if (w > 0 && (size_t)w < len)
				o->pair_path = pair;
		} else if (strncmp(line, "--instr-map=", 12) == 0 && (v = line + 12)) {
			w = snprintf(map, len, "%s%s%s", *v == '/' ? "" : dir, *v == '/' ? "" : "/", v);
			if (w > 0 && (size_t)w < len)
				o->instr_map_path = map;
		} else if (strcmp(line, "--endian=big") == 0 || strcmp(line, "--endian=little") == 0) {
			o->endian = line[9] == 'b' ? TL_ENDIAN_BIG : TL_ENDIAN_LITTLE;
		} else if (strncmp(line, "--format=", 9) == 0) {
			o->format = tl_format_from_name(line + 9);
		} else if (strncmp(line, "--max-errors=", 13) == 0) {
			o->max_errors = (unsigned)strtoul(line + 13, NULL, 10);
		}
	}
	if (f)
		fclose(f);
}

/* The environment of the case's .env sidecar (VAR=value lines, e.g. a lowered
 * memory cap), set for its validation; unset again by unset_case_env. */
static void case_env(const char *path, bool set)
{
	char env[PATH_MAX + 8];
	snprintf(env, sizeof env, "%s.env", path);
	FILE *f = fopen(env, "r");
	char line[1024];
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char *eq = strchr(line, '=');
		if (line[0] == '#' || !eq)
			continue;
		*eq = '\0';
		if (set)
			setenv(line, eq + 1, 1);
		else
			unsetenv(line);
	}
	if (f)
		fclose(f);
}

static void explain_one(const struct tl_rule_info *r, const char *corpus, bool have_corpus)
{
	printf("%s (%s, %s)\n\n  %s\n\n  Source: %s\n  Catalog: specs/%s.md\n", r->id, r->format,
	       tl_severity_name(r->severity), r->summary, r->source,
	       strcmp(r->format, "pair") == 0 ? "dcfg-trace" : strcmp(r->format, "json") == 0 ? "dcfg" : r->format);
	char path[PATH_MAX];
	if (!have_corpus || !find_case(corpus, r, path, sizeof path)) {
		printf("\n  No corpus case shows it%s.\n\n", have_corpus ? "" : " (the corpus was not found; set TRACELINT_CORPUS)");
		return;
	}
	printf("\n  Example, %s:\n", path);
	struct tl_options o;
	struct tl_result result;
	char err[512] = "", pair[PATH_MAX], map[PATH_MAX];
	tl_options_init(&o);
	o.max_errors = 0;
	case_options(path, &o, pair, map, sizeof pair);
	struct example e = { r, tl_writer_new(TL_OUTPUT_TEXT, stdout, false), 0 };
	if (!e.w)
		return;
	tl_writer_set_context(e.w, true);
	tl_writer_begin(e.w, path);
	o.on_diag = show;
	o.user = &e;
	fflush(stdout);
	case_env(path, true);
	enum tl_status status = tl_validate_path(path, &o, &result, err, sizeof err);
	case_env(path, false);
	if (status != TL_OK || e.shown == 0)
		printf("  (the case did not give it here%s%s)\n", err[0] ? ": " : "", err);
	tl_writer_finish(e.w);
	printf("\n");
}

int cli_explain(const struct cli *c)
{
	if (c->path_count == 0)
		return cli_usage_error("%s", "--explain needs a rule ID or glob");
	for (size_t i = 0; i < c->path_count; i++)
		if (tl_rule_pattern_matches(c->paths[i]) == 0)
			return cli_usage_error("--explain: '%s' matches no rule (see --list-rules)", c->paths[i]);
	char found[PATH_MAX], corpus[PATH_MAX] = "corpus";
	bool have_corpus = find_corpus(found, sizeof found);
	if (have_corpus) {
		/* examples are validated from the corpus's parent, so that their paths
		 * read corpus/<format>/... whatever the installation */
		char *slash = strrchr(found, '/');
		if (slash && slash[1]) {
			snprintf(corpus, sizeof corpus, "%s", slash + 1);
			*slash = '\0';
			have_corpus = chdir(*found ? found : "/") == 0;
		}
	}
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		for (size_t k = 0; k < c->path_count; k++) {
			if (tl_rule_matches(c->paths[k], r)) {
				explain_one(r, corpus, have_corpus);
				break;
			}
		}
	}
	return EXIT_VALID;
}
