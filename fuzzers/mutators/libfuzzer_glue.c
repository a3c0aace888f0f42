/* libFuzzer entry for a structure-aware mutator. Built once per format with
 * -DTLM_MUTATE=tlm_<format>_mutate (fuzzers/module.mk). Half of the calls go
 * to libFuzzer's own byte-level mutations, which carry the dictionary and the
 * comparison operands it traced; the other half edit whole records. */
#include "mutator.h"

#ifndef TLM_MUTATE
#error "build with -DTLM_MUTATE=tlm_<format>_mutate"
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static size_t engine_bytes(void *ctx, uint8_t *data, size_t size, size_t max_size)
{
	(void)ctx;
	return LLVMFuzzerMutate(data, size, max_size);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static const struct tlm_bytes engine = { engine_bytes, NULL };
	if (seed & 1)
		return LLVMFuzzerMutate(data, size, max_size);
	return TLM_MUTATE(data, size, max_size, seed >> 1, &engine);
}
