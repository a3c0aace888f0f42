/* Spools: an unlinked temporary file in $TMPDIR (else, or when that fails,
 * /tmp) that holds output to be copied later (a JSON file entry whose
 * counts precede its diagnostics, a worker's diagnostics waiting for their
 * turn), so that what waits costs disk, not memory. */
#ifndef TL_SPOOL_H
#define TL_SPOOL_H

#include <stdbool.h>
#include <stdio.h>

/* NULL with errno set when no file can be made. */
FILE *tl_spool_open(void);

/* Copies the spool's first n bytes to out and rewinds it for reuse; false
 * when a read or write fails. */
bool tl_spool_copy(FILE *spool, long n, FILE *out);

#endif
