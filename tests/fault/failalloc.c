/* An LD_PRELOAD library for the allocation-failure sweep (failalloc_test.sh):
 * with TL_FAIL_ALLOC=N the Nth allocation of the process (malloc, calloc,
 * realloc, aligned_alloc, posix_memalign) returns NULL; with
 * TL_FAIL_ALLOC_COUNT=FILE the number of allocations made is written to FILE
 * at exit, so the test knows how far to sweep. Counting starts at the first
 * allocation of the program's main and stops when main returns (main is
 * wrapped through __libc_start_main), so neither the runtime's start-up nor
 * what runs after main (coverage counters being written) is counted.
 *
 * It forwards to the next definition (libc's, or the ASan runtime's when the
 * program is sanitized: the test sets verify_asan_link_order=0 so the shim
 * may come first). dlsym itself may allocate before the forward is known;
 * those few bytes come from a small arena that free() recognises. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);

static _Alignas(16) unsigned char arena[8192];
static size_t arena_used;
static atomic_long calls;
static long fail_at = -1;
static int armed;
static const char *count_path;

static int in_arena(const void *p)
{
	return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof arena;
}

static void *arena_alloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (arena_used + n > sizeof arena)
		return NULL;
	void *p = arena + arena_used;
	arena_used += n;
	return p;
}

static void resolve(void)
{
	static int resolving;
	if (next_malloc || resolving)
		return;
	resolving = 1;
	next_malloc = dlsym(RTLD_NEXT, "malloc");
	next_calloc = dlsym(RTLD_NEXT, "calloc");
	next_realloc = dlsym(RTLD_NEXT, "realloc");
	next_free = dlsym(RTLD_NEXT, "free");
	next_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
	next_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
	resolving = 0;
}

/* True when this call is the one to fail. */
static int fails(void)
{
	return armed && atomic_fetch_add(&calls, 1) + 1 == fail_at;
}

static void disarm(void)
{
	armed = 0;
	FILE *f = count_path ? fopen(count_path, "w") : NULL;
	if (f) {
		fprintf(f, "%ld\n", (long)atomic_load(&calls));
		fclose(f);
	}
}

typedef int main_fn(int, char **, char **);
static main_fn *real_main;

static int counted_main(int argc, char **argv, char **envp)
{
	resolve();
	const char *n = getenv("TL_FAIL_ALLOC");
	fail_at = n ? atol(n) : -1;
	count_path = getenv("TL_FAIL_ALLOC_COUNT");
	armed = 1;
	int rc = real_main(argc, argv, envp);
	disarm();
	return rc;
}

int __libc_start_main(main_fn *main, int argc, char **argv, void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	int (*next)(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void), void *) =
		(int (*)(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void), void *))
			dlsym(RTLD_NEXT, "__libc_start_main");
	real_main = main;
	return next(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

void *malloc(size_t n)
{
	resolve();
	if (!next_malloc)
		return arena_alloc(n);
	if (fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return next_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	resolve();
	if (!next_calloc) {
		void *p = n && k > (size_t)-1 / n ? NULL : arena_alloc(k * n);
		return p ? memset(p, 0, k * n) : NULL;
	}
	if (fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return next_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (in_arena(p)) {
		void *q = malloc(n);
		if (q)
			memcpy(q, p, n < sizeof arena ? n : sizeof arena);
		return q;
	}
	if (fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return next_realloc(p, n);
}

void free(void *p)
{
	if (!p || in_arena(p))
		return;
	resolve();
	next_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	resolve();
	if (fails())
		return ENOMEM;
	return next_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	resolve();
	if (fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return next_aligned_alloc(align, n);
}
