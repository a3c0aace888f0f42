/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "baseline.h"
#include "cli.h"
#include "explain.h"
#include "config.h"
#include "repair_cmd.h"
#include "run.h"
#include "validators/dump/dump.h"
#include "safe_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The closing count of a run over several paths, on standard error so that
 * the report itself (stdout) stays one document in every style. */
static void print_tally(const struct cli_tally *t)
{
	size_t all = t->valid + t->invalid + t->unreadable + t->skipped;
	fprintf(stderr, "tracelint: %zu file%s: %zu valid, %zu invalid, %zu unreadable, %zu skipped\n",
		all, all == 1 ? "" : "s", t->valid, t->invalid, t->unreadable, t->skipped);
}

/* -q leaves the skipped paths out of the report: they are named here. */
static void list_skipped(const struct cli_job *jobs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (jobs[i].skipped)
			fprintf(stderr, "  skipped: %s: %s\n", jobs[i].path,
				jobs[i].skip_reason ? jobs[i].skip_reason : jobs[i].err);
}

static int check_arguments(const struct cli *c)
{
	size_t stdin_count = c->files_from && strcmp(c->files_from, "-") == 0;
	for (size_t i = 0; i < c->path_count; i++)
		stdin_count += strcmp(c->paths[i], "-") == 0;
	if (stdin_count > 1)
		return cli_usage_error("%s", "standard input ('-') named more than once");
	if (c->nul_separated && !c->files_from)
		return cli_usage_error("%s", "-0 applies to --files-from");
	if (c->config_path && c->no_config)
		return cli_usage_error("%s", "--config and --no-config exclude each other");
	return -1;
}

/* --color=auto: a terminal that can show colours, and no NO_COLOR (no-color.org). */
static bool wants_color(void)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	return !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

static unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* The jobs of the run: one per path, with its options resolved from the
 * command line and its config. Excluded paths are dropped here. */
static int plan(struct cli *c, struct cli_configs *cc, const struct cli_targets *targets,
		struct cli_job **jobs_out, size_t *count_out)
{
	char err[1024];
	struct cli_job *jobs = calloc(targets->count ? targets->count : 1, sizeof *jobs);
	size_t count = 0;
	int rc = jobs ? -1 : cli_usage_error("%s", "out of memory");
	for (size_t i = 0; rc < 0 && i < targets->count; i++) {
		struct cli_job *job = &jobs[count];
		if (!cli_configs_resolve(cc, c, targets->items[i].path, targets->items[i].walked,
					 &job->file, err, sizeof err)) {
			rc = cli_usage_error("%s", err);
		} else if (job->file.excluded) {
			cli_file_options_free(&job->file);
		} else {
			job->path = targets->items[i].path;
			job->skip_reason = targets->items[i].skip_reason;
			count++;
		}
	}
	*jobs_out = jobs;
	*count_out = count;
	return rc;
}

static void free_jobs(struct cli_job *jobs, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		cli_file_options_free(&jobs[i].file);
		diag_record_free(&jobs[i].record);
	}
	free(jobs);
}

/* The paths this run validated, sorted, trailing '/' removed, keyed as the
 * baseline keys them: a recorded diagnostic counts as gone only when its
 * file (or, for a member of a trace directory, the directory) is among them. */
struct validated {
	char **paths;
	size_t count;
};

/* "./a/b" and "a/b" are the same path (as for fingerprints). */
static const char *without_dot_slash(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	return p;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool validated_init(struct validated *v, const struct baseline_known *known,
			   const struct cli_job *jobs, size_t count)
{
	char key[4096];
	v->count = 0;
	v->paths = calloc(count ? count : 1, sizeof *v->paths);
	for (size_t i = 0; v->paths && i < count; i++) {
		if (jobs[i].skipped)
			continue;
		if (known->version >= 2)
			baseline_key_path(&known->anchor, jobs[i].path, key, sizeof key);
		else
			snprintf(key, sizeof key, "%s", jobs[i].path);
		char *p = strdup(without_dot_slash(key));
		if (!p)
			return false;
		for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
			p[n - 1] = '\0';
		v->paths[v->count++] = p;
	}
	if (v->paths)
		qsort(v->paths, v->count, sizeof *v->paths, by_string);
	return v->paths != NULL;
}

static bool validated_has(const struct validated *v, const char *shown)
{
	shown = without_dot_slash(shown);
	char parent[4096];
	const char *key = shown;
	if (bsearch(&key, v->paths, v->count, sizeof *v->paths, by_string))
		return true;
	const char *slash = strrchr(shown, '/');
	if (!slash || (size_t)(slash - shown) >= sizeof parent)
		return false;
	snprintf(parent, sizeof parent, "%.*s", (int)(slash - shown), shown);
	key = parent;
	return bsearch(&key, v->paths, v->count, sizeof *v->paths, by_string) != NULL;
}

static void validated_free(struct validated *v)
{
	for (size_t i = 0; i < v->count; i++)
		free(v->paths[i]);
	free(v->paths);
}

struct gone_list {
	const char *baseline;
	const struct validated *files;
	size_t count;
};

/* A recorded diagnostic not seen again: its text comes from the baseline
 * file, so none of it reaches the terminal unescaped. */
static void print_gone(const char *path, const char *rule, const char *message, void *user)
{
	struct gone_list *g = user;
	if (!validated_has(g->files, path))
		return;
	char safe_path[4 * 4096], safe_rule[4 * 256], safe_message[4 * 1024], safe_name[4 * 4096];
	if (g->count++ == 0) {
		tl_text_escape(safe_name, sizeof safe_name, g->baseline);
		fprintf(stderr, "tracelint: recorded in the baseline %s but no longer found:\n", safe_name);
	}
	tl_text_escape(safe_path, sizeof safe_path, path);
	tl_text_escape(safe_rule, sizeof safe_rule, rule);
	tl_text_escape(safe_message, sizeof safe_message, message);
	fprintf(stderr, "  %s: %s: %s\n", safe_path, safe_rule, safe_message);
}

/* What the baseline did, said once at the end: how many known diagnostics
 * were not reported, and which recorded ones were not seen again in the
 * files this run validated (in the baseline's order). */
static bool baseline_summary(const struct cli *c, struct baseline_known *known,
			     const struct cli_job *jobs, size_t count, uint64_t suppressed)
{
	struct validated files;
	struct gone_list g = { c->baseline, &files, 0 };
	char err[1024], name[4 * 4096];
	bool ok = validated_init(&files, known, jobs, count);
	if (!ok)
		snprintf(err, sizeof err, "out of memory");
	else
		ok = baseline_each_gone(known, print_gone, &g, err, sizeof err);
	validated_free(&files);
	tl_text_escape(name, sizeof name, c->baseline);
	if (!ok) {
		tl_text_escape(name, sizeof name, err);
		fprintf(stderr, "tracelint: %s\n", name);
		return false;
	}
	fprintf(stderr, "tracelint: baseline %s: %llu known diagnostic%s not reported, %zu no longer found\n",
		name, (unsigned long long)suppressed, suppressed == 1 ? "" : "s", g.count);
	return true;
}

static int validate_all(struct cli *c)
{
	int rc = check_arguments(c);
	if (rc >= 0)
		return rc;
	struct cli_targets targets = { 0 };
	bool listed = cli_expand(&targets, c->paths, c->path_count);
	if (listed && c->files_from && !cli_expand_list(&targets, c->files_from, c->nul_separated)) {
		fprintf(stderr, "tracelint: cannot read the paths of --files-from %s: %s\n", c->files_from,
			strerror(errno));
		cli_targets_free(&targets);
		return EXIT_USAGE;
	}
	if (!listed) {
		cli_targets_free(&targets);
		fprintf(stderr, "tracelint: out of memory\n");
		return EXIT_USAGE;
	}
	char staged_err[256];
	if (c->staged_deletions && !cli_expand_staged_deletions(&targets, staged_err, sizeof staged_err)) {
		cli_targets_free(&targets);
		fprintf(stderr, "tracelint: %s\n", staged_err);
		return EXIT_USAGE;
	}
	bool walked = false;
	for (size_t i = 0; i < targets.count; i++)
		walked |= targets.items[i].walked;

	struct cli_job *jobs = NULL;
	size_t count = 0;
	struct baseline_known known;
	struct baseline_out record;
	bool known_loaded = false, record_open = false;
	char err[1024];
	memset(&known, 0, sizeof known);
	/* the jobs' rule settings point into the configs: they live as long */
	struct cli_configs *configs = cli_configs_new(c, err, sizeof err);
	if (!configs)
		rc = cli_usage_error("%s", err);
	if (rc < 0)
		rc = plan(c, configs, &targets, &jobs, &count);
	if (rc < 0 && c->baseline && !(known_loaded = baseline_load(&known, c->baseline, err, sizeof err)))
		rc = cli_usage_error("%s", err);
	/* the baseline to write is made (beside its target) before the run, so
	 * that a directory it cannot go to fails now, not after the run */
	if (rc < 0 && c->write_baseline &&
	    !(record_open = baseline_out_open(&record, c->write_baseline, c->write_through_symlink,
						     err, sizeof err)))
		rc = cli_usage_error("%s", err);
	struct cli_reporting rep = { NULL, known_loaded ? &known : NULL, record_open ? &record : NULL, 0, false };
	if (rc < 0 && c->sarif_root && access(c->sarif_root, X_OK) != 0)
		rc = cli_usage_error("--sarif-root: cannot use the directory '%s': %s", c->sarif_root,
				     strerror(errno));
	if (rc < 0 && (!(rep.writer = tl_writer_new(c->style, stdout, c->quiet)) ||
		       (c->sarif_root && !tl_writer_set_source_root(rep.writer, c->sarif_root)) ||
		       (c->help_base && !tl_writer_set_help_base(rep.writer, c->help_base)))) {
		fprintf(stderr, "tracelint: out of memory\n");
		rc = EXIT_USAGE;
	}
	if (rc < 0) {
		struct cli_tally tally = { 0 };
		tl_writer_set_baseline(rep.writer, c->baseline != NULL);
		bool terminal = isatty(STDOUT_FILENO);
		bool context = c->context < 0 ? terminal : c->context;
		tl_writer_set_context(rep.writer, context);
		rep.context = context && c->style == TL_OUTPUT_TEXT; /* the one style that shows it */
		tl_writer_set_color(rep.writer, c->color == 2 ? terminal && wants_color() : c->color);
		rc = cli_run_jobs(jobs, count, c->jobs ? c->jobs : default_jobs(), &rep, &tally);
		if (tl_writer_finish(rep.writer) != 0) {
			fprintf(stderr, "tracelint: cannot write the report: %s\n", strerror(errno));
			rc = EXIT_USAGE;
		}
		rep.writer = NULL;
		/* before the new baseline replaces the old one, which may be the same file */
		if (known_loaded && !baseline_summary(c, &known, jobs, count, rep.known_count))
			rc = EXIT_USAGE;
		if (record_open) {
			record_open = false;
			if (!baseline_out_commit(&record, err, sizeof err)) {
				char safe[4 * sizeof err];
				tl_text_escape(safe, sizeof safe, err);
				fprintf(stderr, "tracelint: %s\n", safe);
				rc = EXIT_USAGE;
			}
		}
		/* -q keeps to one line a path, but a walk must say what it skipped */
		if (walked || tally.skipped || (!c->quiet && (c->path_count > 1 || c->files_from)))
			print_tally(&tally);
		if (c->quiet && c->style == TL_OUTPUT_TEXT)
			list_skipped(jobs, count);
	}
	if (rep.writer)
		tl_writer_finish(rep.writer);
	if (record_open)
		baseline_out_abort(&record);
	if (known_loaded || c->baseline)
		baseline_known_free(&known);
	free_jobs(jobs, count);
	cli_configs_free(configs);
	cli_targets_free(&targets);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "repair") == 0)
		return cli_repair(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "dump") == 0)
		return tl_dump_main(argc - 1, argv + 1);
	struct cli c;
	memset(&c, 0, sizeof c);
	tl_options_init(&c.opts);
	c.unknown_format = -1;
	c.context = -1;
	c.color = 2;
	int rc = cli_parse(&c, argc, argv);
	if (rc < 0) {
		if (c.explain)
			rc = cli_explain(&c);
		else if (c.list_rules)
			rc = cli_list_rules(&c);
		else if (c.path_count == 0 && !c.files_from && !c.staged_deletions)
			rc = cli_usage_error("%s", "no PATH given");
		else
			rc = validate_all(&c);
	}
	cli_free(&c);
	return rc;
}
