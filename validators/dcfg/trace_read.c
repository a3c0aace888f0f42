/* DCFG-trace (seed section 3): ordering, processes, dictionaries,
 * transition tables, thread data and chunks, and with --pair the checks
 * against the DCFG the trace was recorded with. */
#include "id_put.h"
#include "json_row_text.h"
#include "knob.h"
#include "trace_read.h"
#include "trace_pair_flow.h"

#include <stdlib.h>
#include <string.h>

#define EDGE_ID_MAX 0x7fffffffull

struct tctx {
	struct tl_json_check *v;
	const struct tl_dcfg_model *m;   /* NULL without --pair */
	const struct tl_dcfg_process *p;     /* the paired process, or NULL */
	struct tl_dcfg_trace_summary *sum;
};

static const struct tl_dcfg_edge *pair_edge(const struct tctx *x, uint64_t id)
{
	if (!x->p)
		return NULL;
	uint32_t i = tl_dcfg_idmap_get(&x->p->edge_by_id, id);
	return i == IDMAP_NONE ? NULL : &x->p->edges[i];
}

static uint64_t source_instrs(const struct tctx *x, const struct tl_dcfg_edge *e)
{
	return e && e->src_blk != NO_INDEX ? x->p->blocks[e->src_blk].num_instrs : 0;
}

/* With --pair: the edge exists in the paired process. */
static const struct tl_dcfg_edge *need_edge(const struct tctx *x, uint32_t cell, uint64_t id, const char *what)
{
	if (!x->p)
		return NULL;
	const struct tl_dcfg_edge *e = pair_edge(x, id);
	if (!e)
		tl_jv_report(x->v, RULE_PAIR_EDGE, cell, MSG_PAIR_EDGE,
			  what, (unsigned long long)id, (unsigned long long)x->p->pid);
	return e;
}

static void connect(const struct tctx *x, uint32_t cell, const struct tl_dcfg_edge *a, const struct tl_dcfg_edge *b, const char *where)
{
	if (a && b && a->tgt != b->src)
		tl_jv_report(x->v, RULE_PAIR_CONNECT, cell,
			  MSG_PAIR_CONNECT,
			  (unsigned long long)b->id, (unsigned long long)a->id, (unsigned long long)a->tgt, where,
			  (unsigned long long)b->src);
}

/* NEXT_EDGE_IDS values: a buffer grown only (a realloc a row was 4% of a
 * table's time). */
struct next_ids {
	uint64_t *ids;
	uint32_t cap;
};

static bool room_for(struct next_ids *b, uint32_t n)
{
	if (n <= b->cap)
		return true;
	uint32_t cap = n < 2 * b->cap ? 2 * b->cap : n;
	uint64_t *nb = realloc(b->ids, (size_t)cap * sizeof *nb);
	if (!nb)
		return false;
	b->ids = nb;
	b->cap = cap;
	return true;
}

enum row_read { ROW_TAKEN, ROW_USE_NODES, ROW_NO_MEMORY };

/* The fast path of a transition table without --pair: a row written
 * [CURRENT_EDGE_ID, "code", [NEXT_EDGE_IDS...]] in header order, with plain
 * integers in range and a code of '0'/'1', read from its text without a
 * node a value. Such a row breaks no rule of the row; it is added as the
 * node path would add it. Anything else is left to the node path.
 * tests/dcfg/fast_rows_test.sh compares the two over the corpus and
 * generated traces (TRACELINT_SLOW_ROWS=1 turns this path off). */
static enum row_read transition_from_text(struct tl_json_check *v, uint32_t r, struct tl_dcfg_ttable *tt, struct next_ids *next)
{
	struct tl_json_doc *d = &v->doc;
	struct tl_json_row_text t;
	uint64_t cur;
	uint32_t bits, nn = 0;
	uint8_t len;
	if (!jrt_open(&t, d, r) || !jrt_uint(&t, 1, EDGE_ID_MAX, &cur) || !jrt_byte(&t, ',') ||
	    !jrt_bits(&t, &bits, &len) || !jrt_byte(&t, ',') || !jrt_byte(&t, '['))
		return ROW_USE_NODES;
	do {
		if (!room_for(next, nn + 1))
			return ROW_NO_MEMORY;
		if (!jrt_uint(&t, 1, EDGE_ID_MAX, &next->ids[nn++]))
			return ROW_USE_NODES;
	} while (jrt_next_is(&t, ','));
	if (!jrt_byte(&t, ']') || !jrt_byte(&t, ']'))
		return ROW_USE_NODES;
	tl_json_row_text_end(d, t.p);
	return tl_dcfg_ttable_add(tt, cur, bits, len, next->ids, nn, r) ? ROW_TAKEN : ROW_NO_MEMORY;
}

static void read_transitions(struct tctx *x, uint32_t tbl, struct tl_dcfg_ttable *tt)
{
	static const struct tl_json_column cols[] = {
		{ "CURRENT_EDGE_ID", true }, { "TRANSITION_CODE", true }, { "NEXT_EDGE_IDS", true },
	};
	struct tl_json_check *v = x->v;
	struct tl_json_table t;
	uint32_t cell[3];
	struct next_ids buf = { NULL, 0 };
	if (!tl_dcfg_table_open(v, tbl, cols, 3, "TRANSITION_TABLE", true, &t))
		return;
	tt->code_pos = t.pos[1];
	/* Pairing reports on the cells of every row: the node path. */
	bool from_text = !x->p && t.header_len == 3 && t.pos[0] == 0 && t.pos[1] == 1 && t.pos[2] == 2 &&
			 !tl_knob("TRACELINT_SLOW_ROWS", 0, 2);
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		if (from_text && (r & JPIN)) {
			enum row_read got = transition_from_text(v, r, tt, &buf);
			if (got == ROW_NO_MEMORY) {
				tl_jv_out_of_memory(v);
				break;
			}
			if (got == ROW_TAKEN)
				continue;
		}
		uint64_t cur;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		bool ok = tl_jv_int(v, cell[0], 1, EDGE_ID_MAX, "CURRENT_EDGE_ID", &cur);
		uint32_t bits = 0;
		uint8_t len = 0;
		if (tl_jv_expect(v, cell[1], J_STR, "TRANSITION_CODE")) {
			const uint8_t *s = jstr(&v->doc, cell[1]);
			uint32_t n = jn(&v->doc, cell[1])->count;
			bool good = n <= 32;
			for (uint32_t i = 0; i < n && good; i++) {
				good = s[i] == '0' || s[i] == '1';
				bits = (bits << 1) | (uint32_t)(s[i] == '1');
			}
			if (!good) {
				char q[80];
				tl_jv_report(v, RULE_DTRACE_CODE, cell[1], MSG_DTRACE_CODE,
					  tl_quote(q, sizeof q, s, n));
				ok = false;
			}
			len = (uint8_t)n;
		} else
			ok = false;
		if (!tl_jv_expect(v, cell[2], J_ARR, "NEXT_EDGE_IDS"))
			continue;
		uint32_t nn = jn(&v->doc, cell[2])->count;
		if (nn == 0) {
			tl_jv_report(v, RULE_DTRACE_NEXT_IDS, cell[2], MSG_DTRACE_NEXT_IDS);
			continue;
		}
		if (!room_for(&buf, nn)) {
			tl_jv_out_of_memory(v);
			break;
		}
		uint64_t *next = buf.ids;
		uint32_t k = 0;
		const struct tl_dcfg_edge *prev = ok ? need_edge(x, cell[0], cur, "CURRENT_EDGE_ID") : NULL;
		for (uint32_t c = jn(&v->doc, cell[2])->first; c != JNONE; c = jnext(v, c), k++) {
			if (!tl_jv_int(v, c, 1, EDGE_ID_MAX, "a NEXT_EDGE_IDS entry", &next[k])) {
				ok = false;
				continue;
			}
			const struct tl_dcfg_edge *e = need_edge(x, c, next[k], "NEXT_EDGE_IDS entry");
			connect(x, c, prev, e, k ? "(the previous entry of NEXT_EDGE_IDS)" : "(the CURRENT_EDGE_ID)");
			prev = e;
		}
		if (ok && !tl_dcfg_ttable_add(tt, cur, bits, len, next, nn, r)) {
			tl_jv_out_of_memory(v);
			break;
		}
	}
	free(buf.ids);
	tl_dcfg_ttable_finish(v, tt);
	if (x->p && tt->nnext) {
		tt->next_instr = calloc(tt->nnext, sizeof *tt->next_instr);
		if (!tt->next_instr)
			tl_jv_out_of_memory(v);
		for (uint32_t i = 0; tt->next_instr && i < tt->nnext; i++)
			tt->next_instr[i] = source_instrs(x, pair_edge(x, tt->next_ids[i]));
	}
	if (!tl_dcfg_pair_flow_table(x->p, tt)) /* hook: P8, P9 */
		tl_jv_out_of_memory(v);
}

struct thread_state {
	uint64_t end;             /* PRECEDING + INSTR of the previous chunk */
	bool have_prev;
	const struct tl_dcfg_edge *last; /* last decoded edge of the previous chunk (pairing) */
	struct tl_dcfg_pair_flow *flow;   /* hook: P8, P9 */
};

static void read_chunk(struct tctx *x, const uint32_t *cell, uint32_t row, uint64_t thread, const struct tl_dcfg_ttable *tt,
		       const struct tl_dcfg_dict *d, struct thread_state *ts)
{
	struct tl_json_check *v = x->v;
	uint64_t pre, instr, count, first = 0;
	tl_dcfg_pair_flow_seen(ts->flow); /* hook: P8, P9 */
	bool ok = tl_jv_int(v, cell[0], 0, UINT64_MAX, "PRECEDING_INSTR_COUNT", &pre);
	ok &= tl_jv_int(v, cell[1], 0, UINT64_MAX, "INSTR_COUNT", &instr);
	ok &= tl_jv_int(v, cell[2], 0, UINT64_MAX, "EDGE_COUNT", &count);
	if (!ok)
		return;
	x->sum->chunks++;
	x->sum->edges += count;
	if (count && !tl_jv_int(v, cell[3], 1, EDGE_ID_MAX, "FIRST_EDGE_ID", &first))
		return;
	if (ts->have_prev && pre < ts->end)
		tl_jv_report(v, RULE_DTRACE_CHUNK_ORDER, cell[0],
			  MSG_DTRACE_CHUNK_ORDER,
			  (unsigned long long)ts->end, (unsigned long long)pre);
	uint64_t end;
	bool end_ok = tl_add_u64(pre, instr, &end);
	if (x->p && thread < x->p->nthreads && (!end_ok || end > x->p->instr_per_thread[thread]))
		tl_jv_report(v, RULE_PAIR_THREAD_INSTR, cell[1],
			  MSG_PAIR_THREAD_INSTR,
			  (unsigned long long)thread, (unsigned long long)x->p->instr_per_thread[thread],
			  (unsigned long long)pre, (unsigned long long)instr);
	bool contiguous = ts->have_prev && end_ok && pre == ts->end;
	ts->have_prev = end_ok;
	ts->end = end;
	const struct tl_dcfg_edge *fe = count ? need_edge(x, cell[3], first, "FIRST_EDGE_ID") : NULL;
	if (contiguous && fe)
		connect(x, cell[3], ts->last, fe, "(the last edge of the previous, contiguous chunk)");
	ts->last = NULL;
	if (!tl_jv_expect(v, cell[4], J_STR, "EDGE_ID_SEQUENCE"))
		return;
	struct tl_dcfg_seq s;
	if (!tl_dcfg_seq_parse(v, cell[4], d, &s))
		return;
	tl_dcfg_seq_bits(&s, d);
	struct tl_dcfg_chunk c = { 0 };
	c.node = cell[4];
	c.edge_count = count;
	c.first_edge = first;
	c.first_instr = source_instrs(x, fe);
	tl_dcfg_pair_flow_prepare(ts->flow, &c, fe); /* hook: P8, P9 */
	tl_dcfg_decode_chunk(v, &s, tt, d, &c);
	tl_dcfg_seq_free(&s);
	tl_dcfg_pair_flow_done(v, ts->flow, &c, row, cell[3], pre, instr); /* hook: P8, P9 */
	if (!c.ok)
		return;
	if (x->p && c.instr_known && c.instr != instr && (!count || fe))
		tl_jv_report(v, RULE_PAIR_INSTR_COUNT, cell[1],
			  MSG_PAIR_INSTR_COUNT,
			  (unsigned long long)count, (unsigned long long)c.instr, (unsigned long long)instr);
	if (count)
		ts->last = pair_edge(x, c.last_edge);
}

static void read_threads(struct tctx *x, uint32_t tbl, const struct tl_dcfg_ttable *tt, const struct tl_dcfg_dict *d)
{
	static const struct tl_json_column cols[] = { { "THREAD_ID", true }, { "TRACE_DATA", true } };
	static const struct tl_json_column chunk_cols[] = {
		{ "PRECEDING_INSTR_COUNT", true }, { "INSTR_COUNT", true }, { "EDGE_COUNT", true },
		{ "FIRST_EDGE_ID", true }, { "EDGE_ID_SEQUENCE", true },
	};
	struct tl_json_check *v = x->v;
	struct tl_json_table t;
	uint32_t cell[2];
	struct tl_dcfg_idmap seen = { 0 };
	if (!tl_dcfg_table_open(v, tbl, cols, 2, "THREAD_DATA", true, &t))
		return;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t tid;
		if (!tl_dcfg_table_row(v, &t, r, cell) || !tl_jv_int(v, cell[0], 0, UINT64_MAX, "THREAD_ID", &tid))
			continue;
		if (!tl_dcfg_id_unique(v, RULE_DTRACE_ID_DUPLICATE, &seen, tid, r, cell[0], "THREAD_ID in the process"))
			continue;
		if (x->p && tid >= x->p->nthreads)
			tl_jv_report(v, RULE_PAIR_THREAD, cell[0],
				  MSG_PAIR_THREAD,
				  x->p->nthreads, (unsigned long long)x->p->pid, (unsigned long long)tid);
		struct tl_json_table ct;
		uint32_t cc[5];
		if (!tl_dcfg_table_open(v, cell[1], chunk_cols, 5, "TRACE_DATA", true, &ct))
			continue;
		x->sum->threads++;
		struct thread_state ts = { 0 };
		struct tl_dcfg_pair_flow flow; /* hook: P8, P9 */
		if (!tl_dcfg_pair_flow_begin(&flow, x->p, tt, tid))
			tl_jv_out_of_memory(v);
		ts.flow = &flow;
		for (uint32_t cr = table_first_row(v, &ct); cr != JNONE; cr = jnext(v, cr))
			if (tl_dcfg_table_row(v, &ct, cr, cc))
				read_chunk(x, cc, cr, tid, tt, d, &ts);
		tl_dcfg_pair_flow_end(v, &flow, cell[0]);
	}
	tl_dcfg_idmap_free(&seen);
}

static void read_processes(struct tctx *x, uint32_t tbl)
{
	static const struct tl_json_column cols[] = {
		{ "PROCESS_ID", true }, { "STRING_DICTIONARY", true }, { "TRANSITION_TABLE", true }, { "THREAD_DATA", true },
	};
	struct tl_json_check *v = x->v;
	struct tl_json_table t;
	uint32_t cell[4];
	struct tl_dcfg_idmap seen = { 0 };
	if (!tl_dcfg_table_open(v, tbl, cols, 4, "PROCESSES", true, &t))
		return;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t pid;
		if (!tl_dcfg_table_row(v, &t, r, cell) || !tl_jv_int(v, cell[0], 0, UINT32_MAX, "PROCESS_ID", &pid))
			continue;
		if (!tl_dcfg_id_unique(v, RULE_DTRACE_ID_DUPLICATE, &seen, pid, r, cell[0], "PROCESS_ID in the trace"))
			continue;
		x->sum->processes++;
		x->p = NULL;
		if (x->m) {
			uint32_t i = tl_dcfg_idmap_get(&x->m->proc_by_pid, pid);
			if (i == IDMAP_NONE)
				tl_jv_report(v, RULE_PAIR_PROCESS, cell[0], MSG_PAIR_PROCESS,
					  (unsigned long long)pid);
			else
				x->p = &x->m->procs[i];
		}
		struct tl_dcfg_dict d;
		struct tl_dcfg_ttable tt = { 0 };
		tl_dcfg_dict_read(v, cell[1], &d);
		read_transitions(x, cell[2], &tt);
		read_threads(x, cell[3], &tt, &d);
		tl_dcfg_ttable_free(&tt);
		tl_dcfg_dict_free(&d);
	}
	tl_dcfg_idmap_free(&seen);
}

static const char *const top_keys[] = { "MAJOR_VERSION", "MINOR_VERSION", "PROCESSES" };

static void check_top_order(struct tl_json_check *v)
{
	const char *const *keys = top_keys;
	int last = -1;
	bool seen[3] = { false, false, false };
	for (uint32_t k = jn(&v->doc, 0)->first; k != JNONE;) {
		int i;
		for (i = 0; i < 3 && !tl_json_str_eq(&v->doc, k, keys[i]); i++)
			;
		if (i == 3) {
			char q[80];
			tl_jv_report(v, RULE_JSON_UNKNOWN_KEY, k, MSG_JSON_UNKNOWN_KEY,
				  tl_quote(q, sizeof q, jstr(&v->doc, k), jn(&v->doc, k)->count));
		} else {
			if (i < last)
				tl_jv_report(v, RULE_DTRACE_TOP_ORDER, k, MSG_DTRACE_TOP_ORDER,
					  keys[i], keys[last]);
			if (i > last)
				last = i;
			seen[i] = true;
		}
		uint32_t val = jnext(v, k);
		k = val == JNONE ? JNONE : jnext(v, val);
	}
	if (!seen[2])
		tl_jv_report(v, RULE_DTRACE_TOP_ORDER, 0, MSG_DTRACE_TOP_ORDER_2);
}

void tl_dcfg_trace_read(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_dcfg_model *m,
			struct tl_dcfg_trace_summary *sum)
{
	memset(sum, 0, sizeof *sum);
	/* Transition rows are reported on after their table (duplicates,
	 * prefixes, decoding), so they are pinned; a chunk is checked while it
	 * is the current row and then forgotten, so memory does not grow with
	 * the trace. */
	static const struct tl_json_lazy_key lazy[] = { { "TRANSITION_TABLE", true }, { "TRACE_DATA", false } };
	if (!tl_jv_parse_known(v, data, size, lazy, sizeof lazy / sizeof lazy[0], top_keys, 3) || !tl_dcfg_check_top(v, RULE_DTRACE_TOP_ORDER, RULE_DTRACE_VERSION))
		return;
	check_top_order(v);
	struct tctx x = { v, m, NULL, sum };
	uint32_t procs = tl_json_obj_get(&v->doc, 0, "PROCESSES");
	if (procs != JNONE)
		read_processes(&x, procs);
}
