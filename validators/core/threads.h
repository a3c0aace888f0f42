/* How many threads the library may use: the caller's number (tl_options.threads,
 * `--threads N`), else TRACELINT_THREADS, else the cores this process may run
 * on. Threads are pthreads, started and joined inside one call: the library
 * keeps none between calls. */
#ifndef TL_THREADS_H
#define TL_THREADS_H

/* The most threads ever started for one input. */
#define TL_THREADS_MAX 64u

/* requested 0: TRACELINT_THREADS or the cores allowed (sched affinity, so
 * `taskset -c 0` means one). Always 1..TL_THREADS_MAX. */
unsigned tl_threads_resolve(unsigned requested);

#endif
