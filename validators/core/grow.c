#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *tl_grow_array(void *array, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n < *cap)
		return array;
	size_t want = *cap ? *cap * 2 : first;
	if (want <= *cap || want > SIZE_MAX / elem)
		return NULL;
	void *p = realloc(array, want * elem);
	if (p)
		*cap = want;
	return p;
}

void tl_free_array(void *array, size_t n, size_t elem, size_t at)
{
	for (size_t i = 0; i < n; i++) {
		void *owned;
		memcpy(&owned, (char *)array + i * elem + at, sizeof owned);
		free(owned);
	}
	free(array);
}
