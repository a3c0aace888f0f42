/* Between the library and the writer: baselines, and the error limit when a
 * baseline needs to see every diagnostic. One file at a time, in input order,
 * whether its diagnostics arrive live (-j 1) or replayed (-j N). */
#ifndef TL_CLI_REPORT_H
#define TL_CLI_REPORT_H

#include "baseline.h"
#include "tracelint.h"

#include <stdbool.h>
#include <stdint.h>

struct cli_reporting {
	struct tl_writer *writer;
	struct baseline *known;     /* --baseline: these are not reported again */
	struct baseline *record;    /* --write-baseline: every diagnostic is added */
	uint64_t suppressed;        /* known diagnostics seen in this run */
};

/* True when the library must report without its own limit (a baseline needs
 * every diagnostic); the limit is then applied here, to new ones only. */
static inline bool cli_reporting_unlimited(const struct cli_reporting *r)
{
	return r->known || r->record;
}

struct cli_file_report {
	struct cli_reporting *run;
	const char *path;
	bool werror;
	unsigned max_errors;
	uint64_t suppressed[3];     /* by severity */
	uint64_t shown_errors, shown_warnings;
	bool truncated;
	bool failed;                /* out of memory while recording a baseline */
};

void cli_report_begin(struct cli_file_report *f, struct cli_reporting *run, const char *path,
		      const struct tl_options *opts, unsigned max_errors);
/* A tl_diag_fn: user is the cli_file_report. */
void cli_report_diag(const struct tl_diagnostic *d, void *file_report);
void cli_report_end(struct cli_file_report *f, struct tl_result *result, enum tl_status status,
		    const char *message);

#endif
