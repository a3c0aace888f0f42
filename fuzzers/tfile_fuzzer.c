/* Fuzz target: GDB trace files through the tfile validator. The byte order
 * is an option the file does not carry, so inputs whose last byte is odd are
 * also validated with --endian=big forced, reaching both frame decoders and
 * the forced-order path. Invariants: fuzz_invariants.h. */
#include "fuzz_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_expect expect = { "TFILE-", NULL, false, 0, 0 };
	fuzz_validate(data, size, TL_FORMAT_TFILE, TL_ENDIAN_AUTO, NULL, &expect);
	if (size > 0 && (data[size - 1] & 1))
		fuzz_validate(data, size, TL_FORMAT_TFILE, TL_ENDIAN_BIG, NULL, &expect);
	return 0;
}
