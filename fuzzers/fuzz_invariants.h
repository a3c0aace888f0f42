/* What every fuzz target checks on each run, whatever the format: each
 * diagnostic names a rule of the expected catalog, has a message and a
 * location inside the input (line:column too for text formats), and the
 * verdict agrees with the error count. A broken invariant aborts, so the
 * fuzzer reports it like a crash. */
#ifndef TL_FUZZ_INVARIANTS_H
#define TL_FUZZ_INVARIANTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"

struct fuzz_expect {
	const char *rule_prefix;  /* e.g. "TFILE-"; core "TL-" rules always allowed; NULL: any */
	const char *rule_prefix2; /* a second family (DCFG-trace reports JSON- too), or NULL */
	bool text_locations;      /* every diagnostic carries line:column */
	size_t input_size;        /* locations lie within it; 0: the validated buffer's size */
	uint64_t errors;          /* errors the callback saw in the current run */
};

static inline bool fuzz_has_prefix(const char *s, const char *prefix)
{
	return prefix && strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline void fuzz_check_diagnostic(const struct tl_diagnostic *d, void *user)
{
	struct fuzz_expect *e = user;
	if (!d->rule || !d->rule->id || !d->message || !d->message[0])
		abort();
	/* The rule is the catalog's own, at its catalog severity (no option overrides it here). */
	if (tl_rule_find(d->rule->id) != d->rule || d->severity != d->rule->severity)
		abort();
	if (e->rule_prefix && !fuzz_has_prefix(d->rule->id, "TL-") &&
	    !fuzz_has_prefix(d->rule->id, e->rule_prefix) &&
	    !fuzz_has_prefix(d->rule->id, e->rule_prefix2))
		abort();
	if (e->text_locations && (d->loc.line == 0 || d->loc.column == 0))
		abort();
	/* A member's offsets count from the member, which lies inside the input too. */
	if (e->input_size && d->loc.offset > e->input_size)
		abort();
	if (d->severity == TL_ERROR)
		e->errors++;
}

/* Hooks the checks above into opts for one run over an input of size bytes. */
static inline void fuzz_begin(struct tl_options *opts, struct fuzz_expect *expect, size_t size)
{
	opts->on_diag = fuzz_check_diagnostic;
	opts->user = expect;
	expect->errors = 0;
	if (expect->input_size == 0)
		expect->input_size = size;
}

/* After a run: a named format, a verdict that agrees with the error count, and
 * with no error limit every error found reported. A refusal must say why. */
static inline void fuzz_check_result(const struct tl_options *opts, const struct fuzz_expect *expect,
				     enum tl_status status, const struct tl_result *result, const char *err)
{
	if (status != TL_OK) {
		if (status == TL_E_UNKNOWN_FORMAT && err[0] == '\0')
			abort();
		return; /* e.g. an unreadable --pair DCFG: nothing was validated */
	}
	if (result->format == TL_FORMAT_AUTO || result->format >= TL_FORMAT_COUNT)
		abort();
	if (result->valid != (result->errors == 0))
		abort();
	if (opts->max_errors == 0 && result->errors != expect->errors)
		abort();
}

/* Validates data with the format and byte order forced and checks the
 * invariants above; pair_path may name a DCFG for --pair. */
static inline void fuzz_validate(const uint8_t *data, size_t size, enum tl_format_id format,
				 enum tl_endian endian, const char *pair_path,
				 struct fuzz_expect *expect)
{
	struct tl_options opts;
	struct tl_result result;
	char err[256] = "";
	tl_options_init(&opts);
	opts.format = format;
	opts.endian = endian;
	opts.pair_path = pair_path;
	opts.max_errors = 0;
	fuzz_begin(&opts, expect, size);
	enum tl_status st = tl_validate_buffer(data, size, "fuzz-input", &opts, &result, err, sizeof err);
	fuzz_check_result(&opts, expect, st, &result, err);
}

#endif
