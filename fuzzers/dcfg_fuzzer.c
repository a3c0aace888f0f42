/* Fuzz target: the input is validated as a DCFG (format forced). JSON
 * diagnostics always carry line:column (fuzz_invariants.h). */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_expect expect = { "DCFG-", "JSON-", true, 0, 0 };
	fuzz_validate(data, size, TL_FORMAT_DCFG, TL_ENDIAN_AUTO, NULL, &expect);
	return 0;
}
