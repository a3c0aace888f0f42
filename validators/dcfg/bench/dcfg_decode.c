/* Decoder-only benchmark for DCFG-trace (target: >= 500 M edges/s).
 * Reads a DCFG-trace, builds each process's dictionary and transition table
 * with the validator's own code, then times only tl_dcfg_decode_chunk() over every
 * chunk, RUNS times, and prints decoded edges per second (best run). Built
 * and run by validators/dcfg/bench/dcfg-decode.sh; not a test. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_decode.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void read_table(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_ttable *tt, bool reference)
{
	tt->reference = reference;
	for (uint32_t r = jn(&v->doc, jn(&v->doc, tbl)->first)->next; r != JNONE; r = jnext(v, r)) {
		uint32_t c0 = jn(&v->doc, r)->first, c1 = jnext(v, c0), c2 = jnext(v, c1);
		uint64_t cur, next[64];
		uint32_t bits = 0, n = 0;
		const uint8_t *s = jstr(&v->doc, c1);
		uint32_t len = jn(&v->doc, c1)->count;
		tl_jv_int(v, c0, 0, UINT64_MAX, "edge", &cur);
		for (uint32_t i = 0; i < len; i++)
			bits = (bits << 1) | (uint32_t)(s[i] == '1');
		for (uint32_t c = jn(&v->doc, c2)->first; c != JNONE && n < 64; c = jnext(v, c))
			tl_jv_int(v, c, 0, UINT64_MAX, "edge", &next[n++]);
		tl_dcfg_ttable_add(tt, cur, bits, (uint8_t)len, next, n, r);
	}
	tl_dcfg_ttable_finish(v, tt);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TRACE.json [RUNS] [reference]\n", argv[0]);
		return 2;
	}
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	bool reference = argc > 3 && !strcmp(argv[3], "reference"); /* codes compared one by one */
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *data = malloc((size_t)size + 1);
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
		return 2;
	fclose(f);
	struct tl_json_check v = { 0 };
	if (!tl_jv_parse(&v, data, (size_t)size, NULL, 0)) {
		fprintf(stderr, "not JSON\n");
		return 1;
	}
	double best = 1e30;
	uint64_t edges = 0;
	uint32_t procs = tl_json_obj_get(&v.doc, 0, "PROCESSES");
	for (int run = 0; run < runs; run++) {
		double spent = 0;
		edges = 0;
		for (uint32_t p = jn(&v.doc, jn(&v.doc, procs)->first)->next; p != JNONE; p = jnext(&v, p)) {
			uint32_t c0 = jn(&v.doc, p)->first, dict_obj = jnext(&v, c0), tbl = jnext(&v, dict_obj),
				 threads = jnext(&v, tbl);
			struct tl_dcfg_dict d;
			struct tl_dcfg_ttable tt = { 0 };
			tl_dcfg_dict_read(&v, dict_obj, &d);
			read_table(&v, tbl, &tt, reference);
			for (uint32_t t = jn(&v.doc, jn(&v.doc, threads)->first)->next; t != JNONE; t = jnext(&v, t)) {
				uint32_t chunks = jnext(&v, jn(&v.doc, t)->first);
				for (uint32_t ch = jn(&v.doc, jn(&v.doc, chunks)->first)->next; ch != JNONE; ch = jnext(&v, ch)) {
					uint32_t k0 = jn(&v.doc, ch)->first, k1 = jnext(&v, k0), k2 = jnext(&v, k1),
						 k3 = jnext(&v, k2), k4 = jnext(&v, k3);
					struct tl_dcfg_chunk c = { 0 };
					struct tl_dcfg_seq s;
					c.node = k4;
					tl_jv_int(&v, k2, 0, UINT64_MAX, "EDGE_COUNT", &c.edge_count);
					tl_jv_int(&v, k3, 0, UINT64_MAX, "FIRST_EDGE_ID", &c.first_edge);
					if (!tl_dcfg_seq_parse(&v, k4, &d, &s))
						continue;
					tl_dcfg_seq_bits(&s, &d);
					double t0 = now();
					tl_dcfg_decode_chunk(&v, &s, &tt, &d, &c);
					spent += now() - t0;
					if (!c.ok)
						fprintf(stderr, "chunk did not decode\n");
					edges += c.edges_done;
					tl_dcfg_seq_free(&s);
				}
			}
			tl_dcfg_ttable_free(&tt);
			tl_dcfg_dict_free(&d);
		}
		if (spent < best)
			best = spent;
	}
	printf("%llu edges, best of %d: %.3f s, %.1f M edges/s\n", (unsigned long long)edges, runs, best,
	       best > 0 ? (double)edges / best / 1e6 : 0.0);
	tl_json_free(&v.doc);
	free(data);
	return v.failed ? 1 : 0;
}
