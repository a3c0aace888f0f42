/* The TRANSITION_TABLE of a process (seed 3.5) and the streaming decoder
 * of one TRACE_DATA chunk (3.7.2). The decoder pulls 6-bit characters from
 * the item tree of the sequence through an explicit frame stack, stores no
 * decoded edge, and skips whole cycles of repeat iterations once the
 * decoder is back in a state an earlier iteration started in (a cycle of
 * any length), so its time follows the text and the length of the
 * cycles, not the size of the expansion. */
#ifndef TL_DCFG_TRACE_DECODE_H
#define TL_DCFG_TRACE_DECODE_H

#include "trace_seq.h"

struct tl_dcfg_tcode {
	uint64_t edge;
	uint32_t bits;      /* the code, right-aligned */
	uint8_t len;
	uint32_t next_off, next_n;
	uint32_t row;       /* JSON node, for diagnostics */
};

struct tl_dcfg_tstate {
	uint64_t edge;
	uint32_t first, count;
};

/* The decoder's view of one code: 16 bytes, so the codes of a state
 * usually share a cache line and a step needs no hash lookup. A state is
 * named by the index of its first code. Taking a one-edge code also runs
 * through the chain of zero-bit, one-edge states it leads to, so runs of
 * blocks with a single successor cost one step. */
struct tl_dcfg_dcode {
	uint32_t pad;         /* the code, left-aligned in 32 bits */
	uint32_t next;        /* state reached after the chain, NO_STATE when its edge has no row */
	uint32_t next_off;    /* next_ids index of the chain's last edge */
	uint16_t chain;       /* edges the code emits with its chain (1 without one) */
	uint8_t len;
	uint8_t flags;        /* DC_SINGLE, DC_LAST */
};

/* Where a state's tables are: the lookup table indexed by the next `bits`
 * bits (0: none, codes are compared one by one) and the step table indexed
 * by the next `sbits` bits. */
struct tl_dcfg_lutref {
	uint32_t off, soff;
	uint8_t bits, sbits;
	uint16_t chars;       /* the state's block of char_enter, CHAR_NONE (in the padding) */
};

/* A lookup table entry (the general step's): the first code of the state
 * that can match, LUT_VERIFY set when it is longer than the table's width
 * (compare from there on), or LUT_MISS. */
#define LUT_MAX_BITS 12       /* at most 4096 entries a state ... */
#define LUT_PER_CODE 2        /* ... and at most 2 a code: 8 bytes a code in all */
#define LUT_VERIFY 0x80000000u
#define LUT_MISS UINT32_MAX

/* A step table entry (the fast loop's, trace_steps.c): every whole code
 * the state's next `sbits` bits hold, followed from state to state as long
 * as each is a definite one-edge code leading to a state with tables, so
 * one load takes several codes. 4 bytes, packed so each field the loop
 * needs is a shift and a mask away: the shift that indexes the next step
 * table (64 minus its width, in the low bits, as x86 shifts take it), the
 * bits consumed, and the next step table (22 bits). The edges taken sit
 * in a parallel byte array (step_chain; 0: no code taken, the general step
 * decides): at most STEP_CHAIN_MAX, so a code with a longer zero-bit chain
 * is left to the general step. The last code taken, needed only when the
 * loop stops, sits in another (step_code). */
typedef uint32_t tl_dcfg_step_entry;
#define SE_SHIFT(e) ((e) & 63u)
#define SE_LEN(e) (((e) >> 6) & 15u)
#define SE_NEXT(e) ((e) >> 10)
#define SE_MAKE(next, nbits, len) ((uint32_t)(next) << 10 | (uint32_t)(len) << 6 | (uint32_t)(64 - (nbits)))
#define STEP_CHAIN_MAX UINT8_MAX
#define STEP_MAX_ENTRIES (1u << 22) /* what SE_NEXT can address */

#define STEP_MAX_BITS 12            /* two 6-bit codes, two Base64 characters */
#define STEP_BUDGET (1u << 17)      /* entries of every state with tables at one width
                                     * (640 KiB, and 512 KiB of last codes): the width
                                     * narrows until they fit; a state where widening
                                     * does not pay keeps its lookup table's width */

/* Character tables (trace_chars.c): for states whose codes are all at
 * most one Base64 character (6 bits) long, a table per (state, bits of a
 * code begun but not finished) indexed by the next character, whose entry
 * takes every code that character completes and names the next such row.
 * The loop over a literal run is then one dependent load a character
 * (the entry is the address of the next row), where a step table entry
 * needs a load, two shifts and an add: a 64-way dispatch of fixed 6-bit
 * codes is one edge a load. An entry taking no edge (chain 0) stops the
 * loop: a longer code, a group, a missing row, bits matching no code, a
 * state without character tables. */
#define CHAR_MAX_ROWS 2048u         /* 64 entries a row: 1.6 MiB at most */
#define CHAR_PENDING 63u            /* bit strings of 0 to 5 bits: the rows a state may have */
#define NO_ROW UINT32_MAX
#define CHAR_NONE UINT16_MAX

#define DC_SINGLE 1   /* the group is one edge */
#define DC_LAST 2     /* the last code of its state */
#define NO_STATE UINT32_MAX

struct tl_dcfg_ttable {
	struct tl_dcfg_tcode *codes;
	uint32_t n;
	size_t cap;
	uint64_t *next_ids;
	uint64_t *next_instr;  /* NUM_INSTRS of each next edge's source (pairing), or NULL */
	uint32_t nnext;
	size_t capnext;
	struct tl_dcfg_tstate *states;
	uint32_t nstates;
	struct tl_dcfg_idmap state_of;
	struct tl_dcfg_dcode *fast;        /* parallel to codes */
	uint32_t *step_next;       /* per code: state of its group's last edge, no chain (slow path) */
	struct tl_dcfg_lutref *lref;       /* per code (used at a state's first code), or NULL */
	uint32_t *lut;             /* the states' lookup tables */
	tl_dcfg_step_entry *steps;             /* the states' step tables, or NULL */
	uint8_t *step_chain;       /* per step entry: the edges it takes */
	uint8_t step_chain_max;    /* the most any entry takes */
	uint32_t *step_code;       /* per step entry: the last code it takes */
	uintptr_t *char_next;       /* per character entry: the address of the next row's entries */
	uint8_t *char_chain;       /* per character entry: the edges it takes, 0 to stop */
	uint32_t *char_code;       /* per character entry: the last code it takes */
	uint32_t *char_state;      /* per row: its state (first code) */
	uint8_t *char_pend_len;    /* per row: the bits of the unfinished code ... */
	uint8_t *char_pend;        /* ... and their value */
	uint32_t nchar_rows;
	uint8_t char_chain_max;    /* the most edges any entry takes */
	uint32_t *char_enter;      /* per state with rows, CHAR_PENDING row indexes, by (bits, value) */
	bool reference;            /* set before finish: no lookup tables, codes compared one by one
	                            * (the tests' reference decoder) */
	int code_pos;              /* header position of TRANSITION_CODE in the rows, for reports */
	/* Pairing (filled by tl_dcfg_pair_flow_table), or NULL. */
	uint32_t *next_index;      /* DCFG edge index of each next edge, NO_INDEX when absent */
	uint8_t *next_cls;         /* its enum tl_dcfg_edge_class */
	bool pair_resolved;        /* every CURRENT_EDGE_ID and next edge is a DCFG edge */
};

/* Per-DCFG-edge occurrence counts of one thread (PAIR-EDGE-COUNT), kept without
 * expanding repeats: increments made inside a repeat iteration are journaled
 * so a skipped run of identical iterations adds k times the last one. The
 * journal holds at most a few entries per distinct edge per open repeat
 * level, never one per decoded edge. */
struct tl_dcfg_tally_entry {
	uint32_t edge;
	uint64_t n;
};

struct tl_dcfg_tally {
	uint64_t *count;           /* per DCFG edge index, saturated */
	uint32_t nedges;
	struct tl_dcfg_tally_entry *log;
	size_t nlog, cap;
	uint32_t *slot;            /* compaction scratch: 0 between uses */
	bool broken;               /* an allocation failed: the counts are unusable */
};

bool tl_dcfg_tally_init(struct tl_dcfg_tally *t, uint32_t nedges);
void tl_dcfg_tally_free(struct tl_dcfg_tally *t);

/* Adds one row; false on allocation failure. */
bool tl_dcfg_ttable_add(struct tl_dcfg_ttable *t, uint64_t edge, uint32_t bits, uint8_t len, const uint64_t *next, uint32_t nnext, uint32_t row);
/* Sorts codes by edge, code padded to 32 bits, length, then row (the
 * order the rules report in), for codes in document order (rows growing,
 * as tl_dcfg_ttable_add gets them); false without memory. */
bool tl_dcfg_sort_codes(struct tl_dcfg_tcode *codes, uint32_t n);
/* Sorts, groups by edge and reports DTRACE-CODE-DUPLICATE / DTRACE-CODE-PREFIX. */
void tl_dcfg_ttable_finish(struct tl_json_check *v, struct tl_dcfg_ttable *t);
void tl_dcfg_ttable_free(struct tl_dcfg_ttable *t);
/* The step tables (trace_steps.c), once the lookup tables are built; left
 * NULL without memory (the fast loop is then skipped). */
void tl_dcfg_build_steps(struct tl_dcfg_ttable *t);
/* The step builder's decision (trace_steps.c): the code of the state whose
 * first code is `first` that the `avail` bits of x (left-aligned) decide,
 * exactly as the code-by-code reference would whatever bits follow, or
 * LUT_MISS. */
uint32_t tl_dcfg_decided_code(const struct tl_dcfg_ttable *t, uint32_t first, uint32_t x, uint32_t avail);
/* A code the fast loops may take: one edge (after its chain), into a state with tables. */
bool tl_dcfg_one_load(const struct tl_dcfg_ttable *t, uint32_t code);
/* The character tables (trace_chars.c), after the step tables; left NULL
 * when no state qualifies or without memory. */
void tl_dcfg_build_chars(struct tl_dcfg_ttable *t);
void tl_dcfg_free_chars(struct tl_dcfg_ttable *t);
/* The mask of a left-aligned code of len bits. */
static inline uint32_t tl_dcfg_code_mask(uint8_t len) { return (uint32_t)(0xffffffff00000000ull >> len); }

struct tl_dcfg_chunk {
	uint32_t node;            /* the EDGE_ID_SEQUENCE string (or the row) */
	uint64_t edge_count, first_edge;
	uint64_t first_instr;     /* NUM_INSTRS of FIRST_EDGE_ID's source (pairing) */
	uint32_t first_index;     /* FIRST_EDGE_ID's DCFG edge index (pairing), NO_INDEX */
	uint8_t first_cls;        /* its enum tl_dcfg_edge_class (pairing) */
	struct tl_dcfg_tally *tally;      /* occurrence counts to add to (pairing), or NULL */
	/* results */
	uint64_t edges_done, instr;
	uint64_t last_edge;
	uint64_t entries, exits;  /* ENTRY / EXIT edges decoded (pairing), saturated */
	uint8_t last_cls;         /* class of the last edge (pairing) */
	bool instr_known;         /* false after a zero-bit cycle fast-forward or overflow */
	bool counts_known;        /* tally and entries/exits cover every edge (no fast-forward) */
	bool ok;
	/* Every decoded edge in order (tracelint dump), or NULL. With a visitor
	 * the decoder takes the edges one by one and skips no repeat iteration
	 * nor zero-bit cycle; the visitor returning false stops it (stopped). */
	bool (*visit)(void *user, uint64_t edge);
	void *visit_user;
	bool stopped;
};

void tl_dcfg_decode_chunk(struct tl_json_check *v, const struct tl_dcfg_seq *s, const struct tl_dcfg_ttable *t, const struct tl_dcfg_dict *d, struct tl_dcfg_chunk *c);

#endif
