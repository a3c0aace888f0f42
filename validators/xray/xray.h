/* LLVM XRay traces: the types shared by the decoder, the walkers and the
 * rule-group checkers. See specs/xray.md for the rules and decisions. */
#ifndef TL_XRAY_H
#define TL_XRAY_H

#include "context.h"
#include "cursor.h"
#include "format.h"
#include "window.h"
#include "xray_instr_map.h"
#include "xray_layout.h"

#include <stdbool.h>
#include <stdint.h>

#define XRAY_HEADER_SIZE 32u
#define XRAY_FUNCTION_SIZE 8u
#define XRAY_METADATA_SIZE 16u
#define XRAY_BASIC_RECORD_SIZE 32u

enum xray_type { XRAY_TYPE_BASIC = 0, XRAY_TYPE_FDR = 1 };

struct xray_header {
	bool big;               /* byte order of the whole file */
	uint16_t version;
	uint16_t type;
	uint32_t flags;
	uint64_t cycle_frequency;
	uint64_t buffer_size;   /* FDR only */
};

/* Metadata kinds (the 7-bit field of a metadata record's first byte). */
enum xray_kind {
	XRAY_NEW_BUFFER = 0,
	XRAY_END_OF_BUFFER = 1,
	XRAY_NEW_CPU = 2,
	XRAY_TSC_WRAP = 3,
	XRAY_WALLCLOCK = 4,
	XRAY_CUSTOM_EVENT = 5,
	XRAY_CALL_ARGUMENT = 6,
	XRAY_BUFFER_EXTENTS = 7,
	XRAY_TYPED_EVENT = 8,
	XRAY_PID = 9,
	XRAY_KIND_COUNT = 10
};

enum xray_action { XRAY_ENTRY = 0, XRAY_EXIT = 1, XRAY_TAIL_EXIT = 2, XRAY_ENTRY_ARGS = 3 };

/* One decoded FDR record. Only the fields of its kind are meaningful. */
struct xray_record {
	uint64_t offset;        /* file offset of its first byte */
	int64_t index;          /* 0 = first record after the header */
	bool metadata;
	uint8_t kind;           /* metadata kind, 0..127 */
	uint8_t action;         /* function action, 0..7 */
	uint32_t function_id;   /* 28 bits */
	uint32_t tsc_delta;     /* function records */
	uint64_t size;          /* bytes of the record including an event payload */
	int64_t value;          /* tid, pid, seconds, cpu, event size */
	int64_t micros;         /* WallClockTime */
	uint64_t tsc;           /* NewCPUId, TSCWrap */
	uint64_t word;          /* CallArgument's argument, BufferExtents' byte count */
	int32_t event_delta;    /* version-5 events */
	bool has_event_delta;
};

/* What the FDR walker knows about the buffer it is in, for messages. */
struct xray_buffer {
	uint64_t index;         /* 0 = first buffer of the file */
	uint64_t start;         /* offset of its first record */
	uint64_t end;           /* offset after its last byte */
	int64_t tid;            /* from NewBuffer, or -1 before it */
};

/* Everything a checker needs to report. */
struct xray_run {
	struct tl_ctx *ctx;
	const struct xray_header *hdr;
	const struct xray_buffer *buf;
	const struct xray_instr_map *map;  /* --instr-map, or NULL */
};

/* Largest function id a trace may name: the map's count, or any 28-bit id. */
#define XRAY_MAX_FUNCTION_ID 0x0fffffffu
static inline uint32_t xray_max_function_id(const struct xray_instr_map *map)
{
	return map ? map->functions : XRAY_MAX_FUNCTION_ID;
}

/* XRAY-FUNCTION-ID-UNDEFINED: id (not 0, which has its own rule) is above
 * what the map defines. offset and index locate the id's record. */
void tl_xray_check_function_id(struct tl_ctx *ctx, const struct xray_instr_map *map, uint32_t id,
			    uint64_t offset, int64_t index);

const char *tl_xray_kind_name(unsigned kind);

/* The text context's field and decoded record (struct tl_format's describe;
 * xray_describe.c). */
void tl_xray_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
		      struct tl_field_view *view);
const char *tl_xray_action_name(unsigned action);

/* Header: reads it (byte order chosen by content or --endian) and checks it.
 * Returns false when the data that follows cannot be interpreted. */
/* The 32 header bytes at c read in the byte order whose type and version make
 * sense, little-endian first; false when neither does (hdr: the little-endian reading). */
bool tl_xray_header_guess(struct tl_cursor c, struct xray_header *hdr);
bool tl_xray_header_read(struct tl_ctx *ctx, const struct tl_input *in, struct xray_header *hdr);

/* Decoder: outcome of decoding one FDR record at the cursor. */
enum xray_decode_status {
	XRAY_DECODED,           /* *rec is complete and fits */
	XRAY_SHORT,             /* the record (or its payload) needs rec->size bytes; fewer are left */
	XRAY_NEGATIVE_EVENT     /* an event's size field is negative: framing is lost */
};
enum xray_decode_status tl_xray_decode(const struct tl_cursor *c, const struct xray_header *hdr,
				    struct xray_record *rec);

/* Rule-group checkers, each with its own state, fed record by record
 * between buffer_begin and buffer_end. */
enum xray_grammar_state {
	XRAY_EXPECT_NEW_BUFFER,
	XRAY_EXPECT_WALLCLOCK,
	XRAY_EXPECT_PID,
	XRAY_EXPECT_NEW_CPU,
	XRAY_IN_BODY,
	XRAY_AFTER_END
};
enum xray_previous { XRAY_PREV_OTHER, XRAY_PREV_ENTRY, XRAY_PREV_ENTRY_ARGS, XRAY_PREV_ARGUMENT };
struct xray_grammar {
	enum xray_grammar_state state;
	enum xray_previous previous;
	struct xray_record entry_args;  /* the Entry_Args still waiting for its argument */
	bool entry_args_open;
	const char *last_name;          /* the record before, for messages */
};
void tl_xray_grammar_begin(struct xray_grammar *g);
/* Returns true when the record ended the buffer (EndOfBuffer). */
bool tl_xray_grammar_record(struct xray_grammar *g, const struct xray_run *run,
			 const struct xray_record *rec);
void tl_xray_grammar_end(struct xray_grammar *g, const struct xray_run *run, int64_t next_index);
/* After the fast path: what the grammar would remember of the last function
 * record it let through (an Entry, Exit or Tail_Exit, in the body). */
void tl_xray_grammar_after_function(struct xray_grammar *g, unsigned action);

#define XRAY_STACK_FRAMES 256
struct xray_stack {
	uint32_t frames[XRAY_STACK_FRAMES];
	uint64_t depth;         /* may exceed XRAY_STACK_FRAMES: deeper frames only counted */
};
void tl_xray_stack_begin(struct xray_stack *s);
void tl_xray_stack_record(struct xray_stack *s, const struct xray_run *run,
		       const struct xray_record *rec);

#define XRAY_TSC_CPUS 64
struct xray_tsc {
	bool have_base;
	uint16_t cpu;
	uint64_t now;           /* TSC reached by the records so far */
	struct { bool used; uint16_t cpu; uint64_t last; } per_cpu[XRAY_TSC_CPUS];
};
void tl_xray_tsc_begin(struct xray_tsc *t);
void tl_xray_tsc_record(struct xray_tsc *t, const struct xray_run *run,
		     const struct xray_record *rec);

/* The FDR walker's fast path (xray_fast.c): consumes the plain function
 * records (Entry, Exit, Tail_Exit that no rule objects to) at the start of
 * the n bytes at p, doing the grammar's, stack's and TSC checker's work for
 * them; returns the bytes consumed (0 when the first record is not one). */
size_t tl_xray_fast_functions(const uint8_t *p, size_t n, bool big, uint32_t max_id,
			   struct xray_grammar *g, struct xray_stack *s, struct xray_tsc *t,
			   int64_t *next_index);

/* The FDR walker's state (xray_fdr.c), for walking in steps as a stream
 * grows: versions 2-5 frame each buffer by its BufferExtents record, so a
 * buffer can be walked as soon as all its bytes are there. */
struct xray_fdr_walk {
	struct tl_ctx *ctx;
	const struct tl_input *in;
	struct tl_window win;
	const struct xray_header *hdr;
	const struct xray_instr_map *map;  /* --instr-map, or NULL */
	uint32_t max_id;        /* ids above it go to the slow path, which reports them */
	int64_t next_index;     /* index of the next record */
	struct xray_buffer buf;
	struct xray_grammar grammar;
	struct xray_stack stack;
	struct xray_tsc tsc;
	uint64_t off;           /* versions 2-5: where the next buffer starts */
	bool done;              /* framing lost, or the walk is over */
};

void tl_xray_fdr_begin(struct xray_fdr_walk *w, struct tl_ctx *ctx, const struct tl_input *in,
		       const struct xray_header *hdr, const struct xray_instr_map *map);
/* Walks what in->size bytes allow: while more may come (final false), the
 * buffers wholly there (versions 2-5; version 1 waits for the end, its
 * framing depends on the file size); with final, everything left. */
void tl_xray_fdr_step(struct xray_fdr_walk *w, bool final);
void tl_xray_fdr_end(struct xray_fdr_walk *w);

/* The two sub-formats' walkers, over the whole input. */
void tl_xray_fdr_validate(struct tl_ctx *ctx, const struct tl_input *in, const struct xray_header *hdr,
		       const struct xray_instr_map *map);
void tl_xray_basic_validate(struct tl_ctx *ctx, const struct tl_input *in, const struct xray_header *hdr,
			 const struct xray_instr_map *map);

#endif
