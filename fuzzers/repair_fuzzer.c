/* Fuzz target: tracelint repair's guarantees on any input. repair(x) is
 * valid or refused; a valid x comes back byte for byte; repairing a repaired
 * file changes nothing. A broken guarantee aborts, so the fuzzer reports it
 * like a crash. */
#include "tracelint.h"
#include "validators/repair/repair.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct membuf {
	uint8_t *p;
	size_t len, cap;
};

static bool to_memory(const void *data, size_t size, void *user)
{
	struct membuf *m = user;
	if (m->len + size > m->cap) {
		size_t cap = (m->cap ? m->cap : 256);
		while (cap < m->len + size)
			cap *= 2;
		uint8_t *bigger = realloc(m->p, cap);
		if (!bigger)
			return false;
		m->p = bigger;
		m->cap = cap;
	}
	memcpy(m->p + m->len, data, size);
	m->len += size;
	return true;
}

static void broken(const char *what, size_t size)
{
	fprintf(stderr, "repair_fuzzer: %s (input of %zu bytes)\n", what, size);
	abort();
}

static bool valid_as(const uint8_t *data, size_t size, enum tl_format_id format)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = format;
	o.threads = 1;
	struct tl_result r;
	char err[256];
	return tl_validate_buffer(data, size, "fuzz", &o, &r, err, sizeof err) == TL_OK && r.valid;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_options o;
	tl_options_init(&o);
	struct membuf first = { 0 }, second = { 0 };
	struct tl_repair_report rep, again;
	enum tl_repair_outcome out = tl_repair(data, size, &o, to_memory, &first, &rep);
	enum tl_format_id format = rep.format;
	if (format != TL_FORMAT_AUTO && valid_as(data, size, format) && out != TL_REPAIR_NOTHING)
		broken("a valid input was not returned as it is", size);
	if (out == TL_REPAIR_NOTHING && (first.len != size || (size && memcmp(first.p, data, size))))
		broken("nothing to repair, yet the output differs from the input", size);
	if (out == TL_REPAIR_REPAIRED) {
		if (!valid_as(first.p, first.len, format))
			broken("the repaired output does not validate", size);
		o.format = format;
		if (tl_repair(first.p, first.len, &o, to_memory, &second, &again) != TL_REPAIR_NOTHING ||
		    second.len != first.len || memcmp(second.p, first.p, first.len))
			broken("repairing the repaired output changed it", size);
		tl_repair_report_free(&again);
	}
	tl_repair_report_free(&rep);
	free(first.p);
	free(second.p);
	return 0;
}
