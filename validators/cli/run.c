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

/* The library reports each diagnostic to the job's report as it finds it, and
 * decides the format once (by name, else by content): a file it finds of no
 * format is skipped afterwards when skipping is allowed. */
static void validate_job(struct cli_job *job)
{
	struct tl_options opts = job->file.opts;
	cli_report_options(&job->report, &opts);
	job->status = tl_validate_path(job->path, &opts, &job->result, job->err, sizeof job->err);
	job->skipped = job->file.skip_unknown && job->status == TL_E_UNKNOWN_FORMAT &&
		       strcmp(job->path, "-") != 0;
	if (!job->skipped && job->record.failed && job->status == TL_OK) {
		job->status = TL_E_IO;
		snprintf(job->err, sizeof job->err, "cannot keep the diagnostics: %s",
			 strerror(job->record.error));
	}
}

static void report_skipped(struct cli_job *job, struct cli_reporting *rep, struct cli_tally *tally)
{
	tl_writer_skipped(rep->writer, job->path, job->skip_reason ? job->skip_reason : job->err);
	tally->skipped++;
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

static void no_memory(struct cli_job *job)
{
	job->status = TL_E_IO;
	snprintf(job->err, sizeof job->err, "out of memory");
}

static int run_serially(struct cli_job *jobs, size_t count, struct cli_reporting *rep,
			struct cli_tally *tally)
{
	int exit_code = EXIT_VALID;
	for (size_t i = 0; i < count; i++) {
		struct cli_job *job = &jobs[i];
		if (job->skip_reason) {
			job->skipped = true;
			report_skipped(job, rep, tally);
			continue;
		}
		/* the writer begins the file's entry at its first diagnostic or
		 * its end, so that a file found to be skipped has none */
		if (!cli_report_begin(&job->report, rep, job->path, NULL)) {
			fprintf(stderr, "tracelint: out of memory\n");
			return EXIT_USAGE;
		}
		validate_job(job);
		if (job->skipped) {
			cli_report_discard(&job->report);
			report_skipped(job, rep, tally);
			continue;
		}
		cli_report_end(&job->report, &job->result, job->status, job->err);
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
	struct cli_reporting *rep;
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
		if (job->skip_reason)
			job->skipped = true;
		else if ((job->begun = cli_report_begin(&job->report, p->rep, job->path, &job->record))) {
			validate_job(job);
			if (job->skipped)
				cli_report_discard(&job->report);
		}
		pthread_mutex_lock(&p->lock);
		p->done[job - p->jobs] = true;
		pthread_cond_broadcast(&p->job_done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Prints job i exactly as run_serially would have. */
static int print_recorded(struct cli_job *job, struct cli_reporting *rep, struct cli_tally *tally,
			  int exit_code)
{
	if (job->skipped) {
		diag_record_free(&job->record);
		report_skipped(job, rep, tally);
		return exit_code;
	}
	if (!job->begun && !cli_report_begin(&job->report, rep, job->path, &job->record))
		return EXIT_USAGE;
	if (!job->begun)
		no_memory(job);
	if (!cli_report_replay(&job->report) && job->status == TL_OK) {
		job->status = TL_E_IO;
		snprintf(job->err, sizeof job->err, "cannot keep the diagnostics: %s",
			 strerror(job->record.error));
	}
	cli_report_end(&job->report, &job->result, job->status, job->err);
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
	struct pool p = { jobs, count, 0, 0, 4 * (size_t)threads, rep, calloc(count, sizeof(bool)),
			  PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			  PTHREAD_COND_INITIALIZER };
	pthread_t *ids = calloc(threads, sizeof *ids);
	if (!p.done || !ids) {
		free(p.done);
		free(ids);
		return run_serially(jobs, count, rep, tally);
	}
	unsigned started = 0;
	while (started < threads && pthread_create(&ids[started], NULL, worker, &p) == 0)
		started++;
	int exit_code = EXIT_VALID;
	if (started == 0) {
		/* no thread to be had: this thread does the work */
		exit_code = run_serially(jobs, count, rep, tally);
	} else {
		for (size_t i = 0; i < count; i++) {
			pthread_mutex_lock(&p.lock);
			while (!p.done[i])
				pthread_cond_wait(&p.job_done, &p.lock);
			pthread_mutex_unlock(&p.lock);
			exit_code = print_recorded(&jobs[i], rep, tally, exit_code);
			pthread_mutex_lock(&p.lock);
			p.printed = i + 1;
			pthread_cond_broadcast(&p.slot_free);
			pthread_mutex_unlock(&p.lock);
		}
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(ids[t], NULL);
	free(p.done);
	free(ids);
	return exit_code;
}
