/* What the routine checks (dcfg_graph.c) share with the natural-loop
 * comparison (dcfg_loop_agree.c): the intra-routine graph of a process,
 * the per-block scratch arrays of one image and the loop rows read. */
#ifndef TL_DCFG_GRAPH_H
#define TL_DCFG_GRAPH_H

#include "dcfg_model.h"

struct tl_dcfg_graph {
	uint32_t n;              /* blocks of the process */
	uint32_t *succ_start, *succ; /* CSR of intra-routine edges */
	uint32_t *pred_start, *pred;
};

/* Scratch arrays indexed by block, shared by the routines of a process
 * (routines are numbered across its images, so marks never collide). */
struct tl_dcfg_scratch {
	uint32_t *routine_of;  /* routine number in the process, NO_INDEX */
	uint32_t *rpo_num;     /* reverse-postorder number within the current routine, NO_INDEX */
	uint32_t *idom;        /* computed immediate dominator (block index) */
	uint32_t *order;       /* blocks in reverse postorder (by position: routine-sized) */
	uint32_t *stack, *iter; /* DFS state (by position: routine-sized) */
	uint32_t *in_loop;     /* loop marker, for the loop checks */
	uint32_t *leaving;     /* 1 + index of an edge leaving the block's routine, or 0 */
	uint32_t *exit_mark;   /* routine number + 1 when listed in its EXIT_NODE_IDS (exit rule) */
	/* Natural-loop comparison: dominator-tree numbering and marks. */
	uint32_t *dpre, *dpost, *kid_start, *kids; /* by position: routine-sized */
	uint32_t *listed, *natural, *owner; /* by position: routine-sized */
	uint32_t stamp;
	uint32_t count;        /* blocks reached in the current routine */
};

struct tl_dcfg_loopinfo {
	uint32_t row, head, parent_cell;
	uint64_t parent;
	uint32_t nodes_cell, sources_cell;
	uint32_t size;         /* distinct listed nodes */
	bool sound;            /* passed DCFG-LOOP and DCFG-LOOP-PARENT */
};

/* DCFG-NATURAL-LOOP and DCFG-LOOP-MISSING for routine r, whose LOOPS
 * table is tbl (dominators of the routine computed in s). */
void tl_dcfg_check_natural_loops(struct tl_json_check *v, const struct tl_dcfg_process *p, const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s,
			 uint32_t r, struct tl_dcfg_loopinfo *loops, uint32_t nloops, uint32_t tbl);

/* The CSR of the process's intra-routine edges between blocks. */
bool tl_dcfg_graph_build(const struct tl_dcfg_process *p, struct tl_dcfg_graph *g);
void tl_dcfg_graph_free(struct tl_dcfg_graph *g);
/* The block a NODE_ID cell names, if it is a block of the image; reports
 * DCFG-ROUTINE-NODE and returns NO_INDEX otherwise. */
uint32_t tl_dcfg_image_block(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t image, uint32_t cell, const char *what);
/* Numbers the blocks of routine r reachable from entry in reverse
 * postorder (s->order, s->rpo_num); returns how many. */
uint32_t tl_dcfg_number_blocks(const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t entry, uint32_t r);
/* Immediate dominators (s->idom) of the count blocks just numbered. */
void tl_dcfg_dominators(const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t count, uint32_t r);
/* The LOOPS table tbl of routine r (DCFG-LOOP, DCFG-LOOP-PARENT and the
 * natural-loop comparison); dominators must be computed. */
void tl_dcfg_check_loops(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t image, const struct tl_dcfg_graph *g,
		      struct tl_dcfg_scratch *s, uint32_t r, uint32_t tbl);

#endif
