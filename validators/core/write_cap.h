/* Files the library writes (standard input's spool, decompressed copies)
 * stay within the process's file size limit. */
#ifndef TL_WRITE_CAP_H
#define TL_WRITE_CAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most such a file may hold: limit, or the process's file size limit
 * (ulimit -f) when lower, which would otherwise end the process with SIGXFSZ
 * (*by_rlimit is then set). */
uint64_t tl_write_cap(uint64_t limit, bool *by_rlimit);

/* Writes all n bytes to fd (retrying short writes and EINTR); false with
 * errno set when the file system refuses them. */
bool tl_write_all(int fd, const void *data, size_t n);

#endif
