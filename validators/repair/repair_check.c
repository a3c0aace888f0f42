/* The guarantees of a repair, checked on one input: what the fuzz target
 * asserts on any input and what the repair campaign measures over damaged
 * copies of real traces, in one place. */
#include "repair.h"

#include <stdlib.h>
#include <string.h>

bool tl_repair_to_buffer(const void *data, size_t size, void *user)
{
	struct tl_repair_buffer *b = user;
	if (size > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap - b->len < size) {
			if (cap > SIZE_MAX / 2)
				return false;
			cap *= 2;
		}
		uint8_t *bigger = realloc(b->p, cap);
		if (!bigger)
			return false;
		b->p = bigger;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, size);
	b->len += size;
	return true;
}

bool tl_repair_valid_as(const uint8_t *data, size_t size, enum tl_format_id format)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = format;
	o.threads = 1;
	struct tl_result r;
	char err[256];
	return tl_validate_buffer(data, size, "repair", &o, &r, err, sizeof err) == TL_OK && r.valid;
}

void tl_repair_check(const uint8_t *data, size_t size, enum tl_format_id format, struct tl_repair_check *c)
{
	memset(c, 0, sizeof *c);
	struct tl_options o;
	tl_options_init(&o);
	o.format = format;
	c->outcome = tl_repair(data, size, &o, tl_repair_to_buffer, &c->out, &c->report);
	c->format = c->report.format;
	c->written = c->outcome == TL_REPAIR_NOTHING || c->outcome == TL_REPAIR_REPAIRED;
	if (c->outcome != TL_REPAIR_NOTHING && c->format != TL_FORMAT_AUTO &&
	    tl_repair_valid_as(data, size, c->format))
		c->broken = "a valid input was not returned as it is";
	if (!c->written)
		return;
	c->valid = tl_repair_valid_as(c->out.p, c->out.len, c->format);
	struct tl_repair_buffer again = { 0 };
	struct tl_repair_report second;
	o.format = c->format;
	c->idempotent = tl_repair(c->out.p, c->out.len, &o, tl_repair_to_buffer, &again, &second) ==
				TL_REPAIR_NOTHING &&
			again.len == c->out.len && (again.len == 0 || memcmp(again.p, c->out.p, again.len) == 0);
	tl_repair_report_free(&second);
	free(again.p);
	c->kept = c->outcome == TL_REPAIR_NOTHING ? tl_repair_records(c->out.p, c->out.len, c->format, UINT64_MAX)
						  : c->report.kept;
	if (c->broken)
		return;
	if (c->outcome == TL_REPAIR_NOTHING && (c->out.len != size || (size && memcmp(c->out.p, data, size))))
		c->broken = "nothing to repair, yet the output differs from the input";
	else if (!c->valid)
		c->broken = "the repaired output does not validate";
	else if (!c->idempotent)
		c->broken = "repairing the repaired output changed it";
}

void tl_repair_check_free(struct tl_repair_check *c)
{
	tl_repair_report_free(&c->report);
	free(c->out.p);
	c->out.p = NULL;
	c->out.len = c->out.cap = 0;
}
