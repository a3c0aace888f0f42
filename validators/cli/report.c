/* See report.h. */
#include "report.h"
#include "writer.h"
#include "writer_order.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool cli_report_begin(struct cli_file_report *f, struct cli_reporting *run, const char *path,
		      struct diag_record *later)
{
	char key[PATH_MAX];
	memset(f, 0, sizeof *f);
	f->run = run;
	f->path = path;
	f->later = later;
	/* a version 1 baseline keyed paths as they were given */
	if (run->known && run->known->version >= 2)
		baseline_key_path(&run->known->anchor, path, key, sizeof key);
	else
		snprintf(key, sizeof key, "%s", path);
	f->known_key = strdup(key);
	if (run->record)
		baseline_key_path(&run->record->anchor, path, key, sizeof key);
	f->record_key = strdup(key);
	if (!f->known_key || !f->record_key) {
		free(f->known_key);
		free(f->record_key);
		return false;
	}
	return true;
}

/* The writer's entry for the file, begun at its first diagnostic or at its
 * end: a file the library finds to be skipped never gets one. */
static void begin_live(struct cli_file_report *f)
{
	if (!f->begun)
		tl_writer_begin(f->run->writer, f->path);
	f->begun = true;
}

static void on_new(const struct tl_diagnostic *d, void *user)
{
	struct cli_file_report *f = user;
	if (f->later) {
		diag_record_diag(f->later, RECORD_NEW, d);
	} else {
		begin_live(f);
		tl_writer_diag(d, f->run->writer);
	}
}

static void on_known(const struct tl_diagnostic *d, void *user)
{
	struct cli_file_report *f = user;
	if (f->later) {
		diag_record_diag(f->later, RECORD_KNOWN, d);
	} else {
		begin_live(f);
		tl_writer_known(f->run->writer, d);
	}
}

/* Every diagnostic counted: recorded for --write-baseline, looked up in --baseline. */
static bool is_known(const struct tl_diagnostic *d, void *user)
{
	struct cli_file_report *f = user;
	char shown[2 * PATH_MAX];
	if (f->run->record) {
		tl_diag_path(shown, sizeof shown, f->record_key, d);
		uint64_t fp = baseline_fingerprint(shown, d);
		if (f->later)
			diag_record_entry(f->later, shown, d->rule->id, fp, d->message);
		else
			baseline_out_add(f->run->record, shown, d->rule->id, fp, d->message);
	}
	if (!f->run->known)
		return false;
	tl_diag_path(shown, sizeof shown, f->known_key, d);
	return baseline_match(f->run->known, baseline_fingerprint(shown, d));
}

void cli_report_options(struct cli_file_report *f, struct tl_options *opts)
{
	opts->on_diag = on_new;
	opts->on_known = on_known;
	opts->is_known = f->run->known || f->run->record ? is_known : NULL;
	opts->user = f;
	opts->context = f->run->context;
}

static void replay_diag(enum record_kind kind, const struct tl_diagnostic *d, void *user)
{
	struct cli_file_report *f = user;
	if (kind == RECORD_KNOWN)
		tl_writer_known(f->run->writer, d);
	else
		tl_writer_diag_ordered(f->run->writer, d); /* the replay put them in order */
}

static void replay_entry(const char *path, const char *rule, uint64_t fingerprint,
			 const char *message, void *user)
{
	struct cli_file_report *f = user;
	baseline_out_add(f->run->record, path, rule, fingerprint, message);
}

bool cli_report_replay(struct cli_file_report *f)
{
	static const struct record_sink sink = { replay_diag, replay_entry };
	begin_live(f);
	return diag_record_replay(f->later, &sink, f);
}

void cli_report_end(struct cli_file_report *f, const struct tl_result *result,
		    enum tl_status status, const char *message)
{
	if (status == TL_OK)
		f->run->known_count += result->known_errors + result->known_warnings + result->known_notes;
	begin_live(f);
	tl_writer_end(f->run->writer, result, status, message);
	cli_report_discard(f);
}

void cli_report_discard(struct cli_file_report *f)
{
	free(f->known_key);
	free(f->record_key);
	f->known_key = f->record_key = NULL;
}
