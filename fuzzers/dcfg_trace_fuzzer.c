/* Fuzz target: the input is validated as a DCFG-trace (format forced), which
 * exercises the sequence parser and the non-expanding decoder. */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_expect expect = { "DTRACE-", "JSON-", true, 0, 0 };
	fuzz_validate(data, size, TL_FORMAT_DCFG_TRACE, TL_ENDIAN_AUTO, NULL, &expect);
	return 0;
}
