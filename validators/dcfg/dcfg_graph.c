/* Routines and loops of one image (seed 2.14, 2.15): membership, coverage,
 * reachability from the entry, immediate dominators (Cooper-Harvey-Kennedy
 * iteration over reverse postorder) and loop structure. */
#include "dcfg_graph.h"

#include <stdlib.h>
#include <string.h>

static bool build_graph(const struct dprocess *p, struct graph *g)
{
	memset(g, 0, sizeof *g);
	g->n = p->nblocks;
	g->succ_start = calloc((size_t)g->n + 1, sizeof *g->succ_start);
	g->pred_start = calloc((size_t)g->n + 1, sizeof *g->pred_start);
	g->succ = malloc(((size_t)p->nedges + 1) * sizeof *g->succ);
	g->pred = malloc(((size_t)p->nedges + 1) * sizeof *g->pred);
	uint32_t *fill = calloc((size_t)g->n + 1, sizeof *fill);
	uint32_t *fill2 = calloc((size_t)g->n + 1, sizeof *fill2);
	bool ok = g->succ_start && g->pred_start && g->succ && g->pred && fill && fill2;
	if (ok) {
		for (uint32_t i = 0; i < p->nedges; i++) {
			const struct dedge *e = &p->edges[i];
			if (!e->usable || e->cls != EC_INTRA || e->src_blk == NO_INDEX || e->tgt_blk == NO_INDEX)
				continue;
			g->succ_start[e->src_blk + 1]++;
			g->pred_start[e->tgt_blk + 1]++;
		}
		for (uint32_t b = 0; b < g->n; b++) {
			g->succ_start[b + 1] += g->succ_start[b];
			g->pred_start[b + 1] += g->pred_start[b];
		}
		for (uint32_t i = 0; i < p->nedges; i++) {
			const struct dedge *e = &p->edges[i];
			if (!e->usable || e->cls != EC_INTRA || e->src_blk == NO_INDEX || e->tgt_blk == NO_INDEX)
				continue;
			g->succ[g->succ_start[e->src_blk] + fill[e->src_blk]++] = e->tgt_blk;
			g->pred[g->pred_start[e->tgt_blk] + fill2[e->tgt_blk]++] = e->src_blk;
		}
	}
	free(fill);
	free(fill2);
	return ok;
}

static void free_graph(struct graph *g)
{
	free(g->succ_start);
	free(g->succ);
	free(g->pred_start);
	free(g->pred);
}

/* A block id cell that must name a block of this image. */
static uint32_t image_block(struct jv *v, const struct dprocess *p, uint32_t image, uint32_t cell, const char *what)
{
	uint64_t id;
	if (!jv_int(v, cell, 0, UINT64_MAX, what, &id))
		return NO_INDEX;
	uint32_t b = idmap_get(&p->block_by_id, id);
	if (b == IDMAP_NONE || p->blocks[b].image != image) {
		jv_report(v, RULE_DCFG_ROUTINE_NODE, cell, "expected %s to be a basic block of image %llu, found %llu%s",
			  what, (unsigned long long)p->images[image].id, (unsigned long long)id,
			  b == IDMAP_NONE ? " (no such block)" : " (a block of another image)");
		return NO_INDEX;
	}
	return b;
}

/* Reverse postorder from entry over successors inside routine r. */
static uint32_t number_blocks(const struct graph *g, struct scratch *s, uint32_t entry, uint32_t r)
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

static void dominators(const struct graph *g, struct scratch *s, uint32_t count, uint32_t r)
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

static bool has_edge(const struct graph *g, uint32_t from, uint32_t to)
{
	for (uint32_t k = g->succ_start[from]; k < g->succ_start[from + 1]; k++)
		if (g->succ[k] == to)
			return true;
	return false;
}

static void check_loops(struct jv *v, const struct dprocess *p, uint32_t image, const struct graph *g,
			struct scratch *s, uint32_t r, uint32_t tbl)
{
	static const struct tcol cols[] = {
		{ "LOOP_HEAD_NODE_ID", true }, { "LOOP_BACK_EDGE_SOURCE_NODE_IDS", true },
		{ "LOOP_NODE_IDS", true }, { "PARENT_LOOP_HEAD_NODE_ID", false },
	};
	struct table t;
	uint32_t cell[4];
	if (!table_open(v, tbl, cols, 4, "LOOPS", false, &t))
		return;
	uint32_t rows = jn(&v->doc, tbl)->count;
	struct loopinfo *loops = calloc((size_t)rows + 1, sizeof *loops);
	if (!loops)
		return;
	uint32_t nloops = 0;
	for (uint32_t row = table_first_row(v, &t); row != JNONE; row = jnext(v, row)) {
		if (!table_row(v, &t, row, cell))
			continue;
		uint32_t head = image_block(v, p, image, cell[0], "LOOP_HEAD_NODE_ID");
		if (head == NO_INDEX)
			continue;
		if (s->routine_of[head] != r) {
			jv_report(v, RULE_DCFG_LOOP, cell[0], "expected the loop head to be a node of its routine, found block %llu outside it",
				  (unsigned long long)p->blocks[head].id);
			continue;
		}
		bool dup = false;
		for (uint32_t i = 0; i < nloops; i++)
			dup |= loops[i].head == head;
		if (dup) {
			jv_report(v, RULE_DCFG_LOOP, cell[0], "expected one LOOPS row per head, found head %llu again",
				  (unsigned long long)p->blocks[head].id);
			continue;
		}
		if (!jv_expect(v, cell[1], J_ARR, "LOOP_BACK_EDGE_SOURCE_NODE_IDS") || !jv_expect(v, cell[2], J_ARR, "LOOP_NODE_IDS"))
			continue;
		/* mark loop nodes: in_loop[b] = row + 1 */
		uint32_t mark = row + 1, size = 0;
		bool head_in = false, sound = true;
		for (uint32_t c = jn(&v->doc, cell[2])->first; c != JNONE; c = jnext(v, c)) {
			uint32_t b = image_block(v, p, image, c, "LOOP_NODE_IDS entry");
			if (b == NO_INDEX) {
				sound = false;
				continue;
			}
			if (s->routine_of[b] != r || s->in_loop[b] == mark) {
				jv_report(v, RULE_DCFG_LOOP, c, "expected loop nodes to be distinct nodes of the routine, found block %llu %s",
					  (unsigned long long)p->blocks[b].id, s->in_loop[b] == mark ? "twice" : "outside the routine");
				sound = false;
			} else
				size++;
			s->in_loop[b] = mark;
			head_in |= b == head;
		}
		if (!head_in)
			jv_report(v, RULE_DCFG_LOOP, cell[2], "expected LOOP_NODE_IDS to contain the head %llu, found it missing",
				  (unsigned long long)p->blocks[head].id);
		if (jn(&v->doc, cell[1])->count == 0)
			jv_report(v, RULE_DCFG_LOOP, cell[1], "expected at least one back-edge source for loop head %llu, found none",
				  (unsigned long long)p->blocks[head].id);
		sound &= head_in && jn(&v->doc, cell[1])->count > 0;
		for (uint32_t c = jn(&v->doc, cell[1])->first; c != JNONE; c = jnext(v, c)) {
			uint32_t b = image_block(v, p, image, c, "back-edge source");
			if (b == NO_INDEX) {
				sound = false;
				continue;
			}
			if (s->in_loop[b] != mark || !has_edge(g, b, head)) {
				jv_report(v, RULE_DCFG_LOOP, c,
					  "expected back-edge source %llu to be a loop node with an edge to head %llu, found %s",
					  (unsigned long long)p->blocks[b].id, (unsigned long long)p->blocks[head].id,
					  s->in_loop[b] != mark ? "it outside LOOP_NODE_IDS" : "no such edge");
				sound = false;
			}
		}
		struct loopinfo *li = &loops[nloops++];
		li->row = row;
		li->head = head;
		li->nodes_cell = cell[2];
		li->sources_cell = cell[1];
		li->size = size;
		li->sound = sound;
		li->parent_cell = cell[3];
		if (cell[3] != JNONE && !jv_int(v, cell[3], 0, UINT64_MAX, "PARENT_LOOP_HEAD_NODE_ID", &li->parent)) {
			li->parent_cell = JNONE;
			li->sound = false;
		}
	}
	/* Parents: the head of another loop of this routine containing this loop's nodes. */
	for (uint32_t i = 0; i < nloops; i++) {
		struct loopinfo *li = &loops[i];
		if (li->parent_cell == JNONE || li->parent == 0)
			continue;
		uint32_t k;
		for (k = 0; k < nloops; k++)
			if (k != i && p->blocks[loops[k].head].id == li->parent)
				break;
		if (k == nloops) {
			jv_report(v, RULE_DCFG_LOOP_PARENT, li->parent_cell,
				  "expected PARENT_LOOP_HEAD_NODE_ID to be 0 or the head of another loop of the routine, found %llu",
				  (unsigned long long)li->parent);
			li->sound = false;
			continue;
		}
		uint32_t mark = loops[k].row + 1;
		/* re-mark the parent's nodes, then test the child's */
		for (uint32_t c = jn(&v->doc, loops[k].nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint64_t id;
			uint32_t b;
			if (jv_int(v, c, 0, UINT64_MAX, "LOOP_NODE_IDS entry", &id) && (b = idmap_get(&p->block_by_id, id)) != IDMAP_NONE)
				s->in_loop[b] = mark;
		}
		for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint64_t id;
			uint32_t b;
			if (jv_int(v, c, 0, UINT64_MAX, "LOOP_NODE_IDS entry", &id) && (b = idmap_get(&p->block_by_id, id)) != IDMAP_NONE &&
			    s->in_loop[b] != mark) {
				jv_report(v, RULE_DCFG_LOOP_PARENT, li->parent_cell,
					  "expected the parent loop %llu to contain every node of loop %llu, found node %llu outside it",
					  (unsigned long long)li->parent, (unsigned long long)p->blocks[li->head].id,
					  (unsigned long long)id);
				li->sound = false;
				break;
			}
		}
	}
	check_natural_loops(v, p, g, s, r, loops, nloops, tbl);
	free(loops);
}

/* For D29: the first edge by which each block of the image leaves its
 * routine (an inter-routine type, or a target outside the routine). */
static void find_leaving_edges(const struct dprocess *p, struct scratch *s)
{
	for (uint32_t i = 0; i < p->nedges; i++) {
		const struct dedge *e = &p->edges[i];
		if (!e->usable || e->src_blk == NO_INDEX)
			continue;
		uint32_t r = s->routine_of[e->src_blk];
		if (r == NO_INDEX || s->leaving[e->src_blk])
			continue;
		if (e->cls != EC_INTRA || e->tgt_blk == NO_INDEX || s->routine_of[e->tgt_blk] != r)
			s->leaving[e->src_blk] = i + 1;
	}
}

void dcfg_check_routines(struct jv *v, const struct dcfg_model *m, const struct dprocess *p, uint32_t image)
{
	static const struct tcol cols[] = {
		{ "ENTRY_NODE_ID", true }, { "EXIT_NODE_IDS", true }, { "NODES", true }, { "LOOPS", false },
	};
	static const struct tcol node_cols[] = { { "NODE_ID", true }, { "IDOM_NODE_ID", true } };
	(void)m;
	struct table t;
	uint32_t cell[4];
	uint32_t tbl = p->images[image].routines;
	if (!table_open(v, tbl, cols, 4, "ROUTINES", false, &t))
		return;
	struct graph g;
	struct scratch s = { 0 };
	size_t n = (size_t)p->nblocks + 1;
	s.routine_of = malloc(n * sizeof *s.routine_of);
	s.rpo_num = malloc(n * sizeof *s.rpo_num);
	s.idom = malloc(n * sizeof *s.idom);
	s.order = malloc(n * sizeof *s.order);
	s.stack = malloc(n * sizeof *s.stack);
	s.iter = malloc(n * sizeof *s.iter);
	s.in_loop = calloc(n, sizeof *s.in_loop);
	s.leaving = calloc(n, sizeof *s.leaving);
	s.exit_mark = calloc(n, sizeof *s.exit_mark);
	s.dpre = malloc(n * sizeof *s.dpre);
	s.dpost = malloc(n * sizeof *s.dpost);
	s.kid_start = malloc((n + 1) * sizeof *s.kid_start);
	s.kids = malloc(n * sizeof *s.kids);
	s.listed = calloc(n, sizeof *s.listed);
	s.natural = calloc(n, sizeof *s.natural);
	s.owner = malloc(n * sizeof *s.owner);
	bool ok = build_graph(p, &g) && s.routine_of && s.rpo_num && s.idom && s.order && s.stack && s.iter && s.in_loop &&
		  s.leaving && s.exit_mark && s.dpre && s.dpost && s.kid_start && s.kids && s.listed && s.natural && s.owner;
	if (!ok)
		goto out;
	for (size_t i = 0; i < n; i++)
		s.routine_of[i] = s.rpo_num[i] = NO_INDEX;
	/* Pass 1: membership of every routine. */
	uint32_t r = 0;
	bool cover_ok = true; /* D29 needs every block in exactly one routine */
	for (uint32_t row = table_first_row(v, &t); row != JNONE; row = jnext(v, row), r++) {
		struct table nt;
		uint32_t nc[2];
		if (!table_row(v, &t, row, cell) || !table_open(v, cell[2], node_cols, 2, "NODES", false, &nt))
			continue;
		for (uint32_t nr = table_first_row(v, &nt); nr != JNONE; nr = jnext(v, nr)) {
			if (!table_row(v, &nt, nr, nc))
				continue;
			uint32_t b = image_block(v, p, image, nc[0], "routine NODE_ID");
			if (b == NO_INDEX) {
				cover_ok = false;
				continue;
			}
			if (s.routine_of[b] != NO_INDEX) {
				jv_report(v, RULE_DCFG_ROUTINE_COVER, nc[0], "expected block %llu in exactly one routine, found it listed again",
					  (unsigned long long)p->blocks[b].id);
				cover_ok = false;
			} else
				s.routine_of[b] = r;
		}
	}
	for (uint32_t b = 0; b < p->nblocks; b++)
		if (p->blocks[b].image == image && s.routine_of[b] == NO_INDEX) {
			jv_report(v, RULE_DCFG_ROUTINE_COVER, p->blocks[b].node,
				  "expected block %llu of image %llu (which has ROUTINES) in exactly one routine, found it in none",
				  (unsigned long long)p->blocks[b].id, (unsigned long long)p->images[image].id);
			cover_ok = false;
		}
	if (cover_ok)
		find_leaving_edges(p, &s);
	/* Pass 2: entry, exits, reachability, dominators, loops. */
	r = 0;
	for (uint32_t row = table_first_row(v, &t); row != JNONE; row = jnext(v, row), r++) {
		struct table nt;
		uint32_t nc[2];
		if (!table_row(v, &t, row, cell))
			continue;
		uint32_t entry = image_block(v, p, image, cell[0], "ENTRY_NODE_ID");
		if (entry == NO_INDEX)
			continue;
		if (s.routine_of[entry] != r) {
			jv_report(v, RULE_DCFG_ROUTINE_NODE, cell[0], "expected the entry %llu among the routine's NODES, found it missing",
				  (unsigned long long)p->blocks[entry].id);
			continue;
		}
		bool exits_read = jv_expect(v, cell[1], J_ARR, "EXIT_NODE_IDS");
		bool exits_checked = exits_read && cover_ok;
		if (exits_read)
			for (uint32_t c = jn(&v->doc, cell[1])->first; c != JNONE; c = jnext(v, c)) {
				uint32_t b = image_block(v, p, image, c, "EXIT_NODE_IDS entry");
				if (b == NO_INDEX)
					continue;
				if (s.routine_of[b] != r) {
					jv_report(v, RULE_DCFG_ROUTINE_NODE, c, "expected exit %llu among the routine's NODES, found it missing",
						  (unsigned long long)p->blocks[b].id);
					continue;
				}
				s.exit_mark[b] = r + 1;
				if (exits_checked && !s.leaving[b])
					jv_report(v, RULE_DCFG_ROUTINE_EXITS, c,
						  "expected exit %llu to have an edge leaving the routine (an inter-routine type or a target outside it), found none",
						  (unsigned long long)p->blocks[b].id);
			}
		uint32_t count = number_blocks(&g, &s, entry, r);
		s.count = count;
		dominators(&g, &s, count, r);
		if (!table_open(v, cell[2], node_cols, 2, "NODES", false, &nt))
			goto reset;
		for (uint32_t nr = table_first_row(v, &nt); nr != JNONE; nr = jnext(v, nr)) {
			if (!table_row(v, &nt, nr, nc))
				continue;
			uint64_t id, idom;
			uint32_t b;
			if (!jv_int(v, nc[0], 0, UINT64_MAX, "routine NODE_ID", &id) || (b = idmap_get(&p->block_by_id, id)) == IDMAP_NONE ||
			    s.routine_of[b] != r)
				continue;
			if (exits_checked && s.leaving[b] && s.exit_mark[b] != r + 1) {
				const struct dedge *e = &p->edges[s.leaving[b] - 1];
				jv_report(v, RULE_DCFG_ROUTINE_EXITS, cell[1],
					  "expected EXIT_NODE_IDS to list node %llu, which leaves the routine by edge %llu to node %llu, found it missing",
					  (unsigned long long)id, (unsigned long long)e->id, (unsigned long long)e->tgt);
			}
			if (s.rpo_num[b] == NO_INDEX) {
				jv_report(v, RULE_DCFG_ROUTINE_REACH, nc[0],
					  "expected node %llu reachable from entry %llu over intra-routine edges, found no path",
					  (unsigned long long)id, (unsigned long long)p->blocks[entry].id);
				continue;
			}
			if (!jv_int(v, nc[1], 0, UINT64_MAX, "IDOM_NODE_ID", &idom))
				continue;
			uint64_t want = p->blocks[s.idom[b]].id;
			if (idom != want)
				jv_report(v, RULE_DCFG_IDOM, nc[1], "expected IDOM_NODE_ID of node %llu to be its immediate dominator %llu, found %llu",
					  (unsigned long long)id, (unsigned long long)want, (unsigned long long)idom);
		}
		if (cell[3] != JNONE)
			check_loops(v, p, image, &g, &s, r, cell[3]);
reset:
		for (uint32_t i = 0; i < count; i++)
			s.rpo_num[s.order[i]] = NO_INDEX;
	}
out:
	free_graph(&g);
	free(s.routine_of);
	free(s.rpo_num);
	free(s.idom);
	free(s.order);
	free(s.stack);
	free(s.iter);
	free(s.in_loop);
	free(s.leaving);
	free(s.exit_mark);
	free(s.dpre);
	free(s.dpost);
	free(s.kid_start);
	free(s.kids);
	free(s.listed);
	free(s.natural);
	free(s.owner);
}
