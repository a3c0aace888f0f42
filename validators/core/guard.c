/* Guarded mappings (see guard.h). */
#define _GNU_SOURCE
#include "guard.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Guarded mappings come in blocks of this many slots: the first is static,
 * more are mapped as a program maps more inputs at once (-j 128 over
 * UMTracer traces of 11 files each), linked once and never freed, so the
 * signal handler can walk them without a lock. */
#define GUARD_SLOTS 1024

struct guard_slot {
	atomic_int used;
	atomic_uintptr_t start;  /* 0 while the slot is being filled or emptied */
	atomic_uintptr_t end;
	atomic_int tripped;
	atomic_int error;        /* errno of a failed read; 0: the file shrank */
};

struct guard_block {
	struct guard_slot slot[GUARD_SLOTS];
	_Atomic(struct guard_block *) next;
};

/* Process-wide by nature: a signal handler has no caller to hold state. */
static struct guard_block first_block;
static struct sigaction previous;
static uintptr_t page_size;
static bool installed;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void chain(int sig, siginfo_t *info, void *uctx)
{
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, info, uctx);
		return;
	}
	if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
		return;
	}
	/* Default (or ignored, which the kernel does not honour for faults):
	 * restore it; a fault then happens again on return and ends the
	 * process as it would have without us, a sent signal is raised anew. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	if (info->si_code <= 0)
		raise(sig);
}

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
	int saved_errno = errno;
	uintptr_t addr = (uintptr_t)info->si_addr;
	for (struct guard_block *b = &first_block; b && info->si_code > 0; b = atomic_load(&b->next)) {
		for (size_t i = 0; i < GUARD_SLOTS; i++) {
			struct guard_slot *s = &b->slot[i];
			uintptr_t start = atomic_load(&s->start);
			uintptr_t end = atomic_load(&s->end);
			if (!start || addr < start || addr >= end)
				continue;
			/* The file ends before the mapping now: the rest reads as zeros. */
			uintptr_t page = addr & ~(page_size - 1);
			void *m = mmap((void *)page, end - page, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (m == MAP_FAILED)
				goto pass_on;
			atomic_store(&s->tripped, 1);
			errno = saved_errno;
			return;
		}
	}
pass_on:
	errno = saved_errno;
	chain(sig, info, uctx);
}

static void install(void)
{
	long page = sysconf(_SC_PAGESIZE);
	page_size = page > 0 ? (uintptr_t)page : 4096;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	installed = sigaction(SIGBUS, &sa, &previous) == 0;
}

/* The slot of a handle, or NULL. */
static struct guard_slot *slot_of(unsigned handle)
{
	if (!handle)
		return NULL;
	unsigned i = handle - 1;
	struct guard_block *b = &first_block;
	for (; b && i >= GUARD_SLOTS; i -= GUARD_SLOTS)
		b = atomic_load(&b->next);
	return b ? &b->slot[i] : NULL;
}

unsigned tl_guard_add(const void *addr, size_t size)
{
	pthread_once(&install_once, install);
	if (!installed || !addr || !size)
		return 0;
	unsigned base = 0;
	for (struct guard_block *b = &first_block;; base += GUARD_SLOTS) {
		for (unsigned i = 0; i < GUARD_SLOTS; i++) {
			struct guard_slot *s = &b->slot[i];
			int expected = 0;
			if (!atomic_compare_exchange_strong(&s->used, &expected, 1))
				continue;
			atomic_store(&s->tripped, 0);
			atomic_store(&s->error, 0);
			atomic_store(&s->end, (uintptr_t)addr + size);
			atomic_store(&s->start, (uintptr_t)addr);
			return base + i + 1;
		}
		struct guard_block *next = atomic_load(&b->next);
		if (!next) {
			if (base > UINT_MAX - 2 * GUARD_SLOTS)
				return 0;
			/* Every slot taken: one more block (zeroed by mmap), unless
			 * another thread linked one first. */
			void *m = mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				return 0;
			struct guard_block *none = NULL;
			if (atomic_compare_exchange_strong(&b->next, &none, (struct guard_block *)m))
				next = m;
			else {
				munmap(m, sizeof *next);
				next = none;
			}
		}
		b = next;
	}
}

void tl_guard_remove(unsigned handle)
{
	struct guard_slot *s = slot_of(handle);
	if (!s)
		return;
	atomic_store(&s->start, 0);
	atomic_store(&s->end, 0);
	atomic_store(&s->used, 0);
}

bool tl_guard_tripped(unsigned handle)
{
	struct guard_slot *s = slot_of(handle);
	return s && atomic_load(&s->tripped);
}

void tl_guard_mark(unsigned handle)
{
	struct guard_slot *s = slot_of(handle);
	if (s)
		atomic_store(&s->tripped, 1);
}

void tl_guard_mark_error(unsigned handle, int error)
{
	struct guard_slot *s = slot_of(handle);
	if (!s)
		return;
	int none = 0;
	atomic_compare_exchange_strong(&s->error, &none, error);
	atomic_store(&s->tripped, 1);
}

int tl_guard_error(unsigned handle)
{
	struct guard_slot *s = slot_of(handle);
	return s ? atomic_load(&s->error) : 0;
}
