/* Fuzz target: LLVM XRay traces, format forced, every byte order.
 * Each diagnostic must name a rule of the xray or core catalog, carry a
 * message and point into the input; the verdict must agree with the counts
 * (fuzz_invariants.h). */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum tl_endian orders[] = { TL_ENDIAN_AUTO, TL_ENDIAN_LITTLE, TL_ENDIAN_BIG };
	for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
		struct fuzz_expect expect = { "XRAY-", NULL, false, size, 0 };
		fuzz_validate(data, size, TL_FORMAT_XRAY, orders[i], NULL, &expect);
	}
	return 0;
}
