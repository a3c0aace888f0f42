/* Routines and loops of one image (seed 2.14, 2.15): membership, coverage,
 * reachability from the entry, immediate tl_dcfg_dominators (Cooper-Harvey-Kennedy
 * iteration over reverse postorder) and loop structure. */
#include "dcfg_graph.h"
#include "bigalloc.h"

#include <stdlib.h>
#include <string.h>

static bool graph_edge(const struct tl_dcfg_edge *e)
{
	return e->usable && e->cls == EC_INTRA && e->src_blk != NO_INDEX && e->tgt_blk != NO_INDEX;
}

/* Counts, then places the edges from the last backwards, each at the end
 * of its block's run, so runs keep the edge order without a fill array
 * per block (two fewer arrays of the size of the process). */
bool tl_dcfg_graph_build(const struct tl_dcfg_process *p, struct tl_dcfg_graph *g)
{
	memset(g, 0, sizeof *g);
	g->n = p->nblocks;
	g->succ_start = tl_big_calloc((size_t)g->n + 1, sizeof *g->succ_start);
	g->pred_start = tl_big_calloc((size_t)g->n + 1, sizeof *g->pred_start);
	g->succ = tl_big_malloc(((size_t)p->nedges + 1) * sizeof *g->succ);
	g->pred = tl_big_malloc(((size_t)p->nedges + 1) * sizeof *g->pred);
	if (!g->succ_start || !g->pred_start || !g->succ || !g->pred)
		return false;
	for (uint32_t i = 0; i < p->nedges; i++) {
		const struct tl_dcfg_edge *e = &p->edges[i];
		if (!graph_edge(e))
			continue;
		g->succ_start[e->src_blk]++;
		g->pred_start[e->tgt_blk]++;
	}
	/* inclusive sums: each start is the end of its run for now */
	for (uint32_t b = 1; b <= g->n; b++) {
		g->succ_start[b] += g->succ_start[b - 1];
		g->pred_start[b] += g->pred_start[b - 1];
	}
	for (uint32_t i = p->nedges; i-- > 0;) {
		const struct tl_dcfg_edge *e = &p->edges[i];
		if (!graph_edge(e))
			continue;
		g->succ[--g->succ_start[e->src_blk]] = e->tgt_blk;
		g->pred[--g->pred_start[e->tgt_blk]] = e->src_blk;
	}
	return true;
}

void tl_dcfg_graph_free(struct tl_dcfg_graph *g)
{
	free(g->succ_start);
	free(g->succ);
	free(g->pred_start);
	free(g->pred);
}

/* A block id cell that must name a block of this image. */
uint32_t tl_dcfg_image_block(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t image, uint32_t cell, const char *what)
{
	uint64_t id;
	if (!tl_jv_int(v, cell, 0, UINT64_MAX, what, &id))
		return NO_INDEX;
	uint32_t b = tl_dcfg_idmap_get(&p->block_by_id, id);
	if (b == IDMAP_NONE || p->blocks[b].image != image) {
		tl_jv_report(v, RULE_DCFG_ROUTINE_NODE, cell, MSG_DCFG_ROUTINE_NODE,
			  what, (unsigned long long)p->images[image].id, (unsigned long long)id,
			  b == IDMAP_NONE ? " (no such block)" : " (a block of another image)");
		return NO_INDEX;
	}
	return b;
}

/* Reverse postorder from entry over successors inside routine r. */
uint32_t tl_dcfg_number_blocks(const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t entry, uint32_t r)
{
	uint32_t count = 0, top = 0, nrpo = 0;
	uint32_t *post = s->order;
	s->stack[top] = entry;
	s->iter[top++] = g->succ_start[entry];
	s->rpo_num[entry] = 0; /* visited */
	while (top) {
		uint32_t b = s->stack[top - 1];
		if (s->iter[top - 1] < g->succ_start[b + 1]) {
			uint32_t t = g->succ[s->iter[top - 1]++];
			if (s->routine_of[t] == r && s->rpo_num[t] == NO_INDEX) {
				s->rpo_num[t] = 0;
				s->stack[top] = t;
				s->iter[top++] = g->succ_start[t];
			}
		} else {
			post[count++] = b;
			top--;
		}
	}
	/* reverse in place to get reverse postorder */
	for (uint32_t i = 0; i < count / 2; i++) {
		uint32_t tmp = post[i];
		post[i] = post[count - 1 - i];
		post[count - 1 - i] = tmp;
	}
	for (uint32_t i = 0; i < count; i++)
		s->rpo_num[post[i]] = nrpo++;
	return count;
}

void tl_dcfg_dominators(const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t count, uint32_t r)
{
	uint32_t entry = s->order[0];
	for (uint32_t i = 0; i < count; i++)
		s->idom[s->order[i]] = NO_INDEX;
	s->idom[entry] = entry;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 1; i < count; i++) {
			uint32_t b = s->order[i], nd = NO_INDEX;
			for (uint32_t k = g->pred_start[b]; k < g->pred_start[b + 1]; k++) {
				uint32_t q = g->pred[k];
				if (s->routine_of[q] != r || s->rpo_num[q] == NO_INDEX || s->idom[q] == NO_INDEX)
					continue;
				if (nd == NO_INDEX) {
					nd = q;
					continue;
				}
				uint32_t a = q, c = nd;
				while (a != c) {
					while (s->rpo_num[a] > s->rpo_num[c])
						a = s->idom[a];
					while (s->rpo_num[c] > s->rpo_num[a])
						c = s->idom[c];
				}
				nd = a;
			}
			if (nd != s->idom[b]) {
				s->idom[b] = nd;
				changed = true;
			}
		}
	}
}

static bool has_edge(const struct tl_dcfg_graph *g, uint32_t from, uint32_t to)
{
	for (uint32_t k = g->succ_start[from]; k < g->succ_start[from + 1]; k++)
		if (g->succ[k] == to)
			return true;
	return false;
}

void tl_dcfg_check_loops(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t image, const struct tl_dcfg_graph *g,
			struct tl_dcfg_scratch *s, uint32_t r, uint32_t tbl)
{
	static const struct tl_json_column cols[] = {
		{ "LOOP_HEAD_NODE_ID", true }, { "LOOP_BACK_EDGE_SOURCE_NODE_IDS", true },
		{ "LOOP_NODE_IDS", true }, { "PARENT_LOOP_HEAD_NODE_ID", false },
	};
	struct tl_json_table t;
	uint32_t cell[4];
	if (!tl_dcfg_table_open(v, tbl, cols, 4, "LOOPS", false, &t))
		return;
	uint32_t rows = jn(&v->doc, tbl)->count;
	struct tl_dcfg_loopinfo *loops = calloc((size_t)rows + 1, sizeof *loops);
	if (!loops) {
		tl_jv_out_of_memory(v);
		return;
	}
	uint32_t nloops = 0;
	for (uint32_t row = table_first_row(v, &t); row != JNONE; row = jnext(v, row)) {
		if (!tl_dcfg_table_row(v, &t, row, cell))
			continue;
		uint32_t head = tl_dcfg_image_block(v, p, image, cell[0], "LOOP_HEAD_NODE_ID");
		if (head == NO_INDEX)
			continue;
		if (s->routine_of[head] != r) {
			tl_jv_report(v, RULE_DCFG_LOOP, cell[0], MSG_DCFG_LOOP,
				  (unsigned long long)p->blocks[head].id);
			continue;
		}
		bool dup = false;
		for (uint32_t i = 0; i < nloops; i++)
			dup |= loops[i].head == head;
		if (dup) {
			tl_jv_report(v, RULE_DCFG_LOOP, cell[0], MSG_DCFG_LOOP_2,
				  (unsigned long long)p->blocks[head].id);
			continue;
		}
		if (!tl_jv_expect(v, cell[1], J_ARR, "LOOP_BACK_EDGE_SOURCE_NODE_IDS") || !tl_jv_expect(v, cell[2], J_ARR, "LOOP_NODE_IDS"))
			continue;
		/* mark loop nodes: in_loop[b] = row + 1 */
		uint32_t mark = row + 1, size = 0;
		bool head_in = false, sound = true;
		for (uint32_t c = jn(&v->doc, cell[2])->first; c != JNONE; c = jnext(v, c)) {
			uint32_t b = tl_dcfg_image_block(v, p, image, c, "LOOP_NODE_IDS entry");
			if (b == NO_INDEX) {
				sound = false;
				continue;
			}
			if (s->routine_of[b] != r || s->in_loop[b] == mark) {
				tl_jv_report(v, RULE_DCFG_LOOP, c, MSG_DCFG_LOOP_3,
					  (unsigned long long)p->blocks[b].id, s->in_loop[b] == mark ? "twice" : "outside the routine");
				sound = false;
			} else
				size++;
			s->in_loop[b] = mark;
			head_in |= b == head;
		}
		if (!head_in)
			tl_jv_report(v, RULE_DCFG_LOOP, cell[2], MSG_DCFG_LOOP_4,
				  (unsigned long long)p->blocks[head].id);
		if (jn(&v->doc, cell[1])->count == 0)
			tl_jv_report(v, RULE_DCFG_LOOP, cell[1], MSG_DCFG_LOOP_5,
				  (unsigned long long)p->blocks[head].id);
		sound &= head_in && jn(&v->doc, cell[1])->count > 0;
		for (uint32_t c = jn(&v->doc, cell[1])->first; c != JNONE; c = jnext(v, c)) {
			uint32_t b = tl_dcfg_image_block(v, p, image, c, "back-edge source");
			if (b == NO_INDEX) {
				sound = false;
				continue;
			}
			if (s->in_loop[b] != mark || !has_edge(g, b, head)) {
				tl_jv_report(v, RULE_DCFG_LOOP, c,
					  MSG_DCFG_LOOP_6,
					  (unsigned long long)p->blocks[b].id, (unsigned long long)p->blocks[head].id,
					  s->in_loop[b] != mark ? "it outside LOOP_NODE_IDS" : "no such edge");
				sound = false;
			}
		}
		struct tl_dcfg_loopinfo *li = &loops[nloops++];
		li->row = row;
		li->head = head;
		li->nodes_cell = cell[2];
		li->sources_cell = cell[1];
		li->size = size;
		li->sound = sound;
		li->parent_cell = cell[3];
		if (cell[3] != JNONE && !tl_jv_int(v, cell[3], 0, UINT64_MAX, "PARENT_LOOP_HEAD_NODE_ID", &li->parent)) {
			li->parent_cell = JNONE;
			li->sound = false;
		}
	}
	/* Parents: the head of another loop of this routine containing this loop's nodes. */
	for (uint32_t i = 0; i < nloops; i++) {
		struct tl_dcfg_loopinfo *li = &loops[i];
		if (li->parent_cell == JNONE || li->parent == 0)
			continue;
		uint32_t k;
		for (k = 0; k < nloops; k++)
			if (k != i && p->blocks[loops[k].head].id == li->parent)
				break;
		if (k == nloops) {
			tl_jv_report(v, RULE_DCFG_LOOP_PARENT, li->parent_cell,
				  MSG_DCFG_LOOP_PARENT,
				  (unsigned long long)li->parent);
			li->sound = false;
			continue;
		}
		uint32_t mark = loops[k].row + 1;
		/* re-mark the parent's nodes, then test the child's */
		for (uint32_t c = jn(&v->doc, loops[k].nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint64_t id;
			uint32_t b;
			if (tl_jv_int(v, c, 0, UINT64_MAX, "LOOP_NODE_IDS entry", &id) && (b = tl_dcfg_idmap_get(&p->block_by_id, id)) != IDMAP_NONE)
				s->in_loop[b] = mark;
		}
		for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint64_t id;
			uint32_t b;
			if (tl_jv_int(v, c, 0, UINT64_MAX, "LOOP_NODE_IDS entry", &id) && (b = tl_dcfg_idmap_get(&p->block_by_id, id)) != IDMAP_NONE &&
			    s->in_loop[b] != mark) {
				tl_jv_report(v, RULE_DCFG_LOOP_PARENT, li->parent_cell,
					  MSG_DCFG_LOOP_PARENT_2,
					  (unsigned long long)li->parent, (unsigned long long)p->blocks[li->head].id,
					  (unsigned long long)id);
				li->sound = false;
				break;
			}
		}
	}
	tl_dcfg_check_natural_loops(v, p, g, s, r, loops, nloops, tbl);
	free(loops);
}
