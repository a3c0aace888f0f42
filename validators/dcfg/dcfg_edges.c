/* The EDGES table of a process (seed 2.16) and the count rules that tie
 * edges to blocks and threads (2.8, 2.13). */
#include "id_put.h"
#include "dcfg_model.h"
#include "bigalloc.h"
#include "json_row_text.h"
#include "knob.h"
#include "radix_sort.h"

#include <stdlib.h>
#include <string.h>

static bool resolve_node(struct tl_json_check *v, const struct tl_dcfg_model *m, const struct tl_dcfg_process *p, uint32_t cell,
			 const char *what, uint64_t *id, uint32_t *blk)
{
	*blk = NO_INDEX;
	if (!tl_jv_int(v, cell, 0, UINT64_MAX, what, id))
		return false;
	if (is_special(m, *id))
		return true;
	*blk = tl_dcfg_idmap_get(&p->block_by_id, *id);
	if (*blk != IDMAP_NONE)
		return true;
	tl_jv_report(v, RULE_DCFG_EDGE_NODE, cell, MSG_DCFG_EDGE_NODE,
		  what, (unsigned long long)*id);
	return false;
}

/* What is wrong with edge e's use of the special nodes (NULL: nothing);
 * *at_target: the diagnostic points at the target's id, not the source's. */
static const char *special_use_problem(const struct tl_dcfg_model *m, const struct tl_dcfg_edge *e, bool *at_target)
{
	*at_target = false;
	if (e->cls == EC_ENTRY && e->src != m->start_id)
		return "an ENTRY edge to leave START";
	if (e->cls != EC_ENTRY && e->src == m->start_id && m->start_id)
		return "only ENTRY edges to leave START";
	*at_target = true;
	if (e->cls == EC_EXIT && e->tgt != m->end_id)
		return "an EXIT edge to enter END";
	if (e->cls != EC_EXIT && e->tgt == m->end_id && m->end_id)
		return "only EXIT edges to enter END";
	if (m->start_id && e->tgt == m->start_id)
		return "START never to be a target";
	*at_target = false;
	if (m->end_id && e->src == m->end_id)
		return "END never to be a source";
	return NULL;
}

static bool touches_unknown(const struct tl_dcfg_model *m, const struct tl_dcfg_edge *e)
{
	return m->unknown_id && (e->src == m->unknown_id || e->tgt == m->unknown_id);
}

/* Each clause names one end of the edge: the diagnostic points at that node id. */
static void check_special_use(struct tl_json_check *v, const struct tl_dcfg_model *m, const struct tl_dcfg_edge *e, const uint32_t *cell)
{
	bool at_target;
	const char *bad = special_use_problem(m, e, &at_target);
	if (bad)
		tl_jv_report(v, RULE_DCFG_SPECIAL_EDGE, at_target ? cell[EG_TARGET] : cell[EG_SOURCE],
			  MSG_DCFG_SPECIAL_EDGE,
			  bad, (unsigned long long)e->id, (unsigned long long)e->src, (unsigned long long)e->tgt);
	if (touches_unknown(m, e))
		tl_jv_report(v, RULE_DCFG_UNKNOWN_NODE, e->src == m->unknown_id ? cell[EG_SOURCE] : cell[EG_TARGET],
			  MSG_DCFG_UNKNOWN_NODE,
			  (unsigned long long)m->unknown_id, (unsigned long long)e->id);
}

static void read_counts(struct tl_json_check *v, uint32_t cell, struct tl_dcfg_process *p, uint32_t edge)
{
	if (!tl_jv_expect(v, cell, J_ARR, "COUNT_PER_THREAD"))
		return;
	uint32_t n = jn(&v->doc, cell)->count;
	if (p->threads_known && n != p->nthreads)
		tl_jv_report(v, RULE_DCFG_COUNT_PER_THREAD, cell,
			  MSG_DCFG_COUNT_PER_THREAD, p->nthreads, n);
	uint32_t t = 0;
	for (uint32_t c = jn(&v->doc, cell)->first; c != JNONE; c = jnext(v, c), t++) {
		uint64_t x;
		if (tl_jv_int(v, c, 0, UINT64_MAX, "edge count", &x) && t < p->nthreads && p->edge_counts)
			p->edge_counts[(size_t)edge * p->nthreads + t] = x;
	}
}

/* A node id of an edge read from text: a special node or a block of the
 * process, as resolve_node finds it, or false (the node path reports). */
static bool resolve_plain(const struct tl_dcfg_model *m, const struct tl_dcfg_process *p, uint64_t id, uint32_t *blk)
{
	*blk = NO_INDEX;
	if (is_special(m, id))
		return true;
	*blk = tl_dcfg_idmap_get(&p->block_by_id, id);
	return *blk != IDMAP_NONE;
}

/* The fast path of the EDGES table: a row written [EDGE_ID, SOURCE_NODE_ID,
 * TARGET_NODE_ID, EDGE_TYPE_ID, [COUNT_PER_THREAD...]] in header order with
 * plain integers, read from its text without a node a value, and added as
 * the node path adds it when no rule of the row objects: the checks below
 * are the node path's conditions for each of its reports, and the id goes
 * into the id map last, once nothing else can send the row back. Anything
 * else is left to the node path (false). tests/dcfg/fast_rows_test.sh compares the
 * two (TRACELINT_SLOW_ROWS=1 turns this path off). */
static bool edge_from_text(struct tl_json_check *v, const struct tl_dcfg_model *m, struct tl_dcfg_process *p, uint32_t r)
{
	struct tl_json_doc *d = &v->doc;
	struct tl_json_row_text t;
	uint64_t id, src, tgt, type;
	struct tl_dcfg_edge e = { 0 };
	if (!jrt_open(&t, d, r) || !jrt_uint(&t, 1, 0x7fffffffu, &id) || !jrt_byte(&t, ',') ||
	    !jrt_uint(&t, 0, UINT64_MAX, &src) || !jrt_byte(&t, ',') || !jrt_uint(&t, 0, UINT64_MAX, &tgt) ||
	    !jrt_byte(&t, ',') || !jrt_uint(&t, 0, UINT64_MAX, &type) || !jrt_byte(&t, ',') ||
	    !resolve_plain(m, p, src, &e.src_blk) || !resolve_plain(m, p, tgt, &e.tgt_blk))
		return false;
	uint32_t cls = tl_dcfg_idmap_get(&m->type_class, type);
	if (cls == IDMAP_NONE)
		return false;
	e.node = r;
	e.id = (uint32_t)id;
	e.src = (uint32_t)src; /* resolved ids fit (DCFG-ID-RANGE) */
	e.tgt = (uint32_t)tgt;
	e.type = (uint32_t)type;
	e.cls = (uint8_t)cls;
	e.usable = true;
	bool at_target;
	if (special_use_problem(m, &e, &at_target) || touches_unknown(m, &e) || !jrt_byte(&t, '['))
		return false;
	/* The counts go straight to their place, and are cleared if the row
	 * is sent back after all. */
	uint32_t k = p->nedges, n = 0;
	uint64_t *counts = p->edge_counts ? p->edge_counts + (size_t)k * p->nthreads : NULL;
	bool plain = true;
	if (!jrt_next_is(&t, ']')) {
		do {
			uint64_t x;
			if (!jrt_uint(&t, 0, UINT64_MAX, &x)) {
				plain = false;
				break;
			}
			if (n < p->nthreads && counts)
				counts[n] = x;
			n++;
		} while (jrt_next_is(&t, ','));
		plain = plain && jrt_byte(&t, ']');
	}
	if (!plain || (p->threads_known && n != p->nthreads) || !jrt_byte(&t, ']') ||
	    tl_dcfg_id_put(v, &p->edge_by_id, id, k) != IDMAP_NONE) {
		if (counts)
			memset(counts, 0, (size_t)p->nthreads * sizeof *counts);
		return false;
	}
	tl_json_row_text_end(d, t.p);
	p->edges[p->nedges++] = e;
	return true;
}

void tl_dcfg_read_edges(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_model *m, struct tl_dcfg_process *p)
{
	static const struct tl_json_column cols[] = {
		{ "EDGE_ID", true }, { "SOURCE_NODE_ID", true }, { "TARGET_NODE_ID", true },
		{ "EDGE_TYPE_ID", true }, { "COUNT_PER_THREAD", true },
	};
	struct tl_json_table t;
	uint32_t cell[5];
	if (!tl_dcfg_table_open(v, tbl, cols, 5, "EDGES", false, &t))
		return;
	memcpy(p->edge_pos, t.pos, sizeof p->edge_pos);
	uint32_t rows = jn(&v->doc, tbl)->count;
	if (rows > 1 && (!m->has_edge_types || !m->has_special_nodes))
		tl_jv_report(v, RULE_DCFG_TABLE_REQUIRED, tbl,
			  MSG_DCFG_TABLE_REQUIRED,
			  !m->has_edge_types ? "EDGE_TYPES" : "SPECIAL_NODES");
	p->edges = tl_big_calloc((size_t)rows + 1, sizeof *p->edges);
	if (p->nthreads)
		p->edge_counts = tl_big_calloc(((size_t)rows + 1) * p->nthreads, sizeof *p->edge_counts);
	if (!p->edges || (p->nthreads && !p->edge_counts)) {
		tl_jv_out_of_memory(v);
		return;
	}
	p->edges_complete = true;
	bool from_text = t.header_len == EG_COLS && t.pos[EG_EDGE_ID] == EG_EDGE_ID && t.pos[EG_SOURCE] == EG_SOURCE &&
			 t.pos[EG_TARGET] == EG_TARGET && t.pos[EG_TYPE] == EG_TYPE && t.pos[EG_COUNTS] == EG_COUNTS &&
			 !tl_knob("TRACELINT_SLOW_ROWS", 0, 2);
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		if (from_text && (r & JPIN) && edge_from_text(v, m, p, r))
			continue;
		struct tl_dcfg_edge e = { 0 };
		if (!tl_dcfg_table_row(v, &t, r, cell)) {
			p->edges_complete = false;
			continue;
		}
		e.node = r;
		uint64_t id;
		bool ok = tl_jv_int(v, cell[0], 0, UINT64_MAX, "EDGE_ID", &id);
		if (ok && (id < 1 || id > 0x7fffffffu)) {
			tl_jv_report(v, RULE_DCFG_ID_RANGE, cell[0], MSG_DCFG_ID_RANGE,
				  (unsigned long long)id);
			ok = false;
		}
		if (ok && !tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &p->edge_by_id, id, p->nedges, cell[0],
					     "EDGE_ID in the process"))
			ok = false;
		e.id = (uint32_t)id;
		uint64_t src = 0, tgt = 0;
		bool ends = resolve_node(v, m, p, cell[1], "SOURCE_NODE_ID", &src, &e.src_blk);
		ends &= resolve_node(v, m, p, cell[2], "TARGET_NODE_ID", &tgt, &e.tgt_blk);
		e.src = (uint32_t)src; /* resolved ids fit (DCFG-ID-RANGE); others are never read */
		e.tgt = (uint32_t)tgt;
		uint64_t type;
		bool type_ok = tl_jv_int(v, cell[3], 0, UINT64_MAX, "EDGE_TYPE_ID", &type);
		uint32_t cls = type_ok ? tl_dcfg_idmap_get(&m->type_class, type) : IDMAP_NONE;
		if (type_ok && cls == IDMAP_NONE && m->has_edge_types)
			tl_jv_report(v, RULE_DCFG_EDGE_TYPE_REF, cell[3], MSG_DCFG_EDGE_TYPE_REF,
				  (unsigned long long)type);
		e.type = cls == IDMAP_NONE ? 0 : (uint32_t)type; /* types of the table are ids: 32 bits */
		e.cls = cls == IDMAP_NONE ? EC_INTRA : (uint8_t)cls;
		e.usable = ends && cls != IDMAP_NONE;
		if (!e.usable || !ok)
			p->edges_complete = false;
		if (e.usable)
			check_special_use(v, m, &e, cell);
		if (!ok)
			continue;
		uint32_t k = p->nedges++;
		p->edges[k] = e;
		read_counts(v, cell[4], p, k);
	}
}

/* Node ids of resolved endpoints fit in 32 bits (ID rule), so (source,
 * target) is one 64-bit radix key. */
static uint64_t ends_key(const struct tl_dcfg_edge *e) { return (uint64_t)e->src << 32 | e->tgt; }

static void report_duplicate_edge(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t first, uint32_t second)
{
	const struct tl_dcfg_edge *a = &p->edges[first], *b = &p->edges[second];
	tl_jv_report(v, RULE_DCFG_EDGE_DUPLICATE, b->node,
		  MSG_DCFG_EDGE_DUPLICATE,
		  (unsigned long long)a->id, (unsigned long long)b->id, (unsigned long long)b->src,
		  (unsigned long long)b->tgt, (unsigned long long)b->type);
}

/* Reports the edges of `keys` (sorted by source then target node, edge
 * order kept among equals) that repeat an earlier edge's type; each run
 * of one (source, target) is short, so it is sorted by type in place. */
static void report_duplicates(struct tl_json_check *v, const struct tl_dcfg_process *p, struct tl_keyed *keys, uint32_t n)
{
	for (uint32_t run = 0; run < n;) {
		uint32_t end = run + 1;
		while (end < n && keys[end].key == keys[run].key)
			end++;
		/* insertion sort by (type, edge): stable, and runs are tiny */
		for (uint32_t i = run + 1; i < end; i++) {
			struct tl_keyed k = keys[i];
			uint64_t type = p->edges[k.val].type;
			uint32_t j = i;
			while (j > run && p->edges[keys[j - 1].val].type > type) {
				keys[j] = keys[j - 1];
				j--;
			}
			keys[j] = k;
		}
		for (uint32_t i = run + 1; i < end; i++)
			if (p->edges[keys[i - 1].val].type == p->edges[keys[i].val].type)
				report_duplicate_edge(v, p, keys[i - 1].val, keys[i].val);
		run = end;
	}
}

/* The (source, target) keys of the usable edges that more than one edge
 * shares, sorted, unique: *n of them, NULL when none (or no memory, with
 * *nomem set). Sorting the bare keys takes half the memory of sorting
 * (key, edge) pairs, and usually no key repeats. */
static uint64_t *shared_ends(const struct tl_dcfg_process *p, uint32_t *n, bool *nomem)
{
	*n = 0;
	uint64_t *keys = tl_big_malloc(((size_t)p->nedges + 1) * sizeof *keys);
	uint64_t *tmp = tl_big_malloc(((size_t)p->nedges + 1) * sizeof *tmp);
	if (!keys || !tmp) {
		free(keys);
		free(tmp);
		*nomem = true;
		return NULL;
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < p->nedges; i++)
		if (p->edges[i].usable)
			keys[k++] = ends_key(&p->edges[i]);
	uint64_t *sorted = tl_radix_sort_keys(keys, tmp, k), *shared = sorted == keys ? tmp : keys;
	for (uint32_t i = 1; i < k; i++)
		if (sorted[i] == sorted[i - 1] && (*n == 0 || shared[*n - 1] != sorted[i]))
			shared[(*n)++] = sorted[i];
	free(sorted);
	if (!*n) {
		free(shared);
		return NULL;
	}
	return shared;
}

static bool is_shared(const uint64_t *shared, uint32_t n, uint64_t key)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (shared[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && shared[lo] == key;
}

/* DCFG-EDGE-DUPLICATE: the edges whose (source, target) another edge
 * shares, as (key, edge) pairs sorted by key with edge order kept among
 * equals, then checked type by type. */
static void check_duplicate_edges(struct tl_json_check *v, const struct tl_dcfg_process *p)
{
	uint32_t nshared, n = 0;
	bool nomem = false;
	uint64_t *shared = shared_ends(p, &nshared, &nomem);
	struct tl_keyed *pairs = NULL, *tmp = NULL;
	if (shared) {
		uint32_t m = 0;
		for (uint32_t i = 0; i < p->nedges; i++)
			m += p->edges[i].usable && is_shared(shared, nshared, ends_key(&p->edges[i]));
		pairs = malloc(((size_t)m + 1) * sizeof *pairs);
		tmp = malloc(((size_t)m + 1) * sizeof *tmp);
		if (!pairs || !tmp)
			nomem = true;
		else
			for (uint32_t i = 0; i < p->nedges; i++)
				if (p->edges[i].usable && is_shared(shared, nshared, ends_key(&p->edges[i])))
					pairs[n++] = (struct tl_keyed){ ends_key(&p->edges[i]), i };
	}
	if (nomem)
		tl_jv_out_of_memory(v);
	else if (n)
		report_duplicates(v, p, tl_radix_sort(pairs, tmp, n), n);
	free(shared);
	free(pairs);
	free(tmp);
}

/* D38: edges a correct producer would not write, each only suspicious. */
static void check_edge_suspects(struct tl_json_check *v, const struct tl_dcfg_model *m, const struct tl_dcfg_process *p)
{
	uint32_t nt = p->nthreads;
	for (uint32_t i = 0; i < p->nedges; i++) {
		const struct tl_dcfg_edge *e = &p->edges[i];
		if (!e->usable)
			continue;
		uint32_t kind = tl_dcfg_idmap_get(&m->type_kind, e->type);
		if (kind == EK_REP && e->src != e->tgt)
			tl_jv_report_cell(v, RULE_DCFG_REP_EDGE, e->node, p->edge_pos[EG_TARGET],
				  MSG_DCFG_REP_EDGE,
				  (unsigned long long)e->id, (unsigned long long)e->src, (unsigned long long)e->tgt);
		if (kind == EK_BYPASS || !nt || !p->edge_counts)
			continue;
		uint32_t t = 0;
		while (t < nt && p->edge_counts[(size_t)i * nt + t] == 0)
			t++;
		if (t == nt)
			tl_jv_report_cell(v, RULE_DCFG_EDGE_ZERO_COUNT, e->node, p->edge_pos[EG_COUNTS],
				  MSG_DCFG_EDGE_ZERO_COUNT,
				  (unsigned long long)e->id, nt);
	}
	check_duplicate_edges(v, p);
}

/* D23: the instructions a thread executed, block by block, add up to its
 * INSTR_COUNT_PER_THREAD (a warning: excluded code may be counted there). */
static void check_thread_instrs(struct tl_json_check *v, const struct tl_dcfg_process *p, const uint64_t *in)
{
	uint32_t nt = p->nthreads, c = jn(&v->doc, p->threads_node)->first;
	for (uint32_t t = 0; t < nt; t++, c = c == JNONE ? JNONE : jnext(v, c)) {
		uint64_t sum = 0, x;
		bool exact = true;
		for (uint32_t b = 0; b < p->nblocks && exact; b++)
			exact = in[(size_t)b * nt + t] != UINT64_MAX &&
				tl_mul_u64(p->blocks[b].num_instrs, in[(size_t)b * nt + t], &x) && tl_add_u64(sum, x, &sum);
		if (exact && sum != p->instr_per_thread[t])
			tl_jv_report(v, RULE_DCFG_THREAD_INSTR_SUM, c != JNONE ? c : p->node,
				  MSG_DCFG_THREAD_INSTR_SUM,
				  t, (unsigned long long)sum, (unsigned long long)p->instr_per_thread[t]);
	}
}

/* Block COUNT against in-edges, per-thread flow through each block and
 * instruction totals (D21-D23), and the edge suspicions (D38). */
void tl_dcfg_check_counts(struct tl_json_check *v, const struct tl_dcfg_model *m, const struct tl_dcfg_process *p)
{
	uint32_t nt = p->nthreads;
	check_edge_suspects(v, m, p);
	if (!p->nblocks || !p->nedges || !nt || !p->edge_counts)
		return;
	size_t cells = (size_t)p->nblocks * nt;
	uint64_t *in = tl_big_calloc(cells, sizeof *in), *out = tl_big_calloc(cells, sizeof *out);
	bool *has_in = tl_big_calloc(p->nblocks, sizeof *has_in), *has_out = tl_big_calloc(p->nblocks, sizeof *has_out);
	if (!in || !out || !has_in || !has_out) {
		tl_jv_out_of_memory(v);
		goto done;
	}
	for (uint32_t i = 0; i < p->nedges; i++) {
		const struct tl_dcfg_edge *e = &p->edges[i];
		if (!e->usable)
			continue;
		for (uint32_t t = 0; t < nt; t++) {
			uint64_t c = p->edge_counts[(size_t)i * nt + t];
			if (e->tgt_blk != NO_INDEX) {
				uint64_t *s = &in[(size_t)e->tgt_blk * nt + t];
				*s = *s + c < *s ? UINT64_MAX : *s + c;
				has_in[e->tgt_blk] = true;
			}
			if (e->src_blk != NO_INDEX) {
				uint64_t *s = &out[(size_t)e->src_blk * nt + t];
				*s = *s + c < *s ? UINT64_MAX : *s + c;
				has_out[e->src_blk] = true;
			}
		}
	}
	for (uint32_t b = 0; b < p->nblocks; b++) {
		const struct tl_dcfg_block *blk = &p->blocks[b];
		uint64_t total = 0;
		for (uint32_t t = 0; t < nt; t++)
			total = total + in[(size_t)b * nt + t] < total ? UINT64_MAX : total + in[(size_t)b * nt + t];
		if (blk->has_count && has_in[b] && blk->count != total)
			tl_jv_report_cell(v, RULE_DCFG_BLOCK_COUNT, blk->node, p->images[blk->image].block_pos[BB_COUNT],
				  MSG_DCFG_BLOCK_COUNT,
				  (unsigned long long)blk->id, (unsigned long long)total, (unsigned long long)blk->count);
		if (!has_in[b] || !has_out[b])
			continue;
		for (uint32_t t = 0; t < nt; t++)
			if (in[(size_t)b * nt + t] != out[(size_t)b * nt + t]) {
				tl_jv_report(v, RULE_DCFG_FLOW, blk->node,
					  MSG_DCFG_FLOW,
					  (unsigned long long)blk->id, t, (unsigned long long)in[(size_t)b * nt + t],
					  (unsigned long long)out[(size_t)b * nt + t]);
				break;
			}
	}
	if (p->threads_known && p->instr_per_thread)
		check_thread_instrs(v, p, in);
done:
	free(in);
	free(out);
	free(has_in);
	free(has_out);
}
