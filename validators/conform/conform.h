/* tracelint-conform: runs another trace reader over our labelled corpus (or
 * over mutants of it) and reports where it disagrees with tracelint. */
#ifndef CONFORM_H
#define CONFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracelint.h"

#define CONFORM_LINE 200 /* longest message line kept from a reader or rule */

/* What the reader did with one input. */
enum run_outcome {
	RUN_ACCEPTED = 0,  /* exit status in the --accept-rc list */
	RUN_REJECTED,      /* any other exit status */
	RUN_CRASHED,       /* killed by a signal (or a shell reporting one) */
	RUN_SANITIZER,     /* a sanitizer report in its output */
	RUN_TIMEOUT,       /* still running after --timeout; its group was killed */
	RUN_OUTCOME_COUNT
};

/* How the reader's outcome compares with our verdict. */
enum disagreement {
	DIS_AGREE = 0,
	DIS_LENIENT,  /* reader accepts a file we reject */
	DIS_STRICT,   /* reader rejects a file we accept */
	DIS_CRASH,    /* signal or sanitizer report, whatever our verdict */
	DIS_HANG,
	DIS_COUNT
};

struct run_result {
	enum run_outcome outcome;
	int code;                    /* exit status, or the signal number */
	char message[CONFORM_LINE];  /* first line of stderr (else stdout), or the sanitizer line */
};

/* How the reader is started and judged. */
struct reader {
	const char *command;     /* shell command; {} stands for the input path */
	int accept_rc[16];
	size_t n_accept_rc;
	double timeout;          /* seconds */
};

/* Our verdict on an input. */
struct verdict {
	bool reject;
	char rule[64];           /* first error rule, "" when accepted or unknown */
	/* of that error, when tracelint was run: its location as the corpus writes
	 * it ("4128", "3:7", "exec.vtable:48") and its message; "" otherwise */
	char where[48];
	char message[CONFORM_LINE];
};

enum case_kind { CASE_VALID = 0, CASE_INVALID, CASE_REGRESSION, CASE_UNLABELLED, CASE_KIND_COUNT };

/* What a reader must do with a case, from the "# intent:" line of its
 * .expected (corpus/README.md): accept it, reject it, or either (readers
 * may legitimately differ; the line says why). */
enum case_intent { INTENT_NONE = 0, INTENT_MUST_ACCEPT, INTENT_MUST_REJECT, INTENT_EITHER, INTENT_COUNT };

struct corpus_case {
	char *path;              /* as opened */
	char *name;              /* for reports: "valid/foo.xray" */
	enum case_kind kind;
	char *args;              /* the .args sidecar, one option a line, or NULL */
	bool labelled;           /* verdict below comes from the kind and .expected */
	struct verdict label;
	enum case_intent intent;
	char *intent_why;        /* why an "either" case is one, or NULL */
};

struct corpus {
	struct corpus_case *cases;
	size_t count;
};

/* What --content found for a case. */
enum content_state { CONTENT_NOT_COMPARED = 0, CONTENT_SAME, CONTENT_DIFFERS };

/* One corpus case as run. */
struct corpus_row {
	const struct corpus_case *c;
	struct verdict ours;
	struct run_result run;
	enum disagreement dis;
	enum content_state content;
	char content_diff[3 * CONFORM_LINE]; /* the first difference, when it differs */
};

/* A kept mutant of the differential campaign. */
struct mutant_find {
	unsigned index;             /* mutant number, 0-based */
	const char *seed_case;      /* name of the valid case it came from */
	enum disagreement dis;
	enum disagreement group_dis; /* its class before minimisation: the group it counts in */
	struct verdict ours;        /* on the minimised mutant */
	bool compared;              /* tracelint could validate it */
	struct run_result run;      /* on the minimised mutant */
	size_t size, min_size;
	unsigned reader_runs;       /* spent minimising */
	char file[256];             /* name inside --out */
	char key[96];               /* its group: the rule, signal or the reader's complaint */
};

/* Disagreements of one class and rule (or signal), counted over the campaign. */
struct find_group {
	enum disagreement dis;
	char key[96];               /* the rule tracelint cites, or the signal / sanitizer */
	unsigned count;
	unsigned kept;
	unsigned first;             /* lowest mutant number in it: groups are listed in this order */
};

struct campaign {
	unsigned long long seed;
	unsigned requested, done;
	unsigned seeds;             /* valid cases mutated */
	const char *mutator;
	unsigned dis_count[DIS_COUNT];
	unsigned oracle_reject;     /* mutants tracelint rejected */
	unsigned oracle_failed;     /* tracelint could not validate (e.g. no validator) */
	char no_oracle[160];        /* why tracelint is not asked at all, or "" */
	struct mutant_find *finds;
	size_t n_finds;
	struct find_group *groups;
	size_t n_groups;
	double seconds;
	bool time_limited;          /* stopped at --max-time before the count */
	const char *out_dir;
};

/* explain.c: known disagreements and why (--explain=FILE). */
struct explanation {
	enum disagreement dis;      /* DIS_AGREE: any class */
	const char *key;            /* glob over the case name or the rule */
	const char *why;
};

struct explanations {
	struct explanation *items;
	size_t count;
	char *text;                 /* the file; items point into it */
};

int explanations_load(struct explanations *ex, const char *path, char *err, size_t errlen);
/* The first explanation whose key matches the case name or the rule; NULL if none. */
const char *explanation_for(const struct explanations *ex, enum disagreement dis,
			    const char *case_name, const char *rule);
void explanations_free(struct explanations *ex);

struct report {
	const char *format;
	const struct reader *reader;
	const char *corpus_desc;
	bool corpus_run;                   /* false with --no-corpus */
	struct corpus_row *rows;
	size_t n_rows;
	const struct campaign *campaign;   /* NULL without --mutate */
	const struct explanations *explain; /* NULL without --explain */
	bool list_all;                     /* one line per corpus case, agreeing ones too */
	char broken[CONFORM_LINE + 100];   /* why the reader command looks broken, or "" */
	bool content_run;                  /* --content: valid cases' content compared */
};

/* content.c: compares a reader's content (JSON Lines in the dump schema) with
 * the expected content; 0 same, 1 different (diff says where), -1 when the
 * expected file cannot be read. */
int content_compare(const char *expected_path, const char *actual_path, bool sort, char *diff,
		    size_t difflen);
/* The explanation of a content difference: a line whose key is
 * "content:GLOB" over the case name. */
const char *content_explanation(const struct explanations *ex, const char *case_name);

/* report.c */
void report_markdown(FILE *f, const struct report *r);
void report_json(FILE *f, const struct report *r);
/* Disagreements of the corpus run and the campaign, and those no
 * explanation covers: no --explain line and, on an "either" case, not its
 * intent (so without --explain, all but those). */
unsigned report_disagreements(const struct report *r);
unsigned report_unexplained(const struct report *r);

/* select.c: which corpus cases are run (--only, --exclude, --skip-compressed),
 * and whether the reader command looks broken (it rejects every valid case). */
#define CASE_FILTER_MAX 64
struct case_filter {
	/* globs over the case name ("valid/x.xray") or its file name */
	const char *only[CASE_FILTER_MAX], *exclude[CASE_FILTER_MAX];
	size_t n_only, n_exclude;
	bool skip_compressed;           /* cases that are gzip, bzip2 or zstd files */
};
/* Drops the cases the filter leaves out; how many were dropped. */
size_t corpus_select(struct corpus *c, const struct case_filter *f);
/* True, with why, when the reader accepted none of the valid cases, at least 3. */
bool reader_looks_broken(const struct report *r, char *why, size_t whylen);

/* mutate.c */
struct mutate_config {
	enum tl_format_id format;
	const struct reader *reader;
	unsigned count;
	unsigned long long seed;
	const char *out_dir;
	bool keep_all;              /* also write every mutant to OUT/all/ */
	unsigned keep_per_group;    /* minimise and keep this many per class and rule */
	unsigned minimize_budget;   /* reader runs per kept mutant */
	double max_seconds;         /* stop making mutants after this long; 0: never */
	unsigned progress_every;    /* a progress line on stderr every N mutants; 0: none */
	unsigned shard, shards;     /* --shard=K/N: mutants i with i % N == K - 1; 0/0: all */
};
int campaign_run(const struct mutate_config *cfg, const struct corpus *valid,
		 struct campaign *out, char *err, size_t errlen);
void campaign_free(struct campaign *c);

/* shard.c: --shard=K/N writes the raw results of a slice (a shard file),
 * --merge reads shard files back into the report one run would have made. */
struct shard_spec {
	unsigned index, count;      /* K and N */
	unsigned keep_per_group;
};
void shard_write(FILE *f, const struct report *r, const struct shard_spec *s);

struct merged {
	struct report rep;
	struct reader reader;
	struct campaign camp;
	struct corpus corpus;        /* the cases of the corpus rows */
	char **owned;                /* every string allocated while reading */
	size_t n_owned;
	bool has_campaign;
};
/* Reads the shard files, checks they are the N slices of one campaign, and
 * drops the kept mutants a single run would not have kept: their files are
 * removed only from out_dir (the merge's --out), when a shard recorded that
 * very directory, and only under the names the kit gives mutants. Returns
 * 0, or -1 with err set. */
int shard_merge(char *const *paths, size_t n, const char *out_dir, struct merged *m, char *err, size_t errlen);
void merged_free(struct merged *m);

/* runner.c */
void reader_install_interrupt_handler(void);
int reader_run(const struct reader *r, const char *path, const char *case_args,
	       struct run_result *out);
const char *run_outcome_name(enum run_outcome o);
enum disagreement compare_verdicts(const struct verdict *ours, const struct run_result *run);
const char *disagreement_name(enum disagreement d);

/* corpus.c */
int corpus_add(struct corpus *c, const char *path, char *err, size_t errlen);
void corpus_free(struct corpus *c);
const char *case_kind_name(enum case_kind k);
/* "must-accept", "must-reject", "either", or "" when the case states none. */
const char *case_intent_name(enum case_intent i);
/* The "either" reason as an explanation of a disagreement on the case, or
 * NULL when the case is not an "either" one. */
const char *case_intent_explanation(const struct corpus_case *c);

/* oracle.c: tracelint's own verdict through libtracelint. */
int oracle_path(enum tl_format_id fmt, const char *path, const char *args,
		struct verdict *v, char *err, size_t errlen);
int oracle_buffer(enum tl_format_id fmt, const void *data, size_t size, const char *args,
		  const char *case_dir, struct verdict *v, char *err, size_t errlen);

/* Every diagnostic tracelint reports on the bytes, one a line:
 * "LOCATION SEVERITY RULE MESSAGE" (the .expected form, then the message). */
int oracle_buffer_list(enum tl_format_id fmt, const void *data, size_t size, const char *args,
		       const char *case_dir, FILE *out, char *err, size_t errlen);
/* The location and message of tracelint's first error on a case into v
 * (v's verdict stays: the corpus label decides it). */
void oracle_detail(enum tl_format_id fmt, const struct corpus_case *c, struct verdict *v);

bool oracle_available(enum tl_format_id fmt, const struct corpus *c, char *why, size_t whylen);

/* util.c */
char *xstrdup(const char *s);
void *xrealloc(void *p, size_t n);
char *read_file(const char *path, size_t *size);
int write_file(const char *path, const void *data, size_t size);
void copy_line(char *dst, size_t dstlen, const char *src, size_t srclen);

#endif
