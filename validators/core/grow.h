/* The library's one doubling array: growing it, and freeing it with what its
 * elements own. */
#ifndef TL_GROW_H
#define TL_GROW_H

#include <stddef.h>

/* A doubling array of *cap elements of size elem holding n, with room for
 * one more: the same array while it has room, else a larger one (first
 * elements to begin with); NULL when memory runs out (the old array is then
 * still valid and *cap unchanged). */
void *tl_grow_array(void *array, size_t *cap, size_t n, size_t elem, size_t first);

/* Frees the block each of the n elements (of size elem) points to from its
 * pointer field at byte offset `at` (offsetof), then the array. */
void tl_free_array(void *array, size_t n, size_t elem, size_t at);

#endif
