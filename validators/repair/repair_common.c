/* The helpers every salvage shares: validating a candidate, writing,
 * recording changes. The driver that picks a salvage is repair.c. */
#include "repair.h"
#include "format.h"
#include "cursor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_probe_diag(const struct tl_diagnostic *d, void *user)
{
	struct tl_repair_probe *p = user;
	if (d->severity != TL_ERROR)
		return;
	if (d->loc.offset < p->first_error) {
		p->first_error = d->loc.offset;
		p->first_rule = d->rule ? d->rule->id : NULL;
	}
	if (!p->collect_all)
		return;
	if (p->error_count == p->error_cap) {
		size_t cap = p->error_cap ? p->error_cap * 2 : 64;
		uint64_t *bigger = realloc(p->error_offsets, cap * sizeof *bigger);
		if (bigger)
			p->error_offsets = bigger;
		const char **rules = bigger ? realloc(p->error_rules, cap * sizeof *rules) : NULL;
		if (!rules)
			return; /* the first error is still known: the caller drops less per round */
		p->error_rules = rules;
		p->error_cap = cap;
	}
	p->error_rules[p->error_count] = d->rule ? d->rule->id : NULL;
	p->error_offsets[p->error_count++] = d->loc.offset;
}

static void probe_options(const struct tl_repair_job *job, struct tl_repair_probe *probe,
			  struct tl_options *out)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = job->format;
	o.endian = job->base->endian;
	o.pair_path = job->base->pair_path;
	o.instr_map_path = job->base->instr_map_path;
	o.threads = 1;
	o.max_errors = probe->collect_all ? 0 : 16;
	o.on_diag = on_probe_diag;
	o.user = probe;
	probe->first_error = UINT64_MAX;
	probe->first_rule = NULL;
	probe->error_count = 0;
	*out = o;
}

static bool probe_result(struct tl_repair_probe *probe, enum tl_status st, const struct tl_result *r)
{
	probe->ran = st == TL_OK;
	probe->format = r->format;
	probe->valid = probe->ran && r->valid;
	probe->errors = r->errors;
	probe->warnings = r->warnings;
	return probe->valid;
}

bool tl_repair_probe_run(const struct tl_repair_job *job, const void *data, size_t size,
			 struct tl_repair_probe *probe)
{
	struct tl_options o;
	probe_options(job, probe, &o);
	struct tl_result r;
	char err[256];
	enum tl_status st = tl_validate_buffer(data, size, "repair", &o, &r, err, sizeof err);
	return probe_result(probe, st, &r);
}

bool tl_repair_probe_input(const struct tl_repair_job *job, struct tl_repair_probe *probe)
{
	struct tl_options o;
	probe_options(job, probe, &o);
	struct tl_result r;
	char err[256];
	enum tl_status st = tl_validate_input(job->in, job->in->name ? job->in->name : "repair", &o, &r, err,
					      sizeof err);
	tl_input_restart(job->in); /* the salvage starts over from the first byte */
	return probe_result(probe, st, &r);
}

/* Candidates up to this size are validated from memory; larger ones through
 * a stream (a temporary file), which costs more to set up but keeps memory flat. */
#define PIECES_IN_MEMORY (UINT64_C(4) << 20)
#define FEED_STEP ((size_t)TL_INPUT_RELEASE_STEP)

bool tl_repair_probe_pieces(const struct tl_repair_job *job, const struct tl_repair_piece *pieces,
			    size_t count, struct tl_repair_probe *probe)
{
	uint64_t total = 0;
	for (size_t i = 0; i < count; i++)
		total += pieces[i].len;
	uint8_t *joined = total <= PIECES_IN_MEMORY ? malloc(total ? (size_t)total : 1) : NULL;
	if (joined) {
		size_t at = 0;
		for (size_t i = 0; i < count; i++) {
			memcpy(joined + at, pieces[i].p, pieces[i].len);
			at += pieces[i].len;
		}
		bool valid = tl_repair_probe_run(job, joined, at, probe);
		free(joined);
		return valid;
	}
	struct tl_options o;
	probe_options(job, probe, &o);
	char err[256];
	struct tl_result r;
	memset(&r, 0, sizeof r);
	struct tl_stream *s = tl_stream_new(job->format, "repair", &o, err, sizeof err);
	enum tl_status st = s ? TL_OK : TL_E_IO;
	bool released = false;
	for (size_t i = 0; s && st == TL_OK && i < count; i++) {
		/* in steps, so the pages of the input read are handed back behind */
		const uint8_t *base = job->in ? job->in->data : NULL;
		bool inside = base && pieces[i].p >= base && pieces[i].p < base + job->in->size;
		for (size_t at = 0; st == TL_OK && at < pieces[i].len; at += FEED_STEP) {
			size_t n = pieces[i].len - at < FEED_STEP ? pieces[i].len - at : FEED_STEP;
			st = tl_stream_feed(s, pieces[i].p + at, n);
			if (inside) {
				tl_input_release(job->in, (uint64_t)(pieces[i].p - base) + at + n);
				released = true;
			}
		}
	}
	if (released) /* the salvage reads behind this pass again */
		tl_input_restart(job->in);
	if (s)
		st = st == TL_OK ? tl_stream_finish(s, &r, err, sizeof err) : (tl_stream_free(s), st);
	return probe_result(probe, st, &r);
}

void tl_repair_probe_free(struct tl_repair_probe *probe)
{
	free(probe->error_offsets);
	free(probe->error_rules);
	probe->error_offsets = NULL;
	probe->error_rules = NULL;
	probe->error_count = probe->error_cap = 0;
}

bool tl_repair_emit(struct tl_repair_job *job, const void *data, size_t size)
{
	if (job->failed)
		return false;
	if (size && !job->sink(data, size, job->user)) {
		job->failed = true;
		snprintf(job->report->reason, sizeof job->report->reason, "cannot write the output");
		return false;
	}
	job->report->output_size += size;
	return true;
}

bool tl_repair_emit_input(struct tl_repair_job *job, uint64_t off, uint64_t len)
{
	while (len > 0) {
		size_t n = len < FEED_STEP ? (size_t)len : FEED_STEP;
		struct tl_cursor c;
		const uint8_t *bytes;
		if (!tl_cursor_at(&c, job->data, job->size, off, n) || !tl_cursor_bytes(&c, n, &bytes) ||
		    !tl_repair_emit(job, bytes, n))
			return false;
		off += n;
		len -= n;
		tl_repair_release(job, off);
	}
	return true;
}

void tl_repair_release(const struct tl_repair_job *job, uint64_t upto)
{
	if (job->in)
		tl_input_release(job->in, upto);
}

static bool grow(void **items, size_t *cap, size_t count, size_t item_size)
{
	if (count < *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 16;
	void *bigger = realloc(*items, n * item_size);
	if (!bigger)
		return false;
	*items = bigger;
	*cap = n;
	return true;
}

void tl_repair_change(struct tl_repair_job *job, enum tl_repair_action action, uint64_t offset,
		      uint64_t length, const char *rule, const char *fmt, ...)
{
	struct tl_repair_report *r = job->report;
	if (!grow((void **)&r->changes, &r->change_cap, r->change_count, sizeof *r->changes)) {
		r->out_of_memory = true;
		return;
	}
	struct tl_repair_change *c = &r->changes[r->change_count++];
	c->action = action;
	c->offset = offset;
	c->length = length;
	/* a salvage always has the validator's rule at hand; the input's first
	 * error is the one that made the repair necessary at all */
	c->rule = rule ? rule : job->first_rule ? job->first_rule : "unknown";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof c->what, fmt, ap);
	va_end(ap);
}

void tl_repair_unit(struct tl_repair_job *job, const char *name, uint64_t kept, uint64_t dropped)
{
	struct tl_repair_report *r = job->report;
	r->kept += kept;
	r->dropped += dropped;
	if (!grow((void **)&r->units, &r->unit_cap, r->unit_count, sizeof *r->units)) {
		r->out_of_memory = true;
		return;
	}
	struct tl_repair_unit *u = &r->units[r->unit_count++];
	snprintf(u->name, sizeof u->name, "%s", name);
	u->kept = kept;
	u->dropped = dropped;
}
