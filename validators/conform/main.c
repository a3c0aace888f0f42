/* tracelint-conform: options, the corpus run, the campaign, the report.
 * Exit status: 0 when every disagreement with tracelint is explained (or
 * there is none), 1 when one is not, 2 on a usage or I/O error or when the
 * reader command looks broken (it rejects every valid case). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "validators/conform/conform.h"

#ifndef CONFORM_DATADIR
#define CONFORM_DATADIR "/usr/local/share/tracelint"
#endif

static const char usage_text[] =
	"usage: tracelint-conform --format=FMT --reader='CMD {}' [OPTIONS] [CORPUS...]\n"
	"Runs CMD on every case of tracelint's labelled corpus for FMT ({} is the input\n"
	"path) and reports where the reader disagrees with tracelint.\n"
	"  --format=FMT          xray, tfile, dcfg, dcfg-trace or umtrace\n"
	"  --reader=CMD          shell command; {} stands for the input path in any quoting\n"
	"                        ({}, \"{}\" or '{}'; the shell gets it as $1, never as code)\n"
	"  --accept-rc=N[,N...]  exit statuses meaning 'accepted' (default 0)\n"
	"  --timeout=S           seconds before the reader and all it started are killed (default 10)\n"
	"  --output=md|json      report style (default md)\n"
	"  --report=FILE         write the report to FILE instead of standard output\n"
	"  --oracle=corpus|tracelint  our verdict on a corpus case: its label (default)\n"
	"                        or tracelint run through libtracelint\n"
	"  --mutate=N            differential campaign: N mutants of the valid cases\n"
	"  --seed=S              campaign seed (default 1); same seed, same mutants\n"
	"  --out=DIR             where kept (minimised) mutants go (default conform-out)\n"
	"  --keep=K              mutants kept per class and rule (default 3)\n"
	"  --minimize-budget=N   reader runs spent minimising one mutant (default 200)\n"
	"  --keep-all            also write every mutant to DIR/all/\n"
	"  --no-corpus           with --mutate: skip the run over the corpus cases\n"
	"  --max-time=S          with --mutate: make no new mutant after S seconds\n"
	"  --progress=N          with --mutate: a progress line on stderr every N mutants\n"
	"  --explain=FILE        known disagreements: lines 'KEY WHY', KEY a glob over the\n"
	"                        case name or the rule (optionally 'lenient:KEY' etc.)\n"
	"  --list=disagreements|all  corpus cases listed in the report (default disagreements)\n"
	"  --only=GLOB           run only the cases whose name (valid/x.xray) or file name\n"
	"                        matches; repeatable\n"
	"  --exclude=GLOB        leave out the cases that match; repeatable\n"
	"  --skip-compressed     leave out gzip, bzip2 and zstd cases (for readers that do\n"
	"                        not decompress)\n"
	"  --content             the reader prints what it decoded in the schema of\n"
	"                        'tracelint dump': compare it with each valid case's\n"
	"                        <case>.content.expected and report the first difference\n"
	"  --content-sort        with --content: sort the records by TSC first (llvm-xray)\n"
	"  --shard=K/N           with --mutate: run only mutants i with i % N == K-1 (shard 1\n"
	"                        also runs the corpus cases) and write a shard file, not a report\n"
	"  --merge SHARD...      read the N shard files of one campaign and write the report\n"
	"                        a single run would have written (--output, --report, --explain,\n"
	"                        --list apply); surplus kept mutants are removed from --out DIR\n"
	"                        only, when the shards were run with that directory\n"
	"CORPUS defaults to ./corpus/FMT, the corpus next to the program's build\n"
	"directory, or the installed " CONFORM_DATADIR "/corpus/FMT.\n"
	"Exit status: 0 every disagreement explained (by --explain) or none, 1 some\n"
	"unexplained disagreement, 2 error, or a reader that rejects every valid case\n"
	"(3 or more).\n";

struct options {
	const char *format;
	struct reader reader;
	bool json;
	const char *report_path;
	bool oracle_tracelint;
	bool mutate;
	bool no_corpus;
	const char *explain_path;
	bool list_all;
	bool merge;
	struct mutate_config mc;
	struct case_filter filter;
	bool content, content_sort;
};

/* Appends a glob to a --only / --exclude list; false when it is full. */
static bool add_glob(const char **list, size_t *n, const char *glob)
{
	if (*n == CASE_FILTER_MAX)
		return false;
	list[(*n)++] = glob;
	return true;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tracelint-conform: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage_text);
	return 2;
}

/* A two-valued option: *out becomes false for no, true for yes; false when
 * arg is neither, *out left alone. */
static bool parse_either(const char *arg, const char *no, const char *yes, bool *out)
{
	if (strcmp(arg, no) != 0 && strcmp(arg, yes) != 0)
		return false;
	*out = strcmp(arg, yes) == 0;
	return true;
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || v > max)
		return false;
	*out = v;
	return true;
}

/* A count option held in an unsigned: min..max. */
static bool parse_count(const char *s, unsigned min, unsigned max, unsigned *out)
{
	unsigned long long v;
	if (!parse_uint(s, max, &v) || v < min)
		return false;
	*out = (unsigned)v;
	return true;
}

static bool parse_accept_rc(const char *s, struct reader *r)
{
	r->n_accept_rc = 0;
	char *copy = xstrdup(s);
	bool ok = true;
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
		unsigned long long v;
		if (!parse_uint(t, 255, &v) || r->n_accept_rc == sizeof r->accept_rc / sizeof *r->accept_rc) {
			ok = false;
			break;
		}
		r->accept_rc[r->n_accept_rc++] = (int)v;
	}
	free(copy);
	return ok && r->n_accept_rc > 0;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ./corpus/FMT, then <dir of the program>/../corpus/FMT (build/ in a source
 * tree), then the installed copy. */
static void default_corpus(const char *fmt, char *out, size_t len)
{
	snprintf(out, len, "corpus/%s", fmt);
	if (is_dir(out))
		return;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (strlen(exe) + strlen(fmt) + 12 < len) {
				strcpy(out, exe);
				strcat(out, "/../corpus/");
				strcat(out, fmt);
				if (is_dir(out))
					return;
			}
		}
	}
	snprintf(out, len, "%s/corpus/%s", CONFORM_DATADIR, fmt);
}

static bool parse_shard(const char *s, struct mutate_config *mc)
{
	unsigned k, n;
	char tail;
	if (sscanf(s, "%u/%u%c", &k, &n, &tail) != 2 || k < 1 || k > n || n > 100000 || s[0] == '-')
		return false;
	mc->shard = k;
	mc->shards = n;
	return true;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	enum { O_FORMAT = 256, O_READER, O_ACCEPT, O_TIMEOUT, O_OUTPUT, O_REPORT, O_ORACLE, O_MUTATE,
	       O_SEED, O_OUT, O_KEEP, O_BUDGET, O_KEEP_ALL, O_NO_CORPUS, O_MAX_TIME, O_EXPLAIN, O_LIST, O_PROGRESS, O_SHARD, O_MERGE, O_HELP, O_VERSION,
	       O_ONLY, O_EXCLUDE, O_SKIP_COMPRESSED, O_CONTENT, O_CONTENT_SORT };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "reader", required_argument, NULL, O_READER },
		{ "accept-rc", required_argument, NULL, O_ACCEPT },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "output", required_argument, NULL, O_OUTPUT },
		{ "report", required_argument, NULL, O_REPORT },
		{ "oracle", required_argument, NULL, O_ORACLE },
		{ "mutate", required_argument, NULL, O_MUTATE },
		{ "seed", required_argument, NULL, O_SEED },
		{ "out", required_argument, NULL, O_OUT },
		{ "keep", required_argument, NULL, O_KEEP },
		{ "minimize-budget", required_argument, NULL, O_BUDGET },
		{ "keep-all", no_argument, NULL, O_KEEP_ALL },
		{ "no-corpus", no_argument, NULL, O_NO_CORPUS },
		{ "max-time", required_argument, NULL, O_MAX_TIME },
		{ "explain", required_argument, NULL, O_EXPLAIN },
		{ "list", required_argument, NULL, O_LIST },
		{ "progress", required_argument, NULL, O_PROGRESS },
		{ "shard", required_argument, NULL, O_SHARD },
		{ "merge", no_argument, NULL, O_MERGE },
		{ "only", required_argument, NULL, O_ONLY },
		{ "exclude", required_argument, NULL, O_EXCLUDE },
		{ "skip-compressed", no_argument, NULL, O_SKIP_COMPRESSED },
		{ "content", no_argument, NULL, O_CONTENT },
		{ "content-sort", no_argument, NULL, O_CONTENT_SORT },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	unsigned long long v;
	char *end;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case O_FORMAT: o->format = optarg; break;
		case O_READER: o->reader.command = optarg; break;
		case O_ACCEPT:
			if (!parse_accept_rc(optarg, &o->reader))
				return usage_error("bad --accept-rc (exit statuses 0-255, comma-separated)", optarg);
			break;
		case O_TIMEOUT:
			o->reader.timeout = strtod(optarg, &end);
			if (*end || !(o->reader.timeout > 0) || o->reader.timeout > 86400)
				return usage_error("bad --timeout (seconds, > 0)", optarg);
			break;
		case O_OUTPUT:
			/* "markdown" is another name for md */
			if (!parse_either(strcmp(optarg, "markdown") == 0 ? "md" : optarg, "md", "json", &o->json))
				return usage_error("bad --output (md or json)", optarg);
			break;
		case O_REPORT: o->report_path = optarg; break;
		case O_ORACLE:
			if (!parse_either(optarg, "corpus", "tracelint", &o->oracle_tracelint))
				return usage_error("bad --oracle (corpus or tracelint)", optarg);
			break;
		case O_MUTATE:
			if (!parse_count(optarg, 0, 100000000, &o->mc.count))
				return usage_error("bad --mutate (a count)", optarg);
			o->mutate = true;
			break;
		case O_SEED:
			if (!parse_uint(optarg, ~0ULL, &v))
				return usage_error("bad --seed (an unsigned integer)", optarg);
			o->mc.seed = v;
			break;
		case O_OUT: o->mc.out_dir = optarg; break;
		case O_KEEP:
			if (!parse_count(optarg, 0, 100000, &o->mc.keep_per_group))
				return usage_error("bad --keep", optarg);
			break;
		case O_BUDGET:
			if (!parse_count(optarg, 0, 1000000, &o->mc.minimize_budget))
				return usage_error("bad --minimize-budget", optarg);
			break;
		case O_KEEP_ALL: o->mc.keep_all = true; break;
		case O_NO_CORPUS: o->no_corpus = true; break;
		case O_MAX_TIME:
			o->mc.max_seconds = strtod(optarg, &end);
			if (*end || !(o->mc.max_seconds > 0))
				return usage_error("bad --max-time (seconds, > 0)", optarg);
			break;
		case O_EXPLAIN: o->explain_path = optarg; break;
		case O_PROGRESS:
			if (!parse_count(optarg, 1, 1000000000, &o->mc.progress_every))
				return usage_error("bad --progress (mutants, > 0)", optarg);
			break;
		case O_SHARD:
			if (!parse_shard(optarg, &o->mc))
				return usage_error("bad --shard (K/N, 1 <= K <= N)", optarg);
			break;
		case O_MERGE: o->merge = true; break;
		case O_ONLY:
			if (!add_glob(o->filter.only, &o->filter.n_only, optarg))
				return usage_error("too many --only", optarg);
			break;
		case O_EXCLUDE:
			if (!add_glob(o->filter.exclude, &o->filter.n_exclude, optarg))
				return usage_error("too many --exclude", optarg);
			break;
		case O_SKIP_COMPRESSED: o->filter.skip_compressed = true; break;
		case O_CONTENT: o->content = true; break;
		case O_CONTENT_SORT: o->content = o->content_sort = true; break;
		case O_LIST:
			if (!parse_either(optarg, "disagreements", "all", &o->list_all))
				return usage_error("bad --list (disagreements or all)", optarg);
			break;
		case 'h':
		case O_HELP: fputs(usage_text, stdout); exit(0);
		case 'V':
		case O_VERSION: printf("tracelint-conform %s\n", TRACELINT_VERSION); exit(0);
		default: return usage_error("unknown option", argv[optind - 1]);
		}
	}
	if (o->merge) {
		if (o->mutate || o->mc.shards || o->format || o->reader.command)
			return usage_error("--merge takes only shard files and report options", NULL);
		if (optind == argc)
			return usage_error("--merge needs the shard files", NULL);
		return 0;
	}
	if (!o->format)
		return usage_error("--format is required", NULL);
	if (!o->reader.command || !*o->reader.command)
		return usage_error("--reader is required", NULL);
	o->mc.format = tl_format_from_name(o->format);
	if (o->mc.format == TL_FORMAT_COUNT || o->mc.format == TL_FORMAT_AUTO)
		return usage_error("unknown format", o->format);
	if (o->no_corpus && !o->mutate)
		return usage_error("--no-corpus needs --mutate", NULL);
	if (o->mc.shards && !o->mutate)
		return usage_error("--shard needs --mutate", NULL);
	if (o->content && (o->mc.shards || o->no_corpus))
		return usage_error("--content compares the corpus cases: not with --shard or --no-corpus", NULL);
	return 0;
}

/* Our verdict on a corpus case: its label, or tracelint's when asked or unlabelled. */
static int our_verdict(const struct options *o, const struct corpus_case *c, struct verdict *v)
{
	if (c->labelled && !o->oracle_tracelint) {
		*v = c->label;
		return 0;
	}
	char err[512];
	if (oracle_path(o->mc.format, c->path, c->args, v, err, sizeof err) == 0)
		return 0;
	fprintf(stderr, "tracelint-conform: %s: tracelint could not validate it: %s\n", c->path, err);
	if (!c->labelled)
		return -1;
	*v = c->label;
	return 0;
}

/* --content: what the reader printed for an accepted case against the
 * case's expected content, when it has one. */
static void compare_content(const struct options *o, struct corpus_row *row, const char *printed)
{
	char expected[4200];
	snprintf(expected, sizeof expected, "%s.content.expected", row->c->path);
	if (access(expected, R_OK) != 0)
		return;
	int rc = content_compare(expected, printed, o->content_sort, row->content_diff,
				 sizeof row->content_diff);
	if (rc < 0)
		fprintf(stderr, "tracelint-conform: %s\n", row->content_diff);
	else
		row->content = rc ? CONTENT_DIFFERS : CONTENT_SAME;
}

/* The report (or with --shard the shard file) to --report or stdout. */
static int write_report(const struct options *o, const struct report *rep)
{
	FILE *out = stdout;
	if (o->report_path && !(out = fopen(o->report_path, "w"))) {
		perror(o->report_path);
		return 2;
	}
	if (o->mc.shards) {
		struct shard_spec spec = { .index = o->mc.shard, .count = o->mc.shards,
					   .keep_per_group = o->mc.keep_per_group };
		shard_write(out, rep, &spec);
	} else if (o->json) {
		report_json(out, rep);
	} else {
		report_markdown(out, rep);
	}
	if ((out != stdout ? fclose(out) : fflush(out)) != 0) {
		fprintf(stderr, "tracelint-conform: cannot write the report\n");
		return 2;
	}
	return 0;
}

static int merge_main(const struct options *o, char *const *paths, size_t n)
{
	char err[4400];
	struct explanations explain;
	if (o->explain_path && explanations_load(&explain, o->explain_path, err, sizeof err) != 0) {
		fprintf(stderr, "tracelint-conform: %s\n", err);
		return 2;
	}
	struct merged m;
	if (shard_merge(paths, n, o->mc.out_dir, &m, err, sizeof err) != 0) {
		fprintf(stderr, "tracelint-conform: --merge: %s\n", err);
		merged_free(&m);
		if (o->explain_path)
			explanations_free(&explain);
		return 2;
	}
	m.rep.explain = o->explain_path ? &explain : NULL;
	m.rep.list_all = o->list_all;
	bool disagree = report_unexplained(&m.rep) > 0;
	int rc = write_report(o, &m.rep);
	merged_free(&m);
	if (o->explain_path)
		explanations_free(&explain);
	return rc ? rc : disagree ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	memset(&o, 0, sizeof o);
	o.reader.accept_rc[0] = 0;
	o.reader.n_accept_rc = 1;
	o.reader.timeout = 10;
	o.mc.seed = 1;
	o.mc.out_dir = "conform-out";
	o.mc.keep_per_group = 3;
	o.mc.minimize_budget = 200;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.merge)
		return merge_main(&o, argv + optind, (size_t)(argc - optind));
	o.mc.reader = &o.reader;
	reader_install_interrupt_handler();
	/* The corpus cases are run once per campaign: by shard 1. */
	if (o.mc.shards > 1 && o.mc.shard != 1)
		o.no_corpus = true;

	struct corpus corpus = { 0 };
	char err[4200], desc[4096] = "";
	struct explanations explain;
	if (o.explain_path && explanations_load(&explain, o.explain_path, err, sizeof err) != 0) {
		fprintf(stderr, "tracelint-conform: %s\n", err);
		return 2;
	}
	if (optind == argc) {
		char dir[4096];
		default_corpus(o.format, dir, sizeof dir);
		if (corpus_add(&corpus, dir, err, sizeof err) != 0) {
			fprintf(stderr, "tracelint-conform: %s (give a CORPUS directory)\n", err);
			return 2;
		}
		snprintf(desc, sizeof desc, "%s", dir);
	}
	for (int i = optind; i < argc; i++) {
		if (corpus_add(&corpus, argv[i], err, sizeof err) != 0) {
			fprintf(stderr, "tracelint-conform: %s\n", err);
			corpus_free(&corpus);
			return 2;
		}
		size_t n = strlen(desc);
		snprintf(desc + n, sizeof desc - n, "%s%s", n ? ", " : "", argv[i]);
	}
	size_t left_out = corpus_select(&corpus, &o.filter);
	if (left_out)
		fprintf(stderr, "tracelint-conform: %zu case%s left out by --only, --exclude or "
			"--skip-compressed\n", left_out, left_out == 1 ? "" : "s");
	if (!corpus.count) {
		fprintf(stderr, "tracelint-conform: no case in %s\n", desc);
		corpus_free(&corpus);
		if (o.explain_path)
			explanations_free(&explain);
		return 2;
	}

	struct report rep = { .format = o.format, .reader = &o.reader, .corpus_desc = desc,
			      .corpus_run = !o.no_corpus, .list_all = o.list_all,
			      .explain = o.explain_path ? &explain : NULL };
	/* --content: the reader's standard output is kept in a file to compare */
	struct reader corpus_reader = o.reader;
	char content_out[64] = "", *wrapped = NULL;
	if (o.content) {
		snprintf(content_out, sizeof content_out, "/tmp/tracelint-conform-content.XXXXXX");
		int fd = mkstemp(content_out);
		if (fd < 0) {
			perror("tracelint-conform: mkstemp");
			rc = 2;
			goto done;
		}
		close(fd);
		size_t len = strlen(o.reader.command) + strlen(content_out) + 16;
		wrapped = xrealloc(NULL, len);
		snprintf(wrapped, len, "{ %s\n} > '%s'", o.reader.command, content_out);
		corpus_reader.command = wrapped;
		rep.content_run = true;
	}
	if (!o.no_corpus) {
		rep.rows = xrealloc(NULL, corpus.count * sizeof *rep.rows);
		for (size_t i = 0; i < corpus.count; i++) {
			struct corpus_row *row = &rep.rows[rep.n_rows];
			row->c = &corpus.cases[i];
			if (our_verdict(&o, row->c, &row->ours) != 0)
				continue;
			row->content = CONTENT_NOT_COMPARED;
			row->content_diff[0] = '\0';
			if (reader_run(&corpus_reader, row->c->path, row->c->args, &row->run) != 0) {
				fprintf(stderr, "tracelint-conform: cannot run the reader\n");
				rc = 2;
				goto done;
			}
			row->dis = compare_verdicts(&row->ours, &row->run);
			/* where tracelint's error is and what it says, for the report */
			if (row->ours.reject && !row->ours.message[0])
				oracle_detail(o.mc.format, row->c, &row->ours);
			if (o.content && row->dis == DIS_AGREE && !row->ours.reject)
				compare_content(&o, row, content_out);
			rep.n_rows++;
		}
	}
	/* A reader that takes none of the valid cases is run wrongly: say so
	 * instead of counting its disagreements. */
	bool broken = reader_looks_broken(&rep, rep.broken, sizeof rep.broken);
	if (broken)
		fprintf(stderr, "tracelint-conform: the reader command looks broken: %s\n", rep.broken);
	struct campaign camp;
	if (o.mutate && !broken) {
		if (campaign_run(&o.mc, &corpus, &camp, err, sizeof err) != 0) {
			fprintf(stderr, "tracelint-conform: %s\n", err);
			rc = 2;
			goto done;
		}
		rep.campaign = &camp;
	}

	rc = write_report(&o, &rep);
	if (!rc)
		rc = broken ? 2 : report_unexplained(&rep) ? 1 : 0;
	if (rep.campaign)
		campaign_free(&camp);
done:
	if (content_out[0])
		unlink(content_out);
	free(wrapped);
	free(rep.rows);
	corpus_free(&corpus);
	if (o.explain_path)
		explanations_free(&explain);
	return rc;
}
