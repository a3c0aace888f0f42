/* What a worker of -j N found, kept for later: the diagnostics for the
 * writer (with their context) and the entries for --write-baseline, replayed
 * in input order so that the output is byte for byte that of -j 1. They are
 * kept in a spool (an unlinked temporary file), so memory does not grow with
 * their number, and kept once: the replay puts the diagnostics about members
 * in the writer's order (writer_order.h) by reading them from the spool, so
 * the writer does not hold copies of them again. */
#ifndef TL_CLI_RECORD_H
#define TL_CLI_RECORD_H

#include "tracelint.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct diag_record {
	FILE *spool;         /* made at the first record */
	bool failed;
	int error;           /* errno of the failure */
};

enum record_kind { RECORD_NEW = 1, RECORD_KNOWN, RECORD_ENTRY };

/* RECORD_NEW or RECORD_KNOWN: a diagnostic for the writer. */
void diag_record_diag(struct diag_record *r, enum record_kind kind, const struct tl_diagnostic *d);
/* RECORD_ENTRY: a baseline entry. */
void diag_record_entry(struct diag_record *r, const char *path, const char *rule,
		       uint64_t fingerprint, const char *message);

struct record_sink {
	/* RECORD_NEW diagnostics arrive in the order the writer writes them in */
	void (*diag)(enum record_kind kind, const struct tl_diagnostic *d, void *user);
	void (*entry)(const char *path, const char *rule, uint64_t fingerprint, const char *message,
		      void *user);
};

/* Hands every record to the sink, in order; false (error set) when the
 * spool cannot be read back. */
bool diag_record_replay(struct diag_record *r, const struct record_sink *sink, void *user);
void diag_record_free(struct diag_record *r);

#endif
