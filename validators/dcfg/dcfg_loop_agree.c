/* DCFG-LOOP-PARENT and DCFG-LOOP-MISSING (seed 2.15): do the LOOPS rows of a routine agree with the
 * natural loops of its intra-routine graph? The seed only says loops come
 * from "a standard graph-traversal algorithm", and irreducible graphs have
 * no single answer, so every disagreement is a warning. Rows that already
 * failed DCFG-LOOP or DCFG-LOOP-PARENT are left out. */
#include "dcfg_graph.h"

#include <stdlib.h>

/* Pre/post numbers of the dominator tree of the routine, so that "a
 * dominates b" costs two comparisons. Iterative, like every walk here.
 * dpre, dpost, owner, listed and natural are indexed by reverse-postorder
 * number, not by block: routine-sized, and only reached blocks ever get
 * there (nodes of a loop that passed check_members are all reached). */
static void number_dom_tree(struct tl_dcfg_scratch *s)
{
	uint32_t count = s->count, clock = 0, top = 0;
	for (uint32_t i = 0; i <= count; i++)
		s->kid_start[i] = 0;
	for (uint32_t i = 1; i < count; i++)
		s->kid_start[s->rpo_num[s->idom[s->order[i]]] + 1]++;
	for (uint32_t i = 0; i < count; i++)
		s->kid_start[i + 1] += s->kid_start[i];
	for (uint32_t i = 0; i < count; i++)
		s->iter[i] = s->kid_start[i];
	for (uint32_t i = 1; i < count; i++)
		s->kids[s->iter[s->rpo_num[s->idom[s->order[i]]]]++] = s->order[i];
	s->stack[top] = s->order[0];
	s->iter[top++] = s->kid_start[0];
	s->dpre[0] = clock++;
	while (top) {
		uint32_t b = s->stack[top - 1];
		if (s->iter[top - 1] < s->kid_start[s->rpo_num[b] + 1]) {
			uint32_t k = s->kids[s->iter[top - 1]++];
			s->dpre[s->rpo_num[k]] = clock++;
			s->stack[top] = k;
			s->iter[top++] = s->kid_start[s->rpo_num[k]];
		} else {
			s->dpost[s->rpo_num[b]] = clock++;
			top--;
		}
	}
}

static bool reached(const struct tl_dcfg_scratch *s, uint32_t b, uint32_t r)
{
	return s->routine_of[b] == r && s->rpo_num[b] != NO_INDEX;
}

/* Both a and b reached in the current routine. */
static bool dominates(const struct tl_dcfg_scratch *s, uint32_t a, uint32_t b)
{
	uint32_t x = s->rpo_num[a], y = s->rpo_num[b];
	return s->dpre[x] <= s->dpre[y] && s->dpost[y] <= s->dpost[x];
}

/* A node-id cell of a row that already passed the structural checks. */
static uint32_t cell_block(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t cell)
{
	uint64_t id;
	if (!tl_jv_int(v, cell, 0, UINT64_MAX, "loop node id", &id))
		return NO_INDEX;
	uint32_t b = tl_dcfg_idmap_get(&p->block_by_id, id);
	return b == IDMAP_NONE ? NO_INDEX : b;
}

static unsigned long long bid(const struct tl_dcfg_process *p, uint32_t b) { return (unsigned long long)p->blocks[b].id; }

/* LOOP_NODE_IDS against the natural loop of the listed back edges. */
static void check_members(struct tl_json_check *v, const struct tl_dcfg_process *p, const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t r,
			  struct tl_dcfg_loopinfo *li)
{
	uint32_t stamp = ++s->stamp, h = li->head;
	for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
		uint32_t b = cell_block(v, p, c);
		if (b == NO_INDEX || !reached(s, b, r)) {
			li->sound = false; /* unreachable nodes are DCFG-ROUTINE-REACH errors already */
			return;
		}
		s->listed[s->rpo_num[b]] = stamp;
	}
	for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
		uint32_t b = cell_block(v, p, c);
		if (!dominates(s, h, b)) {
			tl_jv_report(v, RULE_DCFG_NATURAL_LOOP, c,
				  MSG_DCFG_NATURAL_LOOP,
				  bid(p, h), bid(p, b));
			return;
		}
	}
	/* Natural loop: the head, plus what reaches a back-edge source backwards without crossing the head. */
	uint32_t top = 0, n = 1;
	s->natural[s->rpo_num[h]] = stamp;
	for (uint32_t c = jn(&v->doc, li->sources_cell)->first; c != JNONE; c = jnext(v, c)) {
		uint32_t t = cell_block(v, p, c);
		if (t != NO_INDEX && s->natural[s->rpo_num[t]] != stamp) {
			s->natural[s->rpo_num[t]] = stamp;
			s->stack[top++] = t;
			n++;
		}
	}
	while (top) {
		uint32_t x = s->stack[--top];
		for (uint32_t k = g->pred_start[x]; k < g->pred_start[x + 1]; k++) {
			uint32_t q = g->pred[k];
			if (!reached(s, q, r) || s->natural[s->rpo_num[q]] == stamp)
				continue;
			if (s->listed[s->rpo_num[q]] != stamp) {
				tl_jv_report(v, RULE_DCFG_NATURAL_LOOP, li->nodes_cell,
					  MSG_DCFG_NATURAL_LOOP_2,
					  bid(p, h), bid(p, q), bid(p, x));
				return;
			}
			s->natural[s->rpo_num[q]] = stamp;
			s->stack[top++] = q;
			n++;
		}
	}
	if (n == li->size)
		return;
	for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
		uint32_t b = cell_block(v, p, c);
		if (s->natural[s->rpo_num[b]] != stamp) {
			tl_jv_report(v, RULE_DCFG_NATURAL_LOOP, c,
				  MSG_DCFG_NATURAL_LOOP_3,
				  bid(p, h), bid(p, b));
			return;
		}
	}
}

struct by_size {
	uint32_t size, loop;
};

static int cmp_larger_first(const void *a, const void *b)
{
	const struct by_size *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->loop < y->loop ? -1 : x->loop > y->loop;
}

/* PARENT_LOOP_HEAD_NODE_ID names the innermost enclosing loop: marking
 * nodes from the largest loop to the smallest leaves on each head the
 * smallest other loop containing it. Nodes of sound loops are reached
 * (check_members), so owner is indexed by reverse-postorder number. */
static void check_parents(struct tl_json_check *v, const struct tl_dcfg_process *p, struct tl_dcfg_scratch *s, struct tl_dcfg_loopinfo *loops, uint32_t nloops)
{
	struct by_size *order = malloc(((size_t)nloops + 1) * sizeof *order);
	uint32_t n = 0;
	if (!order) {
		tl_jv_out_of_memory(v);
		return;
	}
	for (uint32_t i = 0; i < nloops; i++)
		if (loops[i].sound) {
			order[n++] = (struct by_size){ loops[i].size, i };
			for (uint32_t c = jn(&v->doc, loops[i].nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
				uint32_t b = cell_block(v, p, c);
				if (b != NO_INDEX)
					s->owner[s->rpo_num[b]] = NO_INDEX;
			}
		}
	qsort(order, n, sizeof *order, cmp_larger_first);
	for (uint32_t k = 0; k < n; k++) {
		struct tl_dcfg_loopinfo *li = &loops[order[k].loop];
		uint32_t inner = s->owner[s->rpo_num[li->head]];
		uint64_t want = inner == NO_INDEX ? 0 : p->blocks[loops[inner].head].id;
		uint64_t found = li->parent_cell == JNONE ? 0 : li->parent;
		bool declared_sound = true;
		for (uint32_t i = 0; i < nloops && found; i++)
			if (p->blocks[loops[i].head].id == found)
				declared_sound = loops[i].sound;
		if (want != found && declared_sound)
			tl_jv_report(v, RULE_DCFG_NATURAL_LOOP, li->parent_cell == JNONE ? li->row : li->parent_cell,
				  MSG_DCFG_NATURAL_LOOP_4,
				  bid(p, li->head), (unsigned long long)want, (unsigned long long)found);
		for (uint32_t c = jn(&v->doc, li->nodes_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint32_t b = cell_block(v, p, c);
			if (b != NO_INDEX)
				s->owner[s->rpo_num[b]] = order[k].loop;
		}
	}
	free(order);
}

/* Every back edge t -> h (h dominates t) is a listed back-edge source of h's row. */
static void check_missing(struct tl_json_check *v, const struct tl_dcfg_process *p, const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s, uint32_t r,
			  const struct tl_dcfg_loopinfo *loops, uint32_t nloops, uint32_t tbl)
{
	uint32_t heads = ++s->stamp;
	for (uint32_t i = 0; i < nloops; i++)
		if (reached(s, loops[i].head, r))
			s->natural[s->rpo_num[loops[i].head]] = heads;
	for (uint32_t i = 0; i < nloops; i++) {
		uint32_t stamp = ++s->stamp, h = loops[i].head;
		if (!loops[i].sound || !reached(s, h, r))
			continue;
		for (uint32_t c = jn(&v->doc, loops[i].sources_cell)->first; c != JNONE; c = jnext(v, c)) {
			uint32_t t = cell_block(v, p, c);
			if (t != NO_INDEX)
				s->listed[s->rpo_num[t]] = stamp;
		}
		for (uint32_t k = g->pred_start[h]; k < g->pred_start[h + 1]; k++) {
			uint32_t t = g->pred[k];
			if (reached(s, t, r) && dominates(s, h, t) && s->listed[s->rpo_num[t]] != stamp) {
				tl_jv_report(v, RULE_DCFG_LOOP_MISSING, loops[i].sources_cell,
					  MSG_DCFG_LOOP_MISSING,
					  bid(p, h), bid(p, t));
				s->listed[s->rpo_num[t]] = stamp; /* once per source */
			}
		}
	}
	for (uint32_t i = 0; i < s->count; i++) {
		uint32_t b = s->order[i];
		for (uint32_t k = g->succ_start[b]; k < g->succ_start[b + 1]; k++) {
			uint32_t h = g->succ[k];
			if (reached(s, h, r) && dominates(s, h, b) && s->natural[s->rpo_num[h]] != heads) {
				tl_jv_report(v, RULE_DCFG_LOOP_MISSING, tbl,
					  MSG_DCFG_LOOP_MISSING_2,
					  bid(p, h), bid(p, b));
				s->natural[s->rpo_num[h]] = heads; /* once per head */
			}
		}
	}
}

void tl_dcfg_check_natural_loops(struct tl_json_check *v, const struct tl_dcfg_process *p, const struct tl_dcfg_graph *g, struct tl_dcfg_scratch *s,
			 uint32_t r, struct tl_dcfg_loopinfo *loops, uint32_t nloops, uint32_t tbl)
{
	if (!s->count)
		return;
	number_dom_tree(s);
	for (uint32_t i = 0; i < nloops; i++)
		if (loops[i].sound)
			check_members(v, p, g, s, r, &loops[i]);
	check_parents(v, p, s, loops, nloops);
	check_missing(v, p, g, s, r, loops, nloops, tbl);
}
