/* --pair rules over whole threads: how often each DCFG
 * edge occurs in a thread's decoded trace against its COUNT_PER_THREAD,
 * and where ENTRY and EXIT edges may occur. The reader calls these hooks;
 * with no paired process they do nothing. */
#ifndef TL_DCFG_TRACE_PAIR_FLOW_H
#define TL_DCFG_TRACE_PAIR_FLOW_H

#include "dcfg_model.h"
#include "trace_decode.h"

struct tl_dcfg_pair_flow {
	const struct tl_dcfg_process *p;   /* NULL: not pairing */
	uint64_t tid;
	struct tl_dcfg_tally tally;
	bool resolved;              /* every table and first edge is in the DCFG, every transition connects */
	uint32_t seen, decoded;     /* chunks met, chunks fully decoded with exact counts */
	bool contiguous;            /* chunks start at 0 and follow each other without gaps */
	uint64_t end;               /* PRECEDING + INSTR of the last decoded chunk */
	uint32_t exit_row;          /* the chunk that ended with an EXIT edge, or JNONE */
};

/* After the transition table is read: the DCFG index and class of each next edge. */
/* False when memory ran out. */
bool tl_dcfg_pair_flow_table(const struct tl_dcfg_process *p, struct tl_dcfg_ttable *tt);

/* False when memory ran out. */
bool tl_dcfg_pair_flow_begin(struct tl_dcfg_pair_flow *f, const struct tl_dcfg_process *p, const struct tl_dcfg_ttable *tt, uint64_t tid);
/* Every chunk row, before anything is checked. */
void tl_dcfg_pair_flow_seen(struct tl_dcfg_pair_flow *f);
/* Before decoding: where the chunk's edges are counted; fe is FIRST_EDGE_ID's DCFG edge. */
void tl_dcfg_pair_flow_prepare(struct tl_dcfg_pair_flow *f, struct tl_dcfg_chunk *c, const struct tl_dcfg_edge *fe);
/* After decoding: the ENTRY/EXIT positions of the chunk (PAIR-ENTRY-EXIT),
 * reported at its FIRST_EDGE_ID (first_cell), its sequence or its row. */
void tl_dcfg_pair_flow_done(struct tl_json_check *v, struct tl_dcfg_pair_flow *f, const struct tl_dcfg_chunk *c, uint32_t row, uint32_t first_cell,
			    uint64_t pre, uint64_t instr);
/* End of the thread: occurrence counts against COUNT_PER_THREAD, reported at node. */
void tl_dcfg_pair_flow_end(struct tl_json_check *v, struct tl_dcfg_pair_flow *f, uint32_t node);

#endif
