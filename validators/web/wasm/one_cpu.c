/* The page runs the library on one thread (its worker): CPU affinity, which
 * the library asks to size its thread pool (core/threads.c) and Emscripten's
 * libc lacks, is one CPU. */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/types.h>

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	(void)pid;
	memset(set, 0, size);
	((unsigned char *)set)[0] = 1;
	return 0;
}

int __sched_cpucount(size_t size, const cpu_set_t *set)
{
	int n = 0;
	for (size_t i = 0; i < size; i++)
		for (unsigned b = ((const unsigned char *)set)[i]; b; b &= b - 1)
			n++;
	return n;
}
