/* tracelint dump: what a trace holds, as JSON Lines (the schema of each
 * format is in tracelint(1)). Each format's dumper reads the file through
 * that format's decoders in validators/<format>/ and writes lines; it judges
 * nothing (the validation run beside it reports), it only stops where the
 * data can no longer be framed and says so. */
#ifndef TL_DUMP_H
#define TL_DUMP_H

#include "input.h"
#include "jsonl.h"
#include "tracelint.h"

#include <stdbool.h>
#include <stdint.h>

struct dump_run {
	struct jl jl;
	const struct tl_input *in;
	const struct tl_options *opts;  /* endian, pair path, instr map */
	const char *path;
	uint64_t limit;                 /* record lines at most (0: no limit) */
	uint64_t records;               /* record lines written */
	bool limited;                   /* a record was left out for the limit */
	uint64_t edge_bound;            /* DCFG-trace: decoded edges a thread at most */
	bool edges_limited;             /* a thread's edges were cut at edge_bound */
	bool incomplete;                /* the data could not be decoded to its end */
	char why[200];                  /* what stopped the dump, when incomplete */
};

/* DCFG-trace edges a thread when --limit is not given. */
#define DUMP_EDGE_BOUND 1000000u

/* Whether one more record line may be written; counts it. */
bool dump_take(struct dump_run *r);
/* The dump stopped before the end of the data: why (printf-style). */
void dump_stop(struct dump_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void tl_dump_xray(struct dump_run *r);
void tl_dump_tfile(struct dump_run *r);
void tl_dump_dcfg(struct dump_run *r);
void tl_dump_dcfg_trace(struct dump_run *r);
void tl_dump_umtrace(struct dump_run *r);

/* The "tracelint dump" subcommand: argv[0] is "dump". */
int tl_dump_main(int argc, char **argv);

#endif
