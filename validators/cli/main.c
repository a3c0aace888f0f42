/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "baseline.h"
#include "cli.h"
#include "explain.h"
#include "config.h"
#include "repair_cmd.h"
#include "run.h"
#include "validators/dump/dump.h"

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

/* The paths this run validated, sorted, trailing '/' removed: a recorded
 * diagnostic counts as gone only when its file (or, for a member of a trace
 * directory, the directory) is among them. */
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

static bool validated_init(struct validated *v, const struct cli_job *jobs, size_t count)
{
	v->count = 0;
	v->paths = calloc(count ? count : 1, sizeof *v->paths);
	for (size_t i = 0; v->paths && i < count; i++) {
		if (jobs[i].skipped)
			continue;
		char *p = strdup(without_dot_slash(jobs[i].path));
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

static int by_seq(const void *a, const void *b)
{
	const struct baseline_entry *x = *(const struct baseline_entry *const *)a;
	const struct baseline_entry *y = *(const struct baseline_entry *const *)b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* What the baseline did, said once at the end: how many known diagnostics
 * were not reported, and which recorded ones were not seen again in the
 * files this run validated (in the baseline's order). */
static void baseline_summary(const struct cli *c, const struct baseline *known,
			     const struct cli_job *jobs, size_t count, uint64_t suppressed)
{
	const struct baseline_entry **gone = calloc(known->count ? known->count : 1, sizeof *gone);
	struct validated files;
	bool listed = validated_init(&files, jobs, count);
	size_t n = 0;
	for (size_t i = 0; listed && gone && i < known->count; i++)
		if (!known->entries[i].matched && validated_has(&files, known->entries[i].path))
			gone[n++] = &known->entries[i];
	validated_free(&files);
	if (n) {
		qsort(gone, n, sizeof *gone, by_seq);
		fprintf(stderr, "tracelint: recorded in the baseline %s but no longer found:\n", c->baseline);
	}
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %s: %s: %s\n", gone[i]->path, gone[i]->rule, gone[i]->message);
	fprintf(stderr, "tracelint: baseline %s: %llu known diagnostic%s not reported, %zu no longer found\n",
		c->baseline, (unsigned long long)suppressed, suppressed == 1 ? "" : "s", n);
	free(gone);
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
	struct baseline known = { 0 }, record = { 0 };
	char err[1024];
	/* the jobs' rule settings point into the configs: they live as long */
	struct cli_configs *configs = cli_configs_new(c, err, sizeof err);
	if (!configs)
		rc = cli_usage_error("%s", err);
	if (rc < 0 && (rc = plan(c, configs, &targets, &jobs, &count)) < 0 && c->baseline &&
	    !baseline_load(&known, c->baseline, err, sizeof err))
		rc = cli_usage_error("%s", err);
	struct cli_reporting rep = { NULL, c->baseline ? &known : NULL,
				     c->write_baseline ? &record : NULL, 0 };
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
		tl_writer_set_context(rep.writer, c->context < 0 ? terminal : c->context);
		tl_writer_set_color(rep.writer, c->color == 2 ? terminal && wants_color() : c->color);
		rc = cli_run_jobs(jobs, count, c->jobs ? c->jobs : default_jobs(), &rep, &tally);
		if (tl_writer_finish(rep.writer) != 0) {
			fprintf(stderr, "tracelint: cannot write the report: %s\n", strerror(errno));
			rc = EXIT_USAGE;
		}
		rep.writer = NULL;
		if (c->write_baseline && !baseline_write(&record, c->write_baseline, err, sizeof err)) {
			fprintf(stderr, "tracelint: %s\n", err);
			rc = EXIT_USAGE;
		}
		if (c->baseline)
			baseline_summary(c, &known, jobs, count, rep.suppressed);
		/* -q keeps to one line a path, but a walk must say what it skipped */
		if (walked || tally.skipped || (!c->quiet && (c->path_count > 1 || c->files_from)))
			print_tally(&tally);
		if (c->quiet && c->style == TL_OUTPUT_TEXT)
			list_skipped(jobs, count);
	}
	if (rep.writer)
		tl_writer_finish(rep.writer);
	baseline_free(&known);
	baseline_free(&record);
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
