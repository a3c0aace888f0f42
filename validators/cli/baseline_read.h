/* Reading a baseline file as a stream (baseline_read.c): each entry of its
 * "diagnostics" array is handed over as it is read, so memory does not
 * grow with the file. */
#ifndef TL_CLI_BASELINE_READ_H
#define TL_CLI_BASELINE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One entry, its strings decoded; message is "" when absent. Returns false
 * to stop (err then says why). */
typedef bool (*baseline_entry_fn)(const char *path, const char *rule, const char *fingerprint,
				  const char *message, void *user);

/* Reads the open file from its start; *version is the "baseline" member (0
 * when absent or not a small whole number). false with a message in err. */
bool baseline_read(FILE *f, const char *name, int *version, baseline_entry_fn entry, void *user,
		   char *err, size_t errlen);

#endif
