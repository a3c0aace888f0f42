/* Allocation of the large arrays of a model (millions of blocks, edges,
 * ids): like malloc, calloc and realloc, and freed with free, but arrays
 * of several MiB are backed by transparent huge pages where the kernel
 * offers them (THP "madvise" mode, Debian's default). Filling a 400 MB
 * DCFG model in 4 KiB pages took 130,000 page faults and a quarter of the
 * run; in 2 MiB pages it takes a few hundred, and the id lookups miss the
 * TLB less. Where huge pages are off the hint is ignored. */
#ifndef TL_BIGALLOC_H
#define TL_BIGALLOC_H

#include <stddef.h>

void *tl_big_malloc(size_t bytes);
void *tl_big_calloc(size_t count, size_t size);
void *tl_big_realloc(void *p, size_t bytes);

#endif
