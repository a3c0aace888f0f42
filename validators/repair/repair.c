/* The repair driver: validates the input once, hands a valid file back as
 * it is, else gives it to its format's salvage (repair_<format>.c), which
 * use the shared helpers of repair_common.c. */
#include "repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_offset(const void *a, const void *b)
{
	const struct tl_repair_change *x = a, *y = b;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

static bool compressed(const uint8_t *d, size_t n)
{
	return (n >= 2 && d[0] == 0x1f && d[1] == 0x8b) ||
	       (n >= 3 && d[0] == 'B' && d[1] == 'Z' && d[2] == 'h') ||
	       (n >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd);
}

enum tl_repair_outcome tl_repair(const uint8_t *data, size_t size, const struct tl_options *opts,
				 tl_repair_sink sink, void *user, struct tl_repair_report *report)
{
	struct tl_input in;
	tl_input_from_memory(&in, data, size, "repair");
	return tl_repair_input(&in, opts, sink, user, report);
}

/* A valid input written as it is, its records counted (XRay: in one pass). */
static bool copy_valid(struct tl_repair_job *job)
{
	const struct tl_input *in = job->in;
	if (job->format == TL_FORMAT_XRAY) {
		job->report->kept = tl_repair_xray_copy(job);
	} else {
		job->report->kept = job->format == TL_FORMAT_TFILE
					    ? tl_repair_tfile_records_in(in)
					    : tl_repair_records(in->data, in->size, job->format, UINT64_MAX);
		tl_input_restart(in);
		tl_repair_emit_input(job, 0, job->size);
	}
	tl_input_restart(in);
	return !job->failed;
}

enum tl_repair_outcome tl_repair_input(const struct tl_input *in, const struct tl_options *opts,
				       tl_repair_sink sink, void *user, struct tl_repair_report *report)
{
	const uint8_t *data = in->data;
	size_t size = in->size;
	memset(report, 0, sizeof *report);
	report->input_size = size;
	if (in->compression || compressed(data, size)) {
		snprintf(report->reason, sizeof report->reason,
			 "the input is compressed: decompress it, then repair the result");
		return TL_REPAIR_FAILED;
	}
	struct tl_repair_job job = { in, data, size, opts, opts->format, sink, user, report, false, UINT64_MAX, NULL };
	struct tl_repair_probe whole = { 0 };
	tl_repair_probe_input(&job, &whole);
	if (!whole.ran) {
		snprintf(report->reason, sizeof report->reason,
			 "the format is not recognised (give it with --format if the start of the file is damaged)");
		return TL_REPAIR_NONE_LEFT;
	}
	/* the format the validator recognised, for every candidate from now on */
	job.format = whole.format;
	job.first_error = whole.first_error;
	job.first_rule = whole.first_rule;
	report->format = job.format;
	if (whole.valid) {
		return copy_valid(&job) ? TL_REPAIR_NOTHING : TL_REPAIR_FAILED;
	}
	enum tl_repair_outcome out;
	switch (job.format) {
	case TL_FORMAT_XRAY:
		out = tl_repair_xray(&job);
		break;
	case TL_FORMAT_DCFG:
	case TL_FORMAT_DCFG_TRACE:
		out = tl_repair_json(&job);
		break;
	case TL_FORMAT_TFILE:
		out = tl_repair_tfile(&job);
		break;
	default:
		snprintf(report->reason, sizeof report->reason, "repair does not handle %s files",
			 tl_format_name(job.format));
		out = TL_REPAIR_NONE_LEFT;
		break;
	}
	tl_input_restart(in);
	if (report->change_count > 1)
		qsort(report->changes, report->change_count, sizeof *report->changes, by_offset);
	if (job.failed || report->out_of_memory) {
		if (!report->reason[0])
			snprintf(report->reason, sizeof report->reason, "out of memory");
		return TL_REPAIR_FAILED;
	}
	return out;
}

void tl_repair_report_free(struct tl_repair_report *report)
{
	free(report->changes);
	free(report->units);
	report->changes = NULL;
	report->units = NULL;
	report->change_count = report->unit_count = 0;
	report->change_cap = report->unit_cap = 0;
}

uint64_t tl_repair_records(const uint8_t *data, size_t size, enum tl_format_id format, uint64_t before)
{
	switch (format) {
	case TL_FORMAT_XRAY: return tl_repair_xray_records(data, size, before);
	case TL_FORMAT_DCFG:
	case TL_FORMAT_DCFG_TRACE: return tl_repair_json_records(data, size, before);
	case TL_FORMAT_TFILE: return tl_repair_tfile_records(data, size, before);
	default: return 0;
	}
}
