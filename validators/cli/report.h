/* Between the library and the writer. The library decides everything about
 * a diagnostic (severity, the error limit, whether a baseline knows it, the
 * verdict: see tl_options.is_known); this hands its answers on: to the
 * writer, to --write-baseline's file, and to --baseline's multiset. One file
 * at a time, in input order, live (-j 1) or recorded by a worker and
 * replayed (-j N). */
#ifndef TL_CLI_REPORT_H
#define TL_CLI_REPORT_H

#include "baseline.h"
#include "record.h"
#include "tracelint.h"

#include <stdbool.h>
#include <stdint.h>

struct cli_reporting {
	struct tl_writer *writer;
	struct baseline_known *known;   /* --baseline */
	struct baseline_out *record;    /* --write-baseline: every diagnostic counted */
	uint64_t known_count;           /* diagnostics the baseline knew in this run */
	bool context;                   /* the writer shows each diagnostic's context */
};

struct cli_file_report {
	struct cli_reporting *run;
	const char *path;
	char *known_key;            /* the path as --baseline's fingerprints key it */
	char *record_key;           /* as --write-baseline's do */
	struct diag_record *later;  /* -j N: kept for replay; NULL: handed on at once */
	bool begun;                 /* the writer has begun the file's entry */
};

/* Starts a file; the writer begins its entry at the first diagnostic handed
 * on, or at cli_report_end. false when memory runs out (nothing begun). */
bool cli_report_begin(struct cli_file_report *f, struct cli_reporting *run, const char *path,
		      struct diag_record *later);
/* Points the options' callbacks at this report. */
void cli_report_options(struct cli_file_report *f, struct tl_options *opts);
/* -j N: begins the file in the writer and hands on what was kept; false
 * (errno in later->error) when it cannot be read back. */
bool cli_report_replay(struct cli_file_report *f);
void cli_report_end(struct cli_file_report *f, const struct tl_result *result,
		    enum tl_status status, const char *message);
/* Ends a file that is skipped after all: nothing is written for it. */
void cli_report_discard(struct cli_file_report *f);

#endif
