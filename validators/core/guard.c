/* Guarded mappings (see guard.h). */
#define _GNU_SOURCE
#include "guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Inputs mapped at once; a program validating more in parallel gets an
 * error for the extra ones rather than an unguarded mapping. */
#define GUARD_SLOTS 1024

struct guard_slot {
	atomic_int used;
	atomic_uintptr_t start;  /* 0 while the slot is being filled or emptied */
	atomic_uintptr_t end;
	atomic_int tripped;
	atomic_int error;        /* errno of a failed read; 0: the file shrank */
};

/* Process-wide by nature: a signal handler has no caller to hold state. */
static struct guard_slot slots[GUARD_SLOTS];
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
	if (info->si_code > 0) {
		for (size_t i = 0; i < GUARD_SLOTS; i++) {
			uintptr_t start = atomic_load(&slots[i].start);
			uintptr_t end = atomic_load(&slots[i].end);
			if (!start || addr < start || addr >= end)
				continue;
			/* The file ends before the mapping now: the rest reads as zeros. */
			uintptr_t page = addr & ~(page_size - 1);
			void *m = mmap((void *)page, end - page, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (m == MAP_FAILED)
				break;
			atomic_store(&slots[i].tripped, 1);
			errno = saved_errno;
			return;
		}
	}
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

unsigned tl_guard_add(const void *addr, size_t size)
{
	pthread_once(&install_once, install);
	if (!installed || !addr || !size)
		return 0;
	for (unsigned i = 0; i < GUARD_SLOTS; i++) {
		int expected = 0;
		if (!atomic_compare_exchange_strong(&slots[i].used, &expected, 1))
			continue;
		atomic_store(&slots[i].tripped, 0);
		atomic_store(&slots[i].error, 0);
		atomic_store(&slots[i].end, (uintptr_t)addr + size);
		atomic_store(&slots[i].start, (uintptr_t)addr);
		return i + 1;
	}
	return 0;
}

void tl_guard_remove(unsigned handle)
{
	if (!handle || handle > GUARD_SLOTS)
		return;
	struct guard_slot *s = &slots[handle - 1];
	atomic_store(&s->start, 0);
	atomic_store(&s->end, 0);
	atomic_store(&s->used, 0);
}

bool tl_guard_tripped(unsigned handle)
{
	return handle && handle <= GUARD_SLOTS && atomic_load(&slots[handle - 1].tripped);
}

void tl_guard_mark(unsigned handle)
{
	if (handle && handle <= GUARD_SLOTS)
		atomic_store(&slots[handle - 1].tripped, 1);
}

void tl_guard_mark_error(unsigned handle, int error)
{
	if (!handle || handle > GUARD_SLOTS)
		return;
	int none = 0;
	atomic_compare_exchange_strong(&slots[handle - 1].error, &none, error);
	atomic_store(&slots[handle - 1].tripped, 1);
}

int tl_guard_error(unsigned handle)
{
	return handle && handle <= GUARD_SLOTS ? atomic_load(&slots[handle - 1].error) : 0;
}
