/* Several strings kept in one allocation, so what holds them frees one block. */
#ifndef TL_STR_PACK_H
#define TL_STR_PACK_H

#include <stddef.h>

/* Copies in[0..n) (NULL stays NULL) into one block; out[i] points to the copy
 * of in[i]. Returns the block, for free(), or NULL when memory runs out. */
char *tl_str_pack(size_t n, const char *const *in, const char **out);

#endif
