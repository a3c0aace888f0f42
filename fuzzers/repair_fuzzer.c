/* Fuzz target: tracelint repair's guarantees on any input (checked by
 * tl_repair_check, which the repair campaign shares). repair(x) is valid or
 * refused; a valid x comes back byte for byte; repairing a repaired file
 * changes nothing. A broken guarantee aborts, so the fuzzer reports it like
 * a crash. */
#include "tracelint.h"
#include "validators/repair/repair.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_repair_check c;
	tl_repair_check(data, size, TL_FORMAT_AUTO, &c);
	if (c.broken) {
		fprintf(stderr, "repair_fuzzer: %s (input of %zu bytes)\n", c.broken, size);
		abort();
	}
	tl_repair_check_free(&c);
	return 0;
}
