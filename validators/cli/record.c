/* See record.h. A record is its kind, then fixed fields, then strings each
 * as a length (UINT32_MAX: none) and its bytes. */
#include "record.h"
#include "spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool start(struct diag_record *r)
{
	if (r->failed)
		return false;
	if (!r->spool && !(r->spool = tl_spool_open())) {
		r->failed = true;
		r->error = errno;
		return false;
	}
	return true;
}

static void put(struct diag_record *r, const void *data, size_t n)
{
	if (!r->failed && fwrite(data, 1, n, r->spool) != n) {
		r->failed = true;
		r->error = errno ? errno : EIO;
	}
}

static void put_string(struct diag_record *r, const char *s)
{
	uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;
	put(r, &n, sizeof n);
	if (s)
		put(r, s, n);
}

void diag_record_diag(struct diag_record *r, enum record_kind kind, const struct tl_diagnostic *d)
{
	if (!start(r))
		return;
	uint8_t k = (uint8_t)kind, severity = (uint8_t)d->severity;
	uint32_t rule = (uint32_t)(d->rule - tl_rule_at(0));
	put(r, &k, 1);
	put(r, &rule, sizeof rule);
	put(r, &severity, 1);
	put(r, &d->loc.offset, sizeof d->loc.offset);
	put(r, &d->loc.line, sizeof d->loc.line);
	put(r, &d->loc.column, sizeof d->loc.column);
	put(r, &d->loc.record, sizeof d->loc.record);
	put_string(r, d->message);
	put_string(r, d->loc.member);
	put_string(r, d->loc.pointer);
}

void diag_record_entry(struct diag_record *r, const char *path, const char *rule,
		       uint64_t fingerprint, const char *message)
{
	if (!start(r))
		return;
	uint8_t k = RECORD_ENTRY;
	put(r, &k, 1);
	put(r, &fingerprint, sizeof fingerprint);
	put_string(r, path);
	put_string(r, rule);
	put_string(r, message);
}

struct reading {
	FILE *f;
	char *text[3];
	size_t cap[3];
	bool bad;
};

static void get(struct reading *g, void *data, size_t n)
{
	if (!g->bad && fread(data, 1, n, g->f) != n)
		g->bad = true;
}

static const char *get_string(struct reading *g, int slot)
{
	uint32_t n = 0;
	get(g, &n, sizeof n);
	if (g->bad || n == UINT32_MAX)
		return NULL;
	if ((size_t)n + 1 > g->cap[slot]) {
		char *more = realloc(g->text[slot], (size_t)n + 1);
		if (!more) {
			g->bad = true;
			return NULL;
		}
		g->text[slot] = more;
		g->cap[slot] = (size_t)n + 1;
	}
	get(g, g->text[slot], n);
	g->text[slot][n] = '\0';
	return g->bad ? NULL : g->text[slot];
}

bool diag_record_replay(struct diag_record *r, const struct record_sink *sink, void *user)
{
	if (r->failed || !r->spool)
		return !r->failed;
	struct reading g = { r->spool, { NULL }, { 0 }, false };
	if (fflush(r->spool) != 0 || fseek(r->spool, 0, SEEK_SET) != 0)
		g.bad = true;
	int k;
	while (!g.bad && (k = getc(g.f)) != EOF) {
		if (k == RECORD_ENTRY) {
			uint64_t fingerprint = 0;
			get(&g, &fingerprint, sizeof fingerprint);
			const char *path = get_string(&g, 0), *rule = get_string(&g, 1),
				   *message = get_string(&g, 2);
			if (!g.bad)
				sink->entry(path, rule, fingerprint, message, user);
			continue;
		}
		struct tl_diagnostic d;
		uint32_t rule = 0;
		uint8_t severity = 0;
		memset(&d, 0, sizeof d);
		get(&g, &rule, sizeof rule);
		get(&g, &severity, 1);
		get(&g, &d.loc.offset, sizeof d.loc.offset);
		get(&g, &d.loc.line, sizeof d.loc.line);
		get(&g, &d.loc.column, sizeof d.loc.column);
		get(&g, &d.loc.record, sizeof d.loc.record);
		d.message = get_string(&g, 0);
		d.loc.member = get_string(&g, 1);
		d.loc.pointer = get_string(&g, 2);
		d.rule = rule < tl_rule_count() ? tl_rule_at(rule) : NULL;
		d.severity = (enum tl_severity)severity;
		if (!d.rule)
			g.bad = true;
		if (!g.bad)
			sink->diag((enum record_kind)k, &d, user);
	}
	if (g.bad || ferror(g.f)) {
		r->failed = true;
		r->error = errno ? errno : EIO;
	}
	for (int i = 0; i < 3; i++)
		free(g.text[i]);
	return !r->failed;
}

void diag_record_free(struct diag_record *r)
{
	if (r->spool)
		fclose(r->spool);
	memset(r, 0, sizeof *r);
}
