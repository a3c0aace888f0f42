/* Diagnostics about the members of a trace directory are written sorted by
 * member, then offset (arrival order breaks ties; the --max-errors note
 * stays last), not in the order the checks ran. They are held until the
 * path ends; at most HOLD_MAX at a time, so memory stays bounded when
 * --max-errors is 0: past that the held ones are written and holding starts
 * again. Diagnostics without a member pass straight through. */
#include "compare.h"
#include "grow.h"
#include "str_pack.h"
#include "writer.h"
#include "writer_order.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { HOLD_MAX = 65536 };

struct tl_held {
	struct tl_diagnostic d;
	uint64_t seq;
	char *strings;   /* message, member and pointer, NUL-separated */
};

static bool last_of_all(const struct tl_held *h)
{
	return strcmp(h->d.rule->id, "TL-MAX-ERRORS") == 0;
}

static int by_member_then_offset(const void *pa, const void *pb)
{
	const struct tl_held *a = pa, *b = pb;
	if (last_of_all(a) != last_of_all(b))
		return last_of_all(a) ? 1 : -1;
	int c = strcmp(a->d.loc.member, b->d.loc.member);
	return c ? c : tl_cmp_u64_pair(a->d.loc.offset, a->seq, b->d.loc.offset, b->seq);
}

void tl_writer_release(struct tl_writer *w)
{
	if (!w->held_count)
		return;
	qsort(w->held, w->held_count, sizeof *w->held, by_member_then_offset);
	for (size_t i = 0; i < w->held_count; i++) {
		w->ops->diag(w, &w->held[i].d);
		free(w->held[i].strings);
	}
	w->held_count = 0;
}

static char *copy_strings(const struct tl_diagnostic *d, struct tl_diagnostic *to)
{
	const char *in[3] = { d->message ? d->message : "", d->loc.member, d->loc.pointer };
	const char *out[3];
	char *s = tl_str_pack(3, in, out);
	if (s) {
		to->message = out[0];
		to->loc.member = out[1];
		to->loc.pointer = out[2];
	}
	return s;
}

void tl_writer_hold(struct tl_writer *w, const struct tl_diagnostic *d)
{
	if (!d->loc.member) {
		w->ops->diag(w, d);
		return;
	}
	if (w->held_count == HOLD_MAX)
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
	h->d = *d;
	h->seq = w->held_seq++;
	h->strings = copy_strings(d, &h->d);
	if (!h->strings) {
		tl_writer_lost(w, ENOMEM);
		tl_writer_release(w);
		w->ops->diag(w, d);
		return;
	}
	w->held_count++;
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
