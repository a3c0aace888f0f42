/* See record.h. A record is its kind, then fixed fields, then strings each
 * as a length (UINT32_MAX: none) and its bytes; a diagnostic with a context
 * has WITH_CONTEXT in its kind and the context's fields, its record text and
 * its bytes (as strings) last. */
#include "record.h"
#include "spool.h"
#include "writer_order.h"

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

static void put_bytes(struct diag_record *r, const void *s, size_t size)
{
	uint32_t n = s ? (uint32_t)size : UINT32_MAX;
	put(r, &n, sizeof n);
	if (s)
		put(r, s, n);
}

static void put_string(struct diag_record *r, const char *s)
{
	put_bytes(r, s, s ? strlen(s) : 0);
}

enum { WITH_CONTEXT = 0x80 };

static void put_context(struct diag_record *r, const struct tl_diag_context *c)
{
	put(r, &c->field_offset, sizeof c->field_offset);
	put(r, &c->field_size, sizeof c->field_size);
	put(r, &c->bytes_offset, sizeof c->bytes_offset);
	put_string(r, c->record);
	put_bytes(r, c->bytes, c->byte_count);
}

void diag_record_diag(struct diag_record *r, enum record_kind kind, const struct tl_diagnostic *d)
{
	if (!start(r))
		return;
	uint8_t k = (uint8_t)(kind | (d->context ? WITH_CONTEXT : 0)), severity = (uint8_t)d->severity;
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
	if (d->context)
		put_context(r, d->context);
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

enum { SLOT_MESSAGE, SLOT_MEMBER, SLOT_POINTER, SLOT_RECORD, SLOT_BYTES, SLOTS };

/* A member diagnostic waiting for its turn: its place in the order and
 * where it is in the spool. */
struct waiting {
	struct tl_order_key key;
	long at;
};

struct reading {
	FILE *f;
	char *text[SLOTS];
	size_t cap[SLOTS];
	bool bad;
	long pos;        /* bytes of the spool read so far (no ftell, a system call, per record) */
	struct tl_diag_context context;
	/* the member diagnostics read and not yet handed on (at most TL_HOLD_MAX) */
	struct waiting *waiting;
	size_t waiting_count, waiting_cap;
	uint64_t seq;
	char **members;  /* each member name once, for the waiting keys */
	size_t member_count, member_cap;
};

static void get(struct reading *g, void *data, size_t n)
{
	if (!g->bad && fread(data, 1, n, g->f) != n)
		g->bad = true;
	g->pos += (long)n;
}

static int get_kind(struct reading *g)
{
	int k = getc(g->f);
	g->pos += k != EOF;
	return k;
}

static void seek(struct reading *g, long at)
{
	if (fseek(g->f, at, SEEK_SET) != 0)
		g->bad = true;
	g->pos = at;
}

static const char *get_bytes(struct reading *g, int slot, size_t *size)
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
	if (size)
		*size = n;
	return g->bad ? NULL : g->text[slot];
}

static const char *get_string(struct reading *g, int slot)
{
	return get_bytes(g, slot, NULL);
}

/* The diagnostic whose fields follow its kind k; false when it cannot be read. */
static bool get_diag(struct reading *g, int k, struct tl_diagnostic *d)
{
	uint32_t rule = 0;
	uint8_t severity = 0;
	memset(d, 0, sizeof *d);
	get(g, &rule, sizeof rule);
	get(g, &severity, 1);
	get(g, &d->loc.offset, sizeof d->loc.offset);
	get(g, &d->loc.line, sizeof d->loc.line);
	get(g, &d->loc.column, sizeof d->loc.column);
	get(g, &d->loc.record, sizeof d->loc.record);
	d->message = get_string(g, SLOT_MESSAGE);
	d->loc.member = get_string(g, SLOT_MEMBER);
	d->loc.pointer = get_string(g, SLOT_POINTER);
	if (k & WITH_CONTEXT) {
		struct tl_diag_context *c = &g->context;
		memset(c, 0, sizeof *c);
		c->struct_size = sizeof *c;
		get(g, &c->field_offset, sizeof c->field_offset);
		get(g, &c->field_size, sizeof c->field_size);
		get(g, &c->bytes_offset, sizeof c->bytes_offset);
		c->record = get_string(g, SLOT_RECORD);
		c->bytes = (const uint8_t *)get_bytes(g, SLOT_BYTES, &c->byte_count);
		d->context = c;
	}
	d->rule = rule < tl_rule_count() ? tl_rule_at(rule) : NULL;
	d->severity = (enum tl_severity)severity;
	if (!d->rule)
		g->bad = true;
	return !g->bad;
}

/* The member name as kept for the waiting keys (the same pointer for the same name). */
static const char *member_kept(struct reading *g, const char *member)
{
	for (size_t i = 0; i < g->member_count; i++)
		if (strcmp(g->members[i], member) == 0)
			return g->members[i];
	if (g->member_count == g->member_cap) {
		size_t cap = g->member_cap ? 2 * g->member_cap : 16;
		char **more = realloc(g->members, cap * sizeof *more);
		if (!more)
			return NULL;
		g->members = more;
		g->member_cap = cap;
	}
	char *copy = strdup(member);
	if (copy)
		g->members[g->member_count++] = copy;
	return copy;
}

/* Hands on the waiting diagnostics in the writer's order, each read again
 * from the spool; reading then goes on where it was. */
static void hand_on_waiting(struct reading *g, const struct record_sink *sink, void *user)
{
	if (!g->waiting_count)
		return;
	long resume = g->pos;
	qsort(g->waiting, g->waiting_count, sizeof *g->waiting, tl_order_compare);
	for (size_t i = 0; i < g->waiting_count && !g->bad; i++) {
		struct tl_diagnostic d;
		seek(g, g->waiting[i].at);
		int k = get_kind(g);
		if ((k & ~WITH_CONTEXT) != RECORD_NEW)
			g->bad = true;
		else if (get_diag(g, k, &d))
			sink->diag(RECORD_NEW, &d, user);
	}
	g->waiting_count = 0;
	seek(g, resume);
}

/* A member diagnostic (at spool offset at) waits for its turn, as the
 * writer would hold it (writer_order.c). */
static void wait_turn(struct reading *g, const struct tl_diagnostic *d, long at,
		      const struct record_sink *sink, void *user)
{
	if (g->waiting_count == TL_HOLD_MAX)
		hand_on_waiting(g, sink, user);
	if (g->waiting_count == g->waiting_cap) {
		size_t cap = g->waiting_cap ? 2 * g->waiting_cap : 64;
		struct waiting *more = realloc(g->waiting, cap * sizeof *more);
		if (!more) {
			errno = ENOMEM;
			g->bad = true;
			return;
		}
		g->waiting = more;
		g->waiting_cap = cap;
	}
	struct waiting *w = &g->waiting[g->waiting_count];
	tl_order_key_of(d, g->seq++, &w->key);
	w->key.member = member_kept(g, d->loc.member);
	w->at = at;
	if (!w->key.member) {
		errno = ENOMEM;
		g->bad = true;
		return;
	}
	g->waiting_count++;
}

bool diag_record_replay(struct diag_record *r, const struct record_sink *sink, void *user)
{
	if (r->failed || !r->spool)
		return !r->failed;
	struct reading g;
	memset(&g, 0, sizeof g);
	g.f = r->spool;
	if (fflush(r->spool) != 0)
		g.bad = true;
	seek(&g, 0);
	int k;
	long at;
	while (!g.bad && (at = g.pos, k = get_kind(&g)) != EOF) {
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
		if (!get_diag(&g, k, &d))
			break;
		enum record_kind kind = (enum record_kind)(k & ~WITH_CONTEXT);
		if (kind == RECORD_NEW && d.loc.member)
			wait_turn(&g, &d, at, sink, user);
		else
			sink->diag(kind, &d, user);
	}
	if (!g.bad)
		hand_on_waiting(&g, sink, user);
	if (g.bad || ferror(g.f)) {
		r->failed = true;
		r->error = errno ? errno : EIO;
	}
	for (int i = 0; i < SLOTS; i++)
		free(g.text[i]);
	for (size_t i = 0; i < g.member_count; i++)
		free(g.members[i]);
	free(g.members);
	free(g.waiting);
	return !r->failed;
}

void diag_record_free(struct diag_record *r)
{
	if (r->spool)
		fclose(r->spool);
	memset(r, 0, sizeof *r);
}
