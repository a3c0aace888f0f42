/* See report.h. */
#include "report.h"
#include "writer.h"

#include <string.h>

void cli_report_begin(struct cli_file_report *f, struct cli_reporting *run, const char *path,
		      const struct tl_options *opts, unsigned max_errors)
{
	memset(f, 0, sizeof *f);
	f->run = run;
	f->path = path;
	f->werror = opts->werror;
	f->max_errors = max_errors;
	tl_writer_begin(run->writer, path);
}

/* Past the limit a diagnostic is counted but not shown, as the library does. */
static bool over_limit(struct cli_file_report *f, enum tl_severity severity)
{
	if (!f->max_errors || severity == TL_NOTE)
		return false;
	uint64_t *shown = severity == TL_ERROR ? &f->shown_errors : &f->shown_warnings;
	if (++*shown <= f->max_errors)
		return false;
	f->truncated = true;
	return true;
}

void cli_report_diag(const struct tl_diagnostic *d, void *file_report)
{
	struct cli_file_report *f = file_report;
	struct cli_reporting *run = f->run;
	if (!cli_reporting_unlimited(run)) {
		tl_writer_diag(d, run->writer);
		return;
	}
	char shown[4096], fingerprint[17];
	tl_diag_path(shown, sizeof shown, f->path, d);
	tl_diagnostic_fingerprint(fingerprint, sizeof fingerprint, shown, d);
	if (run->record && !baseline_add(run->record, shown, d, fingerprint))
		f->failed = true;
	if (run->known && baseline_match(run->known, fingerprint)) {
		f->suppressed[d->severity]++;
		run->suppressed++;
		tl_writer_known(run->writer, d);
		return;
	}
	if (!over_limit(f, d->severity))
		tl_writer_diag(d, run->writer);
}

void cli_report_end(struct cli_file_report *f, struct tl_result *result, enum tl_status status,
		    const char *message)
{
	if (status == TL_OK && cli_reporting_unlimited(f->run)) {
		/* the verdict counts new diagnostics only */
		result->errors -= f->suppressed[TL_ERROR];
		result->warnings -= f->suppressed[TL_WARNING];
		result->notes -= f->suppressed[TL_NOTE];
		/* the library ran without a limit (library_limit): only ours cuts */
		result->truncated = f->truncated;
		result->valid = result->errors == 0 && !(f->werror && result->warnings > 0);
	}
	tl_writer_end(f->run->writer, result, status, message);
}
