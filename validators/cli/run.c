/* See run.h. Workers take the next path in input order but run at most a
 * window of paths ahead of the one being printed, so that what waits in
 * memory stays bounded however many paths there are. */
#include "run.h"
#include "cli.h"
#include "writer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library reports each diagnostic to fn as it finds it, and decides the
 * format once (by name, else by content): a file it finds of no format is
 * skipped afterwards when skipping is allowed. */
static void validate_job(struct cli_job *job, tl_diag_fn fn, void *user)
{
	if (job->skip_reason) {
		job->skipped = true;
		return;
	}
	struct tl_options opts = job->file.opts;
	opts.on_diag = fn;
	opts.user = user;
	job->status = tl_validate_path(job->path, &opts, &job->result, job->err, sizeof job->err);
	job->skipped = job->file.skip_unknown && job->status == TL_E_UNKNOWN_FORMAT &&
		       strcmp(job->path, "-") != 0;
}

static void report_skipped(struct cli_job *job, struct cli_reporting *rep, struct cli_tally *tally)
{
	tl_writer_skipped(rep->writer, job->path, job->skip_reason ? job->skip_reason : job->err);
	tally->skipped++;
}

/* -j 1: diagnostics go to the writer as they come, the file's entry begun at
 * the first one, so that a file found to be skipped has none. */
struct live_report {
	struct cli_file_report report;
	struct cli_reporting *rep;
	const char *path;
	const struct tl_options *opts;
	unsigned limit;
	bool begun;
};

static void live_begin(struct live_report *l)
{
	if (!l->begun)
		cli_report_begin(&l->report, l->rep, l->path, l->opts, l->limit);
	l->begun = true;
}

static void live_diag(const struct tl_diagnostic *d, void *user)
{
	struct live_report *l = user;
	live_begin(l);
	cli_report_diag(d, &l->report);
}

static int count_verdict(const struct cli_job *job, struct cli_tally *tally, int exit_code)
{
	if (job->status != TL_OK) {
		tally->unreadable++;
		return EXIT_USAGE;
	}
	if (!job->result.valid) {
		tally->invalid++;
		return exit_code == EXIT_VALID ? EXIT_INVALID : exit_code;
	}
	tally->valid++;
	return exit_code;
}

static unsigned library_limit(const struct cli_job *job, const struct cli_reporting *rep)
{
	return cli_reporting_unlimited(rep) ? 0 : job->file.opts.max_errors;
}

static int run_serially(struct cli_job *jobs, size_t count, struct cli_reporting *rep,
			struct cli_tally *tally)
{
	int exit_code = EXIT_VALID;
	for (size_t i = 0; i < count; i++) {
		struct cli_job *job = &jobs[i];
		unsigned limit = job->file.opts.max_errors;
		job->file.opts.max_errors = library_limit(job, rep);
		struct tl_options opts = job->file.opts;
		struct live_report live = { .rep = rep, .path = job->path, .opts = &opts, .limit = limit };
		validate_job(job, live_diag, &live);
		if (job->skipped) {
			report_skipped(job, rep, tally);
			continue;
		}
		live_begin(&live);
		if (live.report.failed && job->status == TL_OK) {
			job->status = TL_E_IO;
			snprintf(job->err, sizeof job->err, "out of memory while recording the baseline");
		}
		cli_report_end(&live.report, &job->result, job->status, job->err);
		exit_code = count_verdict(job, tally, exit_code);
	}
	return exit_code;
}

struct pool {
	struct cli_job *jobs;
	size_t count;
	size_t next;          /* the next job a worker takes */
	size_t printed;       /* jobs before this one are printed and freed */
	size_t window;        /* most jobs done or running ahead of printed */
	bool *done;
	pthread_mutex_t lock;
	pthread_cond_t job_done, slot_free;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->next < p->count && p->next >= p->printed + p->window)
			pthread_cond_wait(&p->slot_free, &p->lock);
		if (p->next >= p->count)
			break;
		struct cli_job *job = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->lock);
		validate_job(job, diag_record_add, &job->record);
		pthread_mutex_lock(&p->lock);
		p->done[job - p->jobs] = true;
		pthread_cond_broadcast(&p->job_done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Prints job i exactly as run_serially would have. */
static int print_recorded(struct cli_job *job, struct cli_reporting *rep, unsigned limit,
			  struct cli_tally *tally, int exit_code)
{
	if (job->skipped) {
		report_skipped(job, rep, tally);
		return exit_code;
	}
	struct cli_file_report report;
	cli_report_begin(&report, rep, job->path, &job->file.opts, limit);
	diag_record_replay(&job->record, cli_report_diag, &report);
	if ((job->record.out_of_memory || report.failed) && job->status == TL_OK) {
		job->status = TL_E_IO;
		snprintf(job->err, sizeof job->err, "out of memory while keeping the diagnostics");
	}
	cli_report_end(&report, &job->result, job->status, job->err);
	diag_record_free(&job->record);
	return count_verdict(job, tally, exit_code);
}

int cli_run_jobs(struct cli_job *jobs, size_t count, unsigned threads, struct cli_reporting *rep,
		 struct cli_tally *tally)
{
	if (threads > count)
		threads = (unsigned)count;
	if (threads <= 1)
		return run_serially(jobs, count, rep, tally);
	unsigned *limits = calloc(count, sizeof *limits);
	struct pool p = { jobs, count, 0, 0, 4 * (size_t)threads, calloc(count, sizeof(bool)),
			  PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			  PTHREAD_COND_INITIALIZER };
	pthread_t *ids = calloc(threads, sizeof *ids);
	if (!limits || !p.done || !ids) {
		free(limits);
		free(p.done);
		free(ids);
		return run_serially(jobs, count, rep, tally);
	}
	for (size_t i = 0; i < count; i++) {
		limits[i] = jobs[i].file.opts.max_errors;
		jobs[i].file.opts.max_errors = library_limit(&jobs[i], rep);
	}
	unsigned started = 0;
	while (started < threads && pthread_create(&ids[started], NULL, worker, &p) == 0)
		started++;
	int exit_code = EXIT_VALID;
	if (started == 0) {
		/* no thread to be had: this thread does the work */
		for (size_t i = 0; i < count; i++)
			jobs[i].file.opts.max_errors = limits[i];
		exit_code = run_serially(jobs, count, rep, tally);
	} else {
		for (size_t i = 0; i < count; i++) {
			pthread_mutex_lock(&p.lock);
			while (!p.done[i])
				pthread_cond_wait(&p.job_done, &p.lock);
			pthread_mutex_unlock(&p.lock);
			exit_code = print_recorded(&jobs[i], rep, limits[i], tally, exit_code);
			pthread_mutex_lock(&p.lock);
			p.printed = i + 1;
			pthread_cond_broadcast(&p.slot_free);
			pthread_mutex_unlock(&p.lock);
		}
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(ids[t], NULL);
	free(limits);
	free(p.done);
	free(ids);
	return exit_code;
}
