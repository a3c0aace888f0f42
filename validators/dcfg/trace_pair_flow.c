/* Whole-thread pairing rules (seed 2.5, 2.16, 3.7). */
#include "trace_pair_flow.h"

#include <stdlib.h>

bool tl_dcfg_pair_flow_table(const struct tl_dcfg_process *p, struct tl_dcfg_ttable *tt)
{
	tt->pair_resolved = false;
	if (!p || !tt->nnext)
		return true;
	tt->next_index = malloc((size_t)tt->nnext * sizeof *tt->next_index);
	tt->next_cls = malloc((size_t)tt->nnext * sizeof *tt->next_cls);
	if (!tt->next_index || !tt->next_cls) {
		free(tt->next_index);
		free(tt->next_cls);
		tt->next_index = NULL;
		tt->next_cls = NULL;
		return false;
	}
	bool all = true;
	for (uint32_t i = 0; i < tt->nnext; i++) {
		uint32_t e = tl_dcfg_idmap_get(&p->edge_by_id, tt->next_ids[i]);
		tt->next_index[i] = e == IDMAP_NONE ? NO_INDEX : e;
		tt->next_cls[i] = e == IDMAP_NONE ? EC_INTRA : p->edges[e].cls;
		all &= e != IDMAP_NONE;
	}
	/* Counts mean something only when every transition follows the DCFG's graph. */
	for (uint32_t i = 0; i < tt->n && all; i++) {
		const struct tl_dcfg_tcode *c = &tt->codes[i];
		uint32_t e = tl_dcfg_idmap_get(&p->edge_by_id, c->edge);
		for (uint32_t k = 0; e != IDMAP_NONE && k < c->next_n; k++) {
			uint32_t nx = tt->next_index[c->next_off + k];
			all &= p->edges[e].tgt == p->edges[nx].src;
			e = nx;
		}
		all &= e != IDMAP_NONE;
	}
	tt->pair_resolved = all;
	return true;
}

bool tl_dcfg_pair_flow_begin(struct tl_dcfg_pair_flow *f, const struct tl_dcfg_process *p, const struct tl_dcfg_ttable *tt, uint64_t tid)
{
	*f = (struct tl_dcfg_pair_flow){ 0 };
	f->exit_row = JNONE;
	f->contiguous = true;
	if (!p || tid >= p->nthreads || !p->edge_counts)
		return true;
	if (!tl_dcfg_tally_init(&f->tally, p->nedges)) {
		tl_dcfg_tally_free(&f->tally);
		return false;
	}
	f->p = p;
	f->tid = tid;
	f->resolved = tt->pair_resolved || tt->n == 0;
	return true;
}

void tl_dcfg_pair_flow_seen(struct tl_dcfg_pair_flow *f)
{
	if (f->p)
		f->seen++;
}

void tl_dcfg_pair_flow_prepare(struct tl_dcfg_pair_flow *f, struct tl_dcfg_chunk *c, const struct tl_dcfg_edge *fe)
{
	if (!f->p) {
		c->tally = NULL; /* the chunk may have served a thread with a tally */
		return;
	}
	c->tally = &f->tally;
	c->first_index = fe ? (uint32_t)(fe - f->p->edges) : NO_INDEX;
	c->first_cls = fe ? fe->cls : EC_INTRA;
	if (c->edge_count && !fe)
		f->resolved = false;
}

void tl_dcfg_pair_flow_done(struct tl_json_check *v, struct tl_dcfg_pair_flow *f, const struct tl_dcfg_chunk *c, uint32_t row, uint32_t first_cell,
			    uint64_t pre, uint64_t instr)
{
	if (!f->p || !c->ok || !c->counts_known)
		return;
	f->decoded++;
	uint64_t end;
	f->contiguous &= (f->decoded == 1 ? pre == 0 : pre == f->end) && tl_add_u64(pre, instr, &end);
	f->end = f->contiguous ? end : 0;
	if (!c->edge_count)
		return;
	if (f->exit_row != JNONE)
		tl_jv_report(v, RULE_PAIR_ENTRY_EXIT, row,
			  MSG_PAIR_ENTRY_EXIT,
			  (unsigned long long)f->tid, (unsigned long long)c->edge_count);
	bool first_entry = c->first_cls == EC_ENTRY, last_exit = c->last_cls == EC_EXIT;
	if (first_entry && pre != 0)
		tl_jv_report(v, RULE_PAIR_ENTRY_EXIT, first_cell,
			  MSG_PAIR_ENTRY_EXIT_2,
			  (unsigned long long)c->first_edge, (unsigned long long)pre);
	uint64_t entries = c->entries - (first_entry ? 1 : 0), exits = c->exits - (last_exit && c->exits ? 1 : 0);
	if (entries)
		tl_jv_report(v, RULE_PAIR_ENTRY_EXIT, c->node, MSG_PAIR_ENTRY_EXIT_3,
			  (unsigned long long)entries);
	if (exits)
		tl_jv_report(v, RULE_PAIR_ENTRY_EXIT, c->node, MSG_PAIR_ENTRY_EXIT_4,
			  (unsigned long long)exits);
	if (last_exit)
		f->exit_row = row;
}

void tl_dcfg_pair_flow_end(struct tl_json_check *v, struct tl_dcfg_pair_flow *f, uint32_t node)
{
	if (!f->p)
		return;
	const struct tl_dcfg_process *p = f->p;
	uint32_t nt = p->nthreads;
	/* A table off the DCFG's graph (PAIR-EDGE, PAIR-CONNECT) decodes paths the DCFG never
	 * counted: those errors say it already. */
	if (!f->tally.broken && f->resolved) {
		/* The whole thread is here when its chunks run from 0 to its instruction count. */
		bool complete = f->seen && f->decoded == f->seen && f->contiguous &&
				f->end == p->instr_per_thread[f->tid];
		for (uint32_t i = 0; i < p->nedges; i++) {
			uint64_t found = f->tally.count[i], want = p->edge_counts[(size_t)i * nt + f->tid];
			if (found > want)
				tl_jv_report(v, RULE_PAIR_EDGE_COUNT, node,
					  MSG_PAIR_EDGE_COUNT,
					  (unsigned long long)p->edges[i].id, (unsigned long long)want, (unsigned long long)f->tid,
					  (unsigned long long)found);
			else if (complete && found < want)
				tl_jv_report(v, RULE_PAIR_EDGE_COUNT_SHORT, node,
					  MSG_PAIR_EDGE_COUNT_SHORT,
					  (unsigned long long)p->edges[i].id, (unsigned long long)want, (unsigned long long)f->tid,
					  (unsigned long long)found);
		}
	}
	tl_dcfg_tally_free(&f->tally);
}
