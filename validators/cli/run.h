/* Validating the expanded paths: one after the other (-j 1), or on worker
 * threads with the output still in input order (-j N). */
#ifndef TL_CLI_RUN_H
#define TL_CLI_RUN_H

#include "config.h"
#include "record.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>

struct cli_job {
	const char *path;
	struct cli_file_options file;   /* options for this path (command line and config) */
	const char *skip_reason;        /* not to be validated, and why (a walk's symbolic link) */
	bool skipped;                   /* format not recognised and skipping allowed, or skip_reason */
	enum tl_status status;
	struct tl_result result;
	char err[1024];
	struct diag_record record;      /* -j N: what to replay */
	struct cli_file_report report;  /* -j N: begun by the worker */
	bool begun;                     /* the report was begun */
};

struct cli_tally {
	size_t valid, invalid, unreadable, skipped;
};

/* Validates every job and reports it through rep, in order; returns the exit
 * status (0 all valid, 1 some invalid, 2 some unreadable). */
int cli_run_jobs(struct cli_job *jobs, size_t count, unsigned threads, struct cli_reporting *rep,
		 struct cli_tally *tally);

#endif
