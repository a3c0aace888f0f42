/* Guarded mappings: a mapped file that shrinks while it is read makes the
 * kernel raise SIGBUS on the first access past its new end. The guard turns
 * that fault into zeros and a flag instead of a crash: the faulting thread's
 * handler maps anonymous zero pages over the rest of the mapping, marks the
 * mapping as changed and lets the read resume. Validators read on as if the
 * file ended in zeros; validate.c then reports the input as unreadable
 * ("changed while being read", TL_E_IO) instead of giving a verdict.
 *
 * Why this and not pread windows everywhere: it costs nothing on the read
 * path (no system call, no check per read), and the JSON and UMTracer
 * validators need random access to the whole file. Why zeros and not
 * siglongjmp: a jump out of a validator would leak everything it holds.
 *
 * The handler is installed once, on the first guarded mapping, and chains to
 * whatever handler it replaced for any fault outside the guarded mappings,
 * so a host program's own SIGBUS handling is kept. The table of guarded
 * ranges is the one piece of process-wide state; it is lock-free and grows
 * by blocks that are never freed. */
#ifndef TL_GUARD_H
#define TL_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* Registers [addr, addr + size). Returns a handle > 0, or 0 when no guard
 * could be set up (no memory for more slots, or sigaction failed). There is
 * no limit on the mappings guarded at once: slots come in blocks, added as
 * needed. */
unsigned tl_guard_add(const void *addr, size_t size);
/* Unregisters; call before unmapping. */
void tl_guard_remove(unsigned handle);
/* True once a fault was absorbed in the mapping, or tl_guard_mark was called. */
bool tl_guard_tripped(unsigned handle);
/* Marks the input as changed without a fault (e.g. a short pread). */
void tl_guard_mark(unsigned handle);
/* Marks it as unreadable: a read failed with errno error (the first one is kept). */
void tl_guard_mark_error(unsigned handle, int error);
/* The errno of the first failed read, or 0 (none, or the file only shrank). */
int tl_guard_error(unsigned handle);

#endif
