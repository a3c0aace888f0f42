/* Fuzz target: GDB trace files through the tfile validator. The byte order
 * is an option the file does not carry, so inputs whose last byte is odd are
 * also validated with --endian=big forced, reaching both frame decoders and
 * the forced-order path. Diagnostics are checked for the invariants every
 * consumer relies on: a catalog rule of this format or the core, a message,
 * a location inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t input_size;

static void check_diagnostic(const struct tl_diagnostic *d, void *user)
{
	(void)user;
	if (!d->rule || !d->rule->id || !d->message || !d->message[0])
		abort();
	if (strncmp(d->rule->id, "TFILE-", 6) != 0 && strncmp(d->rule->id, "TL-", 3) != 0)
		abort();
	if (d->loc.offset > input_size)
		abort();
}

static void run(const uint8_t *data, size_t size, enum tl_endian endian)
{
	struct tl_options opts;
	tl_options_init(&opts);
	opts.format = TL_FORMAT_TFILE;
	opts.endian = endian;
	opts.on_diag = check_diagnostic;
	struct tl_result result;
	char err[256];
	if (tl_validate_buffer(data, size, "fuzz.tf", &opts, &result, err, sizeof err) != TL_OK)
		abort(); /* a forced format never fails to run on a buffer */
	if (result.valid != (result.errors == 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input_size = size;
	run(data, size, TL_ENDIAN_AUTO);
	if (size > 0 && (data[size - 1] & 1))
		run(data, size, TL_ENDIAN_BIG);
	return 0;
}
