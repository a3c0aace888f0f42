/* Fuzz target: the input is validated as a DCFG-trace (format forced),
 * which exercises the sequence parser and the non-expanding decoder. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"

static void check_diag(const struct tl_diagnostic *d, void *user)
{
	(void)user;
	if (!d->rule || !d->rule->id || !d->message || !d->message[0])
		abort();
	if (d->loc.line == 0 || d->loc.column == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_options opts;
	struct tl_result result;
	char err[256];
	tl_options_init(&opts);
	opts.format = TL_FORMAT_DCFG_TRACE;
	opts.on_diag = check_diag;
	opts.max_errors = 1000;
	tl_validate_buffer(data, size, "fuzz.trace.json", &opts, &result, err, sizeof err);
	return 0;
}
