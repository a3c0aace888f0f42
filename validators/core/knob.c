#include "knob.h"

#include <stdlib.h>

uint64_t tl_knob(const char *name, uint64_t fallback, uint64_t ceiling)
{
	const char *env = getenv(name);
	if (!env || *env < '0' || *env > '9')
		return fallback;
	char *end;
	unsigned long long v = strtoull(env, &end, 10);
	return *end == '\0' && v < ceiling ? (uint64_t)v : fallback;
}
