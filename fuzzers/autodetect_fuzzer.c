/* Fuzz target: format auto-detection, then whichever validator it picks.
 * Detection must either name a format or refuse cleanly; every diagnostic
 * must carry a catalog rule with its catalog severity, a message, and a
 * location inside the input; the verdict must agree with the error count. */
#include "tracelint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct autodetect_seen {
	size_t size;
	uint64_t errors;
};

static void check_diag(const struct tl_diagnostic *d, void *user)
{
	struct autodetect_seen *seen = user;
	if (!d->rule || !d->rule->id || !d->message || d->message[0] == '\0')
		abort();
	if (tl_rule_find(d->rule->id) != d->rule || d->severity != d->rule->severity)
		abort();
	/* Offsets inside a packed member are relative to that member. */
	if (!d->loc.member && d->loc.offset > seen->size)
		abort();
	if (d->severity == TL_ERROR)
		seen->errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct autodetect_seen seen = { size, 0 };
	struct tl_options opts;
	tl_options_init(&opts);
	opts.format = TL_FORMAT_AUTO;
	opts.max_errors = 0;
	opts.on_diag = check_diag;
	opts.user = &seen;
	struct tl_result result;
	char err[256];
	err[0] = '\0';
	enum tl_status st = tl_validate_buffer(data, size, "fuzz.input", &opts, &result, err, sizeof err);
	if (st == TL_E_UNKNOWN_FORMAT) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	if (st != TL_OK)
		return 0;
	if (result.format == TL_FORMAT_AUTO || result.format >= TL_FORMAT_COUNT)
		abort();
	if (result.errors != seen.errors || result.valid != (result.errors == 0))
		abort();
	return 0;
}
