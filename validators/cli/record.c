/* See record.h. */
#include "record.h"
#include "grow.h"
#include "str_pack.h"

#include <stdlib.h>
#include <string.h>

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
	struct recorded_diag *kept = &r->items[r->count];
	const char *in[3] = { d->message, d->loc.member, d->loc.pointer }, *out[3];
	kept->diag = *d;
	kept->strings = tl_str_pack(3, in, out);
	if (!kept->strings) {
		r->out_of_memory = true;
		return;
	}
	kept->diag.message = out[0];
	kept->diag.loc.member = out[1];
	kept->diag.loc.pointer = out[2];
	r->count++;
}

void diag_record_replay(const struct diag_record *r, tl_diag_fn fn, void *user)
{
	for (size_t i = 0; i < r->count; i++)
		fn(&r->items[i].diag, user);
}

void diag_record_free(struct diag_record *r)
{
	tl_free_array(r->items, r->count, sizeof *r->items, offsetof(struct recorded_diag, strings));
	memset(r, 0, sizeof *r);
}
