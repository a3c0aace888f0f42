/* See str_pack.h. */
#include "str_pack.h"

#include <stdlib.h>
#include <string.h>

char *tl_str_pack(size_t n, const char *const *in, const char **out)
{
	size_t total = 1; /* a block even when every string is NULL */
	for (size_t i = 0; i < n; i++)
		total += in[i] ? strlen(in[i]) + 1 : 0;
	char *block = malloc(total), *at = block;
	if (!block)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		out[i] = NULL;
		if (!in[i])
			continue;
		size_t len = strlen(in[i]) + 1;
		memcpy(at, in[i], len);
		out[i] = at;
		at += len;
	}
	return block;
}
