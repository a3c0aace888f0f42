/* Diagnostics kept for later: a worker of -j N validates a file ahead of the
 * one being printed and keeps what the library reported, to be replayed in
 * input order, so that the output is byte for byte that of -j 1. */
#ifndef TL_CLI_RECORD_H
#define TL_CLI_RECORD_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>

struct recorded_diag {
	struct tl_diagnostic diag;   /* its strings point into `strings` */
	char *strings;               /* message, member and pointer, one block */
};

struct diag_record {
	struct recorded_diag *items;
	size_t count, cap;
	bool out_of_memory;
};

/* A tl_diag_fn: user is the diag_record. */
void diag_record_add(const struct tl_diagnostic *d, void *record);
void diag_record_replay(const struct diag_record *r, tl_diag_fn fn, void *user);
void diag_record_free(struct diag_record *r);

#endif
