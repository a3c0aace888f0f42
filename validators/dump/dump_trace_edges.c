/* The decoded edge sequence of each thread of a DCFG-trace process: the
 * process's STRING_DICTIONARY and TRANSITION_TABLE read through the
 * validator's decoders (silently: the validation run reports), then each
 * chunk of each thread decoded with a visitor that writes the edges in
 * lines of up to EDGES_PER_LINE ("edges") or of one repeated edge
 * ("edge-run"), and a line that ends the thread's edges ("edges-end").
 * Repeats are expanded edge by edge, so a thread stops at its edge bound. */
#include "dump_trace_edges.h"
#include "trace_decode.h"

#include <stdlib.h>
#include <string.h>

#define EDGE_ID_MAX 0x7fffffffull

/* The cell of a row under the column named `name` of the table's header, or JNONE. */
static uint32_t cell_named(struct tl_json_doc *d, uint32_t header, uint32_t row, const char *name)
{
	uint32_t col = jn(d, header)->first, cell = jn(d, row)->first;
	for (; col != JNONE && cell != JNONE; col = jsibling(d, col), cell = jsibling(d, cell))
		if (tl_json_str_eq(d, col, name))
			return cell;
	return JNONE;
}

/* A table's header row (an array of strings first), or JNONE. */
static uint32_t table_header(struct tl_json_doc *d, uint32_t table)
{
	if (table == JNONE || jn(d, table)->type != J_ARR || jn(d, table)->first == JNONE)
		return JNONE;
	uint32_t h = jn(d, table)->first;
	return jn(d, h)->type == J_ARR ? h : JNONE;
}

static void read_transitions(struct tl_json_check *v, uint32_t table, struct tl_dcfg_ttable *tt)
{
	struct tl_json_doc *d = &v->doc;
	uint32_t header = table_header(d, table);
	uint64_t *next = NULL;
	uint32_t cap = 0;
	for (uint32_t row = header == JNONE ? JNONE : jsibling(d, header); row != JNONE; row = jsibling(d, row)) {
		if (jn(d, row)->type != J_ARR)
			continue;
		uint32_t cur_n = cell_named(d, header, row, "CURRENT_EDGE_ID");
		uint32_t code_n = cell_named(d, header, row, "TRANSITION_CODE");
		uint32_t next_n = cell_named(d, header, row, "NEXT_EDGE_IDS");
		uint64_t cur;
		if (cur_n == JNONE || code_n == JNONE || next_n == JNONE || jn(d, code_n)->type != J_STR ||
		    jn(d, next_n)->type != J_ARR || !tl_jv_int(v, cur_n, 1, EDGE_ID_MAX, "CURRENT_EDGE_ID", &cur))
			continue;
		const uint8_t *s = jstr(d, code_n);
		uint32_t len = jn(d, code_n)->count, bits = 0;
		bool good = len <= 32;
		for (uint32_t i = 0; i < len && good; i++) {
			good = s[i] == '0' || s[i] == '1';
			bits = bits << 1 | (uint32_t)(s[i] == '1');
		}
		uint32_t nn = 0, want = jn(d, next_n)->count;
		if (want > cap) {
			uint64_t *grown = realloc(next, (size_t)want * sizeof *next);
			if (!grown) {
				tl_jv_out_of_memory(v);
				break;
			}
			next = grown;
			cap = want;
		}
		for (uint32_t c = jn(d, next_n)->first; c != JNONE && good && nn < want; c = jsibling(d, c))
			good = tl_jv_int(v, c, 1, EDGE_ID_MAX, "NEXT_EDGE_IDS", &next[nn++]);
		if (good && nn && !tl_dcfg_ttable_add(tt, cur, bits, (uint8_t)len, next, nn, row))
			tl_jv_out_of_memory(v);
	}
	free(next);
	tl_dcfg_ttable_finish(v, tt);
}

/* Edges a line, and a run of one edge repeated written as one line from
 * RUN_MIN edges on: a line per edge made the sequences of small corpus
 * cases tens of megabytes (a zero-bit loop of 600000 edges). */
#define EDGES_PER_LINE 64
#define RUN_MIN 16

struct thread_walk {
	struct dump_run *r;
	uint64_t process, thread, index, bound;
	uint64_t written;              /* index of the first edge not yet written */
	uint64_t pend[EDGES_PER_LINE]; /* edges waiting for their "edges" line */
	uint32_t npend, same;          /* same: how many of the last pending are equal */
	uint64_t run_edge, run_count;  /* a run being counted (run_count 0: none) */
};

static void line_start(struct thread_walk *t, const char *kind)
{
	struct jl *j = &t->r->jl;
	jl_begin(j, kind);
	jl_u64(j, "process", t->process);
	jl_u64(j, "thread", t->thread);
	jl_u64(j, "index", t->written);
}

static void write_pending(struct thread_walk *t)
{
	if (!t->npend)
		return;
	struct jl *j = &t->r->jl;
	line_start(t, "edges");
	jl_array_begin(j, "edges");
	for (uint32_t i = 0; i < t->npend; i++)
		jl_u64(j, NULL, t->pend[i]);
	jl_array_end(j);
	jl_end(j);
	t->written += t->npend;
	t->npend = t->same = 0;
}

static void write_run(struct thread_walk *t)
{
	if (!t->run_count)
		return;
	struct jl *j = &t->r->jl;
	line_start(t, "edge-run");
	jl_u64(j, "edge", t->run_edge);
	jl_u64(j, "count", t->run_count);
	jl_end(j);
	t->written += t->run_count;
	t->run_count = 0;
}

static bool take_edge(void *user, uint64_t edge)
{
	struct thread_walk *t = user;
	if (t->index >= t->bound)
		return false;
	t->index++;
	if (t->run_count) {
		if (edge == t->run_edge) {
			t->run_count++;
			return true;
		}
		write_run(t);
	}
	t->same = t->npend && t->pend[t->npend - 1] == edge ? t->same + 1 : 1;
	t->pend[t->npend++] = edge;
	if (t->same == RUN_MIN) {
		t->npend -= RUN_MIN;
		write_pending(t);
		t->run_edge = edge;
		t->run_count = RUN_MIN;
	} else if (t->npend == EDGES_PER_LINE)
		write_pending(t);
	return true;
}

static void thread_edges(struct dump_run *r, struct tl_json_check *v, uint64_t process, uint32_t row, uint32_t header,
			 const struct tl_dcfg_ttable *tt, const struct tl_dcfg_dict *dict)
{
	struct tl_json_doc *d = &v->doc;
	uint64_t tid;
	uint32_t tid_n = cell_named(d, header, row, "THREAD_ID");
	uint32_t chunks = cell_named(d, header, row, "TRACE_DATA");
	if (tid_n == JNONE || !tl_jv_int(v, tid_n, 0, UINT64_MAX, "THREAD_ID", &tid))
		return;
	struct thread_walk tw;
	memset(&tw, 0, sizeof tw);
	tw.r = r;
	tw.process = process;
	tw.thread = tid;
	tw.bound = r->edge_bound;
	uint64_t edge_count = 0, chunk_no = 0;
	const char *stopped = NULL;
	uint32_t ch = table_header(d, chunks);
	for (uint32_t c = ch == JNONE ? JNONE : jsibling(d, ch); c != JNONE && !stopped; c = jsibling(d, c)) {
		uint32_t count_n = cell_named(d, ch, c, "EDGE_COUNT"), first_n = cell_named(d, ch, c, "FIRST_EDGE_ID");
		uint32_t seq_n = cell_named(d, ch, c, "EDGE_ID_SEQUENCE");
		struct tl_dcfg_chunk k;
		memset(&k, 0, sizeof k);
		if (jn(d, c)->type != J_ARR || count_n == JNONE || seq_n == JNONE || jn(d, seq_n)->type != J_STR ||
		    !tl_jv_int(v, count_n, 0, UINT64_MAX, "EDGE_COUNT", &k.edge_count) ||
		    (k.edge_count && (first_n == JNONE || !tl_jv_int(v, first_n, 1, EDGE_ID_MAX, "FIRST_EDGE_ID", &k.first_edge)))) {
			stopped = "a chunk's counts or sequence cannot be read";
			break;
		}
		struct tl_dcfg_seq s;
		if (!tl_dcfg_seq_parse(v, seq_n, dict, &s)) {
			stopped = "a chunk's EDGE_ID_SEQUENCE does not parse";
			break;
		}
		tl_dcfg_seq_bits(&s, dict);
		edge_count += k.edge_count;
		k.node = seq_n;
		k.visit = take_edge;
		k.visit_user = &tw;
		tl_dcfg_decode_chunk(v, &s, tt, dict, &k);
		tl_dcfg_seq_free(&s);
		if (k.stopped)
			stopped = "limit";
		else if (k.edges_done < k.edge_count)
			stopped = "a chunk does not decode to its EDGE_COUNT";
		else
			chunk_no++;
	}
	write_pending(&tw);
	write_run(&tw);
	struct jl *j = &r->jl;
	jl_begin(j, "edges-end");
	jl_u64(j, "process", process);
	jl_u64(j, "thread", tid);
	jl_u64(j, "edges", tw.index);
	jl_u64(j, "edge-count", edge_count);
	jl_bool(j, "complete", !stopped);
	if (stopped) {
		jl_u64(j, "chunk", chunk_no);
		jl_str(j, "stopped", stopped);
	}
	jl_end(j);
	if (stopped && !strcmp(stopped, "limit"))
		r->edges_limited = true;
}

void dump_trace_edges(struct dump_run *r, struct tl_json_doc *doc, uint32_t header, uint32_t row)
{
	struct tl_json_check v;
	memset(&v, 0, sizeof v);
	v.doc = *doc; /* read only; the walk owns the tree */
	uint64_t pid;
	uint32_t pid_n = cell_named(doc, header, row, "PROCESS_ID");
	uint32_t dict_n = cell_named(doc, header, row, "STRING_DICTIONARY");
	uint32_t trans_n = cell_named(doc, header, row, "TRANSITION_TABLE");
	uint32_t threads_n = cell_named(doc, header, row, "THREAD_DATA");
	if (pid_n == JNONE || trans_n == JNONE || !tl_jv_int(&v, pid_n, 0, UINT32_MAX, "PROCESS_ID", &pid))
		return;
	struct tl_dcfg_dict dict;
	memset(&dict, 0, sizeof dict);
	if (dict_n != JNONE)
		tl_dcfg_dict_read(&v, dict_n, &dict);
	struct tl_dcfg_ttable tt;
	memset(&tt, 0, sizeof tt);
	read_transitions(&v, trans_n, &tt);
	uint32_t th = table_header(doc, threads_n);
	for (uint32_t t = th == JNONE ? JNONE : jsibling(doc, th); t != JNONE && !v.nomem; t = jsibling(doc, t))
		if (jn(doc, t)->type == J_ARR)
			thread_edges(r, &v, pid, t, th, &tt, &dict);
	if (v.nomem)
		dump_stop(r, "out of memory decoding the edge sequences of process %llu", (unsigned long long)pid);
	tl_dcfg_ttable_free(&tt);
	tl_dcfg_dict_free(&dict);
}
