/* Fuzz target: the input is validated as a DCFG (format forced). The
 * diagnostic callback checks the invariants every diagnostic must keep. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"

static void check_diag(const struct tl_diagnostic *d, void *user)
{
	(void)user;
	if (!d->rule || !d->rule->id || !d->message || !d->message[0])
		abort();
	if (d->loc.line == 0 || d->loc.column == 0) /* JSON diagnostics always carry line:column */
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_options opts;
	struct tl_result result;
	char err[256];
	tl_options_init(&opts);
	opts.format = TL_FORMAT_DCFG;
	opts.on_diag = check_diag;
	opts.max_errors = 1000;
	tl_validate_buffer(data, size, "fuzz.dcfg.json", &opts, &result, err, sizeof err);
	return 0;
}
