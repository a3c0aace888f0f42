/* Salvage of damaged traces: the longest valid file that can be made from
 * a truncated or damaged one, and an account of every byte range dropped or
 * rewritten. Each format's salvage (repair_<format>.c) proposes; the
 * validator decides (every piece kept is validated), so the output is valid
 * or nothing is produced. See the man page, section REPAIR. */
#ifndef TL_REPAIR_H
#define TL_REPAIR_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tl_repair_outcome {
	TL_REPAIR_NOTHING = 0,   /* the input is valid: the output is the input, byte for byte */
	TL_REPAIR_REPAIRED = 1,  /* the output is a valid file made of what could be kept */
	TL_REPAIR_FAILED = 2,    /* the output could not be written, or no memory */
	TL_REPAIR_NONE_LEFT = 3  /* nothing could be kept (reason says why); nothing written */
};

enum tl_repair_action { TL_REPAIR_DROPPED, TL_REPAIR_REWRITTEN, TL_REPAIR_ADDED };

/* One change: input bytes [offset, offset + length) dropped or rewritten
 * (ADDED: bytes written that the input does not hold, before input offset). */
struct tl_repair_change {
	enum tl_repair_action action;
	uint64_t offset, length;
	const char *rule;        /* the rule that made it necessary (catalog ID) */
	char what[200];
};

/* Records kept and dropped in one unit: an XRay buffer (with its thread), a
 * basic-mode file, a JSON table. */
struct tl_repair_unit {
	char name[96];
	uint64_t kept, dropped;
};

struct tl_repair_report {
	enum tl_format_id format;
	char detail[64];         /* e.g. "FDR version 5, little-endian" */
	struct tl_repair_change *changes;
	size_t change_count, change_cap;
	struct tl_repair_unit *units;
	size_t unit_count, unit_cap;
	uint64_t kept, dropped;  /* records over all units */
	uint64_t input_size, output_size;
	char reason[256];        /* NONE_LEFT, FAILED: why */
	bool out_of_memory;
};

/* Where the output goes, in order; false stops the repair (FAILED). */
typedef bool (*tl_repair_sink)(const void *data, size_t size, void *user);

/* Repairs the size bytes at data (one file; not a trace directory, not
 * compressed). opts: format (or AUTO), byte order, --pair, --instr-map as
 * for validation; its callback and rule settings are not used. The caller
 * checks the output with the validator (the CLI does, before it replaces
 * anything). */
enum tl_repair_outcome tl_repair(const uint8_t *data, size_t size, const struct tl_options *opts,
				 tl_repair_sink sink, void *user, struct tl_repair_report *report);
void tl_repair_report_free(struct tl_repair_report *report);

/* The records of a valid file that end at or before offset before (all:
 * UINT64_MAX), counted as the report counts records kept: XRay function and
 * metadata records (not BufferExtents, EndOfBuffer or padding), JSON table
 * rows, tfile frames. For measuring what a repair kept. */
uint64_t tl_repair_records(const uint8_t *data, size_t size, enum tl_format_id format, uint64_t before);

/* ---- shared by the formats' salvage (repair_common.c) ---- */

/* What validating a candidate said: its errors, the first of them. */
struct tl_repair_probe {
	bool ran;                /* the validator ran (status TL_OK) */
	enum tl_format_id format; /* the format it validated */
	bool valid;
	uint64_t errors, warnings;
	uint64_t first_error;    /* offset of the first error's location, UINT64_MAX if none */
	const char *first_rule;  /* its rule ID */
	/* every error offset, when collect_all is set (basic mode drops them all) */
	bool collect_all;
	uint64_t *error_offsets;
	size_t error_count, error_cap;
};

struct tl_repair_job {
	const uint8_t *data;
	size_t size;
	const struct tl_options *base;
	enum tl_format_id format;
	tl_repair_sink sink;
	void *user;
	struct tl_repair_report *report;
	bool failed;             /* the sink refused, or no memory */
	uint64_t first_error;    /* the input's first error offset (what comes before is sound) */
	const char *first_rule;
};

/* A candidate file as pieces (bytes of the input or made up), validated
 * through a stream, so memory does not grow with the file. */
struct tl_repair_piece {
	const uint8_t *p;
	size_t len;
};
bool tl_repair_probe_pieces(const struct tl_repair_job *job, const struct tl_repair_piece *pieces,
			    size_t count, struct tl_repair_probe *probe);

bool tl_repair_probe_run(const struct tl_repair_job *job, const void *data, size_t size,
			 struct tl_repair_probe *probe);
void tl_repair_probe_free(struct tl_repair_probe *probe);
bool tl_repair_emit(struct tl_repair_job *job, const void *data, size_t size);
void tl_repair_change(struct tl_repair_job *job, enum tl_repair_action action, uint64_t offset,
		      uint64_t length, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void tl_repair_unit(struct tl_repair_job *job, const char *name, uint64_t kept, uint64_t dropped);

/* The formats' salvage: each writes the output through tl_repair_emit and
 * returns REPAIRED or NONE_LEFT (reason set). */
enum tl_repair_outcome tl_repair_xray(struct tl_repair_job *job);
enum tl_repair_outcome tl_repair_json(struct tl_repair_job *job);
enum tl_repair_outcome tl_repair_tfile(struct tl_repair_job *job);
uint64_t tl_repair_tfile_records(const uint8_t *data, size_t size, uint64_t before);
uint64_t tl_repair_xray_records(const uint8_t *data, size_t size, uint64_t before);
uint64_t tl_repair_json_records(const uint8_t *data, size_t size, uint64_t before);

#endif
