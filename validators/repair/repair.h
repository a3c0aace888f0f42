/* Salvage of damaged traces: the longest valid file that can be made from
 * a truncated or damaged one, and an account of every byte range dropped or
 * rewritten. Each format's salvage (repair_<format>.c) proposes; the
 * validator decides (every piece kept is validated), so the output is valid
 * or nothing is produced. See the man page, section REPAIR. */
#ifndef TL_REPAIR_H
#define TL_REPAIR_H

#include "tracelint.h"
#include "input.h"

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
/* The same for an opened input (input.h): a mapped file is read in
 * passes that hand its pages back as they go, so memory does not grow with
 * the size of a binary trace. */
enum tl_repair_outcome tl_repair_input(const struct tl_input *in, const struct tl_options *opts,
				       tl_repair_sink sink, void *user, struct tl_repair_report *report);
void tl_repair_report_free(struct tl_repair_report *report);

/* The records of a valid file that end at or before offset before (all:
 * UINT64_MAX), counted as the report counts records kept: XRay function and
 * metadata records (not BufferExtents, EndOfBuffer or padding), JSON table
 * rows, tfile frames. For measuring what a repair kept. */
uint64_t tl_repair_records(const uint8_t *data, size_t size, enum tl_format_id format, uint64_t before);

/* ---- the guarantees, checked on one input (repair_check.c) ---- */

/* A sink collecting the output in memory (start it zeroed; free p). */
struct tl_repair_buffer {
	uint8_t *p;
	size_t len, cap;
};
bool tl_repair_to_buffer(const void *data, size_t size, void *user);

/* tracelint's verdict on size bytes with the format forced: valid? */
bool tl_repair_valid_as(const uint8_t *data, size_t size, enum tl_format_id format);

struct tl_repair_check {
	enum tl_repair_outcome outcome;
	enum tl_format_id format;       /* as the repair recognised it */
	struct tl_repair_report report;
	struct tl_repair_buffer out;    /* what the repair wrote */
	bool written;                   /* NOTHING or REPAIRED */
	bool valid;                     /* the output validates */
	bool idempotent;                /* repairing it again: nothing to repair, same bytes */
	uint64_t kept;                  /* records in the output */
	const char *broken;             /* the first guarantee broken, NULL when none */
};
/* Repairs data (format, or TL_FORMAT_AUTO) and checks every guarantee:
 * a valid input comes back byte for byte with nothing to repair, an output
 * validates, a second repair changes nothing. */
void tl_repair_check(const uint8_t *data, size_t size, enum tl_format_id format, struct tl_repair_check *c);
void tl_repair_check_free(struct tl_repair_check *c);

/* ---- shared by the formats' salvage (repair_common.c) ---- */

/* What validating a candidate said: its errors, the first of them. */
struct tl_repair_probe {
	bool ran;                /* the validator ran (status TL_OK) */
	enum tl_format_id format; /* the format it validated */
	bool valid;
	uint64_t errors, warnings;
	uint64_t first_error;    /* offset of the first error's location, UINT64_MAX if none */
	const char *first_rule;  /* its rule ID */
	/* every error's offset and rule, when collect_all is set (basic mode
	 * and JSON rows drop them all at once) */
	bool collect_all;
	uint64_t *error_offsets;
	const char **error_rules;
	size_t error_count, error_cap;
};

struct tl_repair_job {
	const struct tl_input *in;  /* what data and size are the bytes of */
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

/* The whole input (job->in), as a file is validated: in constant memory. */
bool tl_repair_probe_input(const struct tl_repair_job *job, struct tl_repair_probe *probe);
bool tl_repair_probe_run(const struct tl_repair_job *job, const void *data, size_t size,
			 struct tl_repair_probe *probe);
void tl_repair_probe_free(struct tl_repair_probe *probe);
bool tl_repair_emit(struct tl_repair_job *job, const void *data, size_t size);
/* Emits input bytes [off, off + len), handing their pages back as it goes. */
bool tl_repair_emit_input(struct tl_repair_job *job, uint64_t off, uint64_t len);
/* The salvage will not read input bytes before upto again (until a probe
 * of the rest of the file has read ahead and started the pages over). */
void tl_repair_release(const struct tl_repair_job *job, uint64_t upto);
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
/* The records of a whole valid input, its pages handed back as they are counted. */
uint64_t tl_repair_xray_copy(struct tl_repair_job *job);  /* also writes the input, as it counts */
uint64_t tl_repair_tfile_records_in(const struct tl_input *in);
uint64_t tl_repair_json_records(const uint8_t *data, size_t size, uint64_t before);

#endif
