/* AFL++ custom mutator library around the same mutators as libFuzzer's
 * (AFL_CUSTOM_MUTATOR_LIBRARY=libtlm_<format>.so). Built once per format with
 * -DTLM_MUTATE=tlm_<format>_mutate. AFL++ keeps running its own havoc stage
 * next to this one unless AFL_CUSTOM_MUTATOR_ONLY is set. */
#include "mutator.h"

#include <stdlib.h>
#include <string.h>

#ifndef TLM_MUTATE
#error "build with -DTLM_MUTATE=tlm_<format>_mutate"
#endif

struct tlm_afl {
	struct tlm_rng rng;
	uint8_t *buf;
	size_t cap;
};

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
	(void)afl;
	struct tlm_afl *m = calloc(1, sizeof *m);
	if (m)
		tlm_rng_seed(&m->rng, seed);
	return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	(void)add_buf;
	(void)add_buf_size;
	struct tlm_afl *m = data;
	/* The mutators work in place on max_size bytes; AFL's buffer is its own. */
	if (m->cap < max_size) {
		uint8_t *bigger = realloc(m->buf, max_size);
		if (!bigger) {
			*out_buf = buf;
			return buf_size;
		}
		m->buf = bigger;
		m->cap = max_size;
	}
	size_t n = buf_size < max_size ? buf_size : max_size;
	memcpy(m->buf, buf, n);
	*out_buf = m->buf;
	return TLM_MUTATE(m->buf, n, max_size, tlm_rng_next(&m->rng), NULL);
}

void afl_custom_deinit(void *data)
{
	struct tlm_afl *m = data;
	if (m)
		free(m->buf);
	free(m);
}
