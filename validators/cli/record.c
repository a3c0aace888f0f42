/* See record.h. */
#include "record.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

static char *copy(const char *s, bool *failed)
{
	if (!s)
		return NULL;
	char *c = strdup(s);
	*failed |= !c;
	return c;
}

void diag_record_add(const struct tl_diagnostic *d, void *record)
{
	struct diag_record *r = record;
	if (r->out_of_memory)
		return;
	struct recorded_diag *more = tl_grow_array(r->items, &r->cap, r->count, sizeof *more, 32);
	if (!more) {
		r->out_of_memory = true;
		return;
	}
	r->items = more;
	bool failed = false;
	struct recorded_diag *kept = &r->items[r->count];
	kept->diag = *d;
	kept->diag.message = kept->message = copy(d->message, &failed);
	kept->diag.loc.member = kept->member = copy(d->loc.member, &failed);
	kept->diag.loc.pointer = kept->pointer = copy(d->loc.pointer, &failed);
	r->count++;
	r->out_of_memory = failed;
}

void diag_record_replay(const struct diag_record *r, tl_diag_fn fn, void *user)
{
	for (size_t i = 0; i < r->count; i++)
		fn(&r->items[i].diag, user);
}

void diag_record_free(struct diag_record *r)
{
	for (size_t i = 0; i < r->count; i++) {
		free(r->items[i].message);
		free(r->items[i].member);
		free(r->items[i].pointer);
	}
	free(r->items);
	memset(r, 0, sizeof *r);
}
