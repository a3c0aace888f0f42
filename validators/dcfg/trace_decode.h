/* The TRANSITION_TABLE of a process (seed 3.5) and the streaming decoder
 * of one TRACE_DATA chunk (3.7.2). The decoder pulls 6-bit characters from
 * the item tree of the sequence through an explicit frame stack, stores no
 * decoded edge, and skips whole repeat iterations once one leaves the
 * decoder in the state it started from, so its time follows EDGE_COUNT
 * and the size of the text, not the size of the expansion. */
#ifndef TL_DCFG_TRACE_DECODE_H
#define TL_DCFG_TRACE_DECODE_H

#include "trace_seq.h"

struct tcode {
	uint64_t edge;
	uint32_t bits;      /* the code, right-aligned */
	uint8_t len;
	uint32_t next_off, next_n;
	uint32_t row;       /* JSON node, for diagnostics */
};

struct tstate {
	uint64_t edge;
	uint32_t first, count;
};

struct ttable {
	struct tcode *codes;
	uint32_t n, cap;
	uint64_t *next_ids;
	uint64_t *next_instr;  /* NUM_INSTRS of each next edge's source (pairing), or NULL */
	uint32_t nnext, capnext;
	struct tstate *states;
	uint32_t nstates;
	struct idmap state_of;
};

/* Adds one row; false on allocation failure. */
bool ttable_add(struct ttable *t, uint64_t edge, uint32_t bits, uint8_t len, const uint64_t *next, uint32_t nnext, uint32_t row);
/* Sorts, groups by edge and reports DTRACE-CODE-DUPLICATE / DTRACE-CODE-PREFIX. */
void ttable_finish(struct jv *v, struct ttable *t);
void ttable_free(struct ttable *t);

struct chunk {
	uint32_t node;            /* the EDGE_ID_SEQUENCE string (or the row) */
	uint64_t edge_count, first_edge;
	uint64_t first_instr;     /* NUM_INSTRS of FIRST_EDGE_ID's source (pairing) */
	/* results */
	uint64_t edges_done, instr;
	uint64_t last_edge;
	bool instr_known;         /* false after a zero-bit cycle fast-forward or overflow */
	bool ok;
};

void decode_chunk(struct jv *v, const struct seq *s, const struct ttable *t, const struct dict *d, struct chunk *c);

#endif
