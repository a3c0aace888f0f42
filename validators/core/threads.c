/* Thread count (see threads.h). */
#define _GNU_SOURCE
#include "threads.h"
#include "knob.h"

#include <sched.h>
#include <unistd.h>

static unsigned clamp(unsigned long n)
{
	return n < 1 ? 1u : n > TL_THREADS_MAX ? TL_THREADS_MAX : (unsigned)n;
}

unsigned tl_threads_resolve(unsigned requested)
{
	if (requested)
		return clamp(requested);
	uint64_t env = tl_knob("TRACELINT_THREADS", 0, TL_THREADS_MAX + 1);
	if (env)
		return clamp((unsigned long)env);
	/* The affinity mask, not the machine: under taskset one core is one. */
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return clamp((unsigned long)CPU_COUNT(&set));
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return clamp(n > 0 ? (unsigned long)n : 1ul);
}
