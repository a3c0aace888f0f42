/* Fuzz target: LLVM XRay traces, format forced, every byte order.
 * Each diagnostic must name a rule of the xray or core catalog, carry a
 * message and point into the input; the verdict must agree with the counts. */
#include "tracelint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct xray_fuzz_seen {
	size_t size;
	uint64_t errors;
};

static void check_diag(const struct tl_diagnostic *d, void *user)
{
	struct xray_fuzz_seen *seen = user;
	if (!d->rule || !d->rule->id || !d->message || d->message[0] == '\0')
		abort();
	if (strcmp(d->rule->format, "xray") != 0 && strcmp(d->rule->format, "core") != 0)
		abort();
	if (d->severity != d->rule->severity || d->loc.offset > seen->size)
		abort();
	if (d->severity == TL_ERROR)
		seen->errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum tl_endian orders[] = { TL_ENDIAN_AUTO, TL_ENDIAN_LITTLE, TL_ENDIAN_BIG };
	for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
		struct xray_fuzz_seen seen = { size, 0 };
		struct tl_options opts;
		tl_options_init(&opts);
		opts.format = TL_FORMAT_XRAY;
		opts.endian = orders[i];
		opts.max_errors = 0;
		opts.on_diag = check_diag;
		opts.user = &seen;
		struct tl_result result;
		char err[256];
		if (tl_validate_buffer(data, size, "fuzz.xray", &opts, &result, err, sizeof err) != TL_OK)
			continue;
		/* Every error found is reported when there is no limit. */
		if (result.errors != seen.errors || result.valid != (result.errors == 0))
			abort();
	}
	return 0;
}
