/* Diagnostics about the members of a trace directory are written sorted by
 * member, then offset (arrival order breaks ties; the --max-errors note
 * stays last), not in the order the checks ran. They are held until the
 * path ends; at most TL_HOLD_MAX at a time, so memory stays bounded when
 * --max-errors is 0: past that the held ones are written and holding starts
 * again. Diagnostics without a member pass straight through. */
#include "compare.h"
#include "diag_context.h"
#include "grow.h"
#include "writer.h"
#include "writer_order.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct tl_held {
	struct tl_order_key key;
	struct tl_diagnostic d;
	struct tl_diag_context context;
	char *strings;   /* message, member, pointer and the context's record, NUL-separated,
			  * then the context's bytes */
};

void tl_order_key_of(const struct tl_diagnostic *d, uint64_t seq, struct tl_order_key *key)
{
	key->member = d->loc.member;
	key->offset = d->loc.offset;
	key->seq = seq;
	key->last = strcmp(d->rule->id, "TL-MAX-ERRORS") == 0;
}

int tl_order_compare(const void *pa, const void *pb)
{
	const struct tl_order_key *a = pa, *b = pb;
	if (a->last != b->last)
		return a->last ? 1 : -1;
	int c = strcmp(a->member, b->member);
	return c ? c : tl_cmp_u64_pair(a->offset, a->seq, b->offset, b->seq);
}

void tl_writer_release(struct tl_writer *w)
{
	if (!w->held_count)
		return;
	qsort(w->held, w->held_count, sizeof *w->held, tl_order_compare);
	for (size_t i = 0; i < w->held_count; i++) {
		/* pointed here, not when held: sorting and growing move the entries */
		if (w->held[i].d.context)
			w->held[i].d.context = &w->held[i].context;
		w->ops->diag(w, &w->held[i].d);
		free(w->held[i].strings);
	}
	w->held_count = 0;
}

/* The diagnostic's strings and context into one block that h owns. */
static bool copy_into(struct tl_held *h, const struct tl_diagnostic *d)
{
	const struct tl_diag_context *c = d->context;
	const char *in[4] = { d->message ? d->message : "", d->loc.member, d->loc.pointer,
			      c ? c->record : NULL };
	const char *out[4];
	size_t text = 0, bytes = c ? c->byte_count : 0;
	for (int i = 0; i < 4; i++)
		text += in[i] ? strlen(in[i]) + 1 : 0;
	char *s = malloc(text + bytes + 1);
	if (!s)
		return false;
	char *at = s;
	for (int i = 0; i < 4; i++) {
		out[i] = NULL;
		if (in[i]) {
			size_t n = strlen(in[i]) + 1;
			memcpy(at, in[i], n);
			out[i] = at;
			at += n;
		}
	}
	h->d = *d;
	h->d.message = out[0];
	h->d.loc.member = out[1];
	h->d.loc.pointer = out[2];
	h->d.context = NULL;
	if (c) {
		size_t size = c->struct_size < sizeof h->context ? c->struct_size : sizeof h->context;
		memset(&h->context, 0, sizeof h->context);
		memcpy(&h->context, c, size);
		h->context.record = out[3];
		if (bytes)
			memcpy(at, c->bytes, bytes);
		h->context.bytes = c->bytes ? (const uint8_t *)at : NULL;
		h->d.context = &h->context; /* pointed again when written (entries move) */
	}
	h->strings = s;
	return true;
}

void tl_writer_hold(struct tl_writer *w, const struct tl_diagnostic *d)
{
	if (!d->loc.member) {
		w->ops->diag(w, d);
		return;
	}
	if (w->held_count == TL_HOLD_MAX)
		tl_writer_release(w);
	if (w->held_count == w->held_cap) {
		size_t cap = w->held_cap ? 2 * w->held_cap : 64;
		struct tl_held *more = realloc(w->held, cap * sizeof *more);
		if (!more) {
			/* out of memory: write what is held, then this one, unsorted,
			 * and the report fails at its end (tl_writer_finish) */
			tl_writer_lost(w, ENOMEM);
			tl_writer_release(w);
			w->ops->diag(w, d);
			return;
		}
		w->held = more;
		w->held_cap = cap;
	}
	struct tl_held *h = &w->held[w->held_count];
	if (!copy_into(h, d)) {
		tl_writer_lost(w, ENOMEM);
		tl_writer_release(w);
		w->ops->diag(w, d);
		return;
	}
	tl_order_key_of(&h->d, w->held_seq++, &h->key);
	w->held_count++;
}

void tl_writer_diag_ordered(struct tl_writer *w, const struct tl_diagnostic *d)
{
	w->ops->diag(w, d);
}

void tl_writer_drop_held(struct tl_writer *w)
{
	tl_free_array(w->held, w->held_count, sizeof *w->held, offsetof(struct tl_held, strings));
	w->held = NULL;
	w->held_count = w->held_cap = 0;
}

/* Here rather than in writer.c, which calls into this file: the writer's
 * objects stay a layered graph. */
void tl_writer_lost(struct tl_writer *w, int errno_value)
{
	if (!w->lost)
		w->lost_errno = errno_value;
	w->lost = true;
}
