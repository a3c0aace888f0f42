/* The compact model a DCFG is read into: what the graph checks and the
 * DCFG-trace pairing need, nothing of the JSON text. */
#ifndef TL_DCFG_MODEL_H
#define TL_DCFG_MODEL_H

#include "idmap.h"
#include "json_check.h"

#define NO_INDEX UINT32_MAX

/* Known columns of BASIC_BLOCKS and EDGES, in the readers' order: a rule
 * about one value of a row reported after the table points at it through
 * the header position of its column (tl_jv_report_cell). */
enum { BB_NODE_ID, BB_ADDR_OFFSET, BB_SIZE, BB_NUM_INSTRS, BB_LAST_INSTR_OFFSET, BB_COUNT, BB_COLS };
enum { EG_EDGE_ID, EG_SOURCE, EG_TARGET, EG_TYPE, EG_COUNTS, EG_COLS };

/* How an edge type relates to routines (seed 2.5: within a routine, into one, out of one). */
enum tl_dcfg_edge_class { EC_INTRA, EC_INTER, EC_ENTRY, EC_EXIT };

/* Millions of blocks and edges: ids fit in 32 bits (DCFG-ID-RANGE), so
 * they are kept in 32, and each struct in 40 bytes instead of 48. */
struct tl_dcfg_block {
	uint64_t num_instrs;
	uint64_t count;
	uint32_t id;
	uint32_t node;      /* JSON row, for diagnostics */
	uint32_t image;     /* index in the process's images */
	bool has_count;
	bool geometry_read;  /* ADDR_OFFSET, SIZE, NUM_INSTRS, LAST_INSTR_OFFSET all read */
};

struct tl_dcfg_edge {
	uint32_t src, tgt;  /* node ids as read, meaningful when usable: a resolved id is at
	                     * most 0x7fffffff (DCFG-ID-RANGE); 32 bits save 8 bytes an edge */
	uint32_t id;
	uint32_t type;      /* meaningful when usable (a resolved type id), else 0 */
	uint32_t node;      /* JSON row */
	uint32_t src_blk, tgt_blk;  /* block indexes, NO_INDEX for special/unresolved */
	uint8_t cls;
	bool usable;        /* endpoints and type resolved */
};

struct tl_dcfg_image {
	uint64_t id, load, size;
	uint32_t node, routines; /* JSON row; ROUTINES table or JNONE */
	uint32_t load_cell;      /* LOAD_ADDR (IMAGES rows are never lazy) */
	int block_pos[BB_COLS];  /* header positions of the BASIC_BLOCKS columns, -1 absent */
};

struct tl_dcfg_process {
	uint64_t pid;
	uint32_t node;
	uint32_t nthreads;
	uint64_t *instr_per_thread;
	uint32_t threads_node;  /* INSTR_COUNT_PER_THREAD, or JNONE */
	int edge_pos[EG_COLS];  /* header positions of the EDGES columns, -1 absent */
	struct tl_dcfg_image *images;
	uint32_t nimages;
	struct tl_dcfg_block *blocks;
	uint32_t nblocks, capblocks;
	uint64_t *block_addr;   /* ADDR_OFFSET of each block while the images are read, for
	                         * DCFG-BLOCK-SAME-START (dcfg_blocks.c); released after it */
	struct tl_dcfg_idmap block_by_id;
	struct tl_dcfg_edge *edges;
	uint32_t nedges;
	struct tl_dcfg_idmap edge_by_id;
	uint64_t *edge_counts;  /* nedges x nthreads, missing entries 0 */
	bool threads_known;     /* INSTR_COUNT_PER_THREAD was read */
	bool edges_complete;    /* every edge row resolved: graph and count checks are meaningful */
};

/* What the model is read for: the verdict only (what the checks no longer
 * need is released as they finish), or pairing with a DCFG-trace (the
 * edge ids stay, the trace names edges by them). */
enum tl_dcfg_use { DCFG_VERDICT, DCFG_PAIRING };

struct tl_dcfg_model {
	enum tl_dcfg_use use;
	uint64_t start_id, end_id, unknown_id; /* 0 when absent */
	bool has_edge_types, has_special_nodes;
	struct tl_dcfg_idmap type_class;   /* EDGE_TYPE_ID -> enum tl_dcfg_edge_class */
	struct tl_dcfg_idmap file_names;   /* FILE_NAME_ID -> row */
	struct tl_dcfg_process *procs;
	uint32_t nprocs;
	struct tl_dcfg_idmap proc_by_pid;
	struct tl_dcfg_idmap type_kind;    /* EDGE_TYPE_ID -> enum tl_dcfg_edge_kind (D38) */
};

/* What the edge-suspicion rules need to know of a type beyond its class. */
enum tl_dcfg_edge_kind { EK_OTHER, EK_REP, EK_BYPASS };

/* Reads and checks a DCFG held in data; reports through v (silently when
 * v->ctx is NULL). The model is filled as far as the file allows. */
void tl_dcfg_read(struct tl_json_check *v, const uint8_t *data, size_t size, enum tl_dcfg_use use, struct tl_dcfg_model *m);
void tl_dcfg_model_free(struct tl_dcfg_model *m);

/* Routine, dominator and loop checks of every image of a process that has
 * ROUTINES (dcfg_routines.c). */
void tl_dcfg_check_routines(struct tl_json_check *v, const struct tl_dcfg_process *p);

static inline bool is_special(const struct tl_dcfg_model *m, uint64_t id)
{
	return id && (id == m->start_id || id == m->end_id || id == m->unknown_id);
}



void tl_dcfg_read_edges(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_model *m, struct tl_dcfg_process *p);
void tl_dcfg_check_counts(struct tl_json_check *v, const struct tl_dcfg_model *m, const struct tl_dcfg_process *p);
/* Hooks of the reader into the suspicion-level rules (dcfg_blocks.c). */
void tl_dcfg_note_edge_type(struct tl_json_check *v, struct tl_dcfg_model *m, uint64_t id, const uint8_t *name, uint32_t len);
void tl_dcfg_check_blocks(struct tl_json_check *v, const struct tl_dcfg_process *p);
void tl_dcfg_check_last_instr(struct tl_json_check *v, const struct tl_dcfg_block *b, uint32_t last_cell, uint64_t size, uint64_t last_off);
/* The condition tl_dcfg_check_last_instr reports on, without reporting. */
bool tl_dcfg_last_instr_fits(uint64_t size, uint64_t last_off);
/* Top-level object, duplicate keys and version keys, shared with DCFG-trace. */
bool tl_dcfg_check_top(struct tl_json_check *v, enum tl_rule_id missing_rule, enum tl_rule_id version_rule);
#endif
