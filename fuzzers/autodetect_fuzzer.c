/* Fuzz target: format auto-detection, then whichever validator it picks.
 * Detection must either name a format or refuse with a reason; every
 * diagnostic must carry a catalog rule with its catalog severity, a message
 * and a location inside the input; the verdict must agree with the error
 * count (fuzz_invariants.h). */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_expect expect = { NULL, NULL, false, size, 0 };
	fuzz_validate(data, size, TL_FORMAT_AUTO, TL_ENDIAN_AUTO, NULL, &expect);
	return 0;
}
