/* Repeat groups whose iterations cycle through several decoder states:
 * "(N*body)" must decode exactly as the body written out N times (same
 * result, same diagnostics, same per-edge counts when pairing), and in
 * time that does not follow N. Rings of states make cycles of 2 to 64
 * iterations, entered after a prefix, with counts up to 10^18; random
 * tables and bodies (inner repeats, damage, EDGE_COUNT off) are compared
 * with their written-out expansion. */
#define _POSIX_C_SOURCE 200809L
#include <atf-c.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "validators/core/context.h"
#include "validators/dcfg/trace_decode.h"

struct log {
	char text[4096];
	size_t n;
	unsigned count;
};

static void record(const struct tl_diagnostic *d, void *user)
{
	struct log *l = user;
	l->count++;
	if (l->n < sizeof l->text)
		l->n += (size_t)snprintf(l->text + l->n, sizeof l->text - l->n, "%s %u:%u %s\n", d->rule->id, d->loc.line,
					 d->loc.column, d->message);
}

/* A sequence parsed from its text, as the reader parses EDGE_ID_SEQUENCE. */
struct parsed {
	char *json;
	struct tl_json_check v;
	uint32_t node;
	struct tl_dcfg_seq s;
};

static void parse_seq(struct parsed *p, const char *text)
{
	size_t n = strlen(text) + 16;
	p->json = malloc(n);
	ATF_REQUIRE(p->json);
	snprintf(p->json, n, "{\"SEQ\": \"%s\"}", text);
	memset(&p->v, 0, sizeof p->v);
	ATF_REQUIRE(tl_jv_parse(&p->v, (const uint8_t *)p->json, strlen(p->json), NULL, 0));
	p->node = tl_json_obj_get(&p->v.doc, 0, "SEQ");
	ATF_REQUIRE(p->node != JNONE);
	ATF_REQUIRE_MSG(tl_dcfg_seq_parse(&p->v, p->node, NULL, &p->s), "cannot parse %s", text);
	tl_dcfg_seq_bits(&p->s, NULL);
}

static void free_parsed(struct parsed *p)
{
	tl_dcfg_seq_free(&p->s);
	tl_json_free(&p->v.doc);
	free(p->json);
}

/* Decodes one chunk, the diagnostics into l (through a context, as
 * tracelint reports them). */
static void decode(struct parsed *p, const struct tl_dcfg_ttable *t, struct tl_dcfg_chunk *c, struct log *l)
{
	struct tl_options opts;
	tl_options_init(&opts);
	opts.on_diag = record;
	opts.user = l;
	struct tl_result result = { 0 };
	struct tl_ctx ctx = { .opts = &opts, .result = &result, .path = "t.trace.json" };
	tl_rule_policy_resolve(&opts, ctx.severity);
	struct tl_json_check lv = p->v;
	lv.ctx = &ctx;
	lv.failed = false;
	memset(l, 0, sizeof *l);
	c->node = p->node;
	tl_dcfg_decode_chunk(&lv, &p->s, t, NULL, c);
}

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return n ? (uint32_t)((r->s >> 11) % n) : 0;
}

/* A ring of `ring` states (edges 1..ring) entered through a tail of
 * `tail` states (edges ring+2 ..): from every state, each of the 2^width
 * codes leads `hop[code]` states on along the ring (the tail leads into
 * the ring's first state); edge ring+1 has no row. `missing` drops that
 * code of every ring state (-1: none). With `pairing`, each edge counts 3
 * instructions and per-edge counts are kept in `tally`. */
struct ring {
	uint32_t ring, tail, width;
	uint32_t hop[16];
	int missing;
};

static void build_ring(const struct ring *g, struct tl_dcfg_ttable *t, bool pairing)
{
	memset(t, 0, sizeof *t);
	struct tl_json_check v = { 0 };
	uint32_t row = 0;
	for (uint32_t s = 0; s < g->ring + g->tail; s++) {
		bool in_ring = s < g->ring;
		uint64_t edge = in_ring ? s + 1 : g->ring + 2 + (s - g->ring);
		for (uint32_t c = 0; c < (1u << g->width); c++) {
			if (in_ring && (int)c == g->missing)
				continue;
			uint64_t next;
			if (in_ring)
				next = 1 + (s + g->hop[c]) % g->ring;
			else
				next = s + 1 < g->ring + g->tail ? edge + 1 : 1;
			ATF_REQUIRE(tl_dcfg_ttable_add(t, edge, c, (uint8_t)g->width, &next, 1, row++));
		}
	}
	tl_dcfg_ttable_finish(&v, t);
	ATF_REQUIRE(!v.failed);
	if (pairing && t->nnext) {
		t->next_instr = calloc(t->nnext, sizeof *t->next_instr);
		t->next_index = calloc(t->nnext, sizeof *t->next_index);
		ATF_REQUIRE(t->next_instr && t->next_index);
		for (uint32_t i = 0; i < t->nnext; i++) {
			t->next_instr[i] = 3;
			t->next_index[i] = (uint32_t)t->next_ids[i] - 1;
		}
	}
}

static uint64_t first_edge(const struct ring *g) { return g->tail ? g->ring + 2 : 1; }

struct outcome {
	struct tl_dcfg_chunk c;
	struct log l;
	struct tl_dcfg_tally tally;
};

static void run(const struct ring *g, const struct tl_dcfg_ttable *t, bool pairing, const char *text, uint64_t count,
		struct outcome *o)
{
	struct parsed p;
	parse_seq(&p, text);
	memset(&o->c, 0, sizeof o->c);
	o->c.edge_count = count;
	o->c.first_edge = first_edge(g);
	o->c.first_instr = 3;
	o->c.first_index = (uint32_t)o->c.first_edge - 1;
	if (pairing) {
		ATF_REQUIRE(tl_dcfg_tally_init(&o->tally, g->ring + g->tail + 2));
		o->c.tally = &o->tally;
	}
	decode(&p, t, &o->c, &o->l);
	free_parsed(&p);
}

static bool alike(const struct outcome *a, const struct outcome *b, uint32_t nedges)
{
	if (a->c.ok != b->c.ok || a->c.edges_done != b->c.edges_done || a->c.last_edge != b->c.last_edge ||
	    a->c.instr != b->c.instr || a->c.instr_known != b->c.instr_known || a->c.counts_known != b->c.counts_known ||
	    a->l.n != b->l.n || memcmp(a->l.text, b->l.text, a->l.n))
		return false;
	if (a->c.tally && b->c.tally)
		for (uint32_t e = 0; e < nedges; e++)
			if (a->tally.count[e] != b->tally.count[e])
				return false;
	return true;
}

static void done(struct outcome *o)
{
	if (o->c.tally)
		tl_dcfg_tally_free(&o->tally);
}

/* "(N*body)" spelled out N times. */
static char *expand(const char *prefix, const char *body, uint64_t n, const char *suffix)
{
	size_t len = strlen(prefix) + strlen(body) * n + strlen(suffix) + 1;
	char *out = malloc(len), *w = out;
	ATF_REQUIRE(out);
	w += sprintf(w, "%s", prefix);
	for (uint64_t i = 0; i < n; i++)
		w += sprintf(w, "%s", body);
	sprintf(w, "%s", suffix);
	return out;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A ring of 6L states of one-bit codes ("1" one state on): "-" (six 1
 * bits) moves six states, so the iterations of "(N*-)" cycle through L
 * states before the decoder is where it started. Entered after a tail
 * of 7 states (a prefix of two iterations that are not on the cycle). */
ATF_TC(cycles_of_2_to_64_iterations);
ATF_TC_HEAD(cycles_of_2_to_64_iterations, tc) { atf_tc_set_md_var(tc, "timeout", "300"); }
ATF_TC_BODY(cycles_of_2_to_64_iterations, tc)
{
	static const uint64_t big[] = { 1000003, 1000000000000ull, 999999999999999989ull, 1000000000000000000ull };
	double slowest = 0;
	for (uint32_t lap = 2; lap <= 64; lap++)
		for (int tail = 0; tail < 2; tail++)
			for (int pairing = 0; pairing < 2; pairing++) {
				struct ring g = { .ring = 6 * lap, .tail = tail ? 7 : 0, .width = 1, .missing = -1 };
				g.hop[0] = 1;
				g.hop[1] = 1;
				struct tl_dcfg_ttable t;
				build_ring(&g, &t, pairing);
				uint32_t nedges = g.ring + g.tail + 2;
				/* Small counts: against the written-out expansion. */
				for (uint64_t n = 1; n <= 3 * lap + 12; n += 1 + n / 8) {
					char rep[64];
					snprintf(rep, sizeof rep, "(%" PRIu64 "*-)", n);
					char *lit = expand("", "-", n, "");
					struct outcome a, b;
					run(&g, &t, pairing, rep, 1 + 6 * n, &a);
					run(&g, &t, pairing, lit, 1 + 6 * n, &b);
					ATF_CHECK_MSG(a.c.ok && alike(&a, &b, nedges), "cycle %u, tail %u, n %" PRIu64 ": %s---\n%s", lap,
						      g.tail, n, a.l.text, b.l.text);
					done(&a);
					done(&b);
					free(lit);
				}
				/* Large counts: the result in closed form, in bounded time. */
				for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
					uint64_t n = big[i], edges = 1 + 6 * n;
					char rep[64];
					snprintf(rep, sizeof rep, "(%" PRIu64 "*-)", n);
					struct outcome a;
					double t0 = now();
					run(&g, &t, pairing, rep, edges, &a);
					double took = now() - t0;
					slowest = took > slowest ? took : slowest;
					/* The tail takes g.tail bits, then the ring 6n - tail. */
					uint64_t on_ring = 6 * n - g.tail;
					uint64_t last = 1 + on_ring % g.ring;
					ATF_CHECK_MSG(a.c.ok && a.c.edges_done == edges && a.c.last_edge == last && a.l.count == 0,
						      "cycle %u, tail %u, n %" PRIu64 ": ok=%d edges=%" PRIu64 " last=%" PRIu64
						      " (expected %" PRIu64 ")\n%s",
						      lap, g.tail, n, a.c.ok, a.c.edges_done, a.c.last_edge, last, a.l.text);
					if (pairing) {
						ATF_CHECK(a.c.instr_known && a.c.instr == 3 * edges);
						/* Each ring edge is taken visits / ring times, or once more
						 * (the ring's first edge, then on_ring steps). */
						uint64_t sum = 0, visits = on_ring + 1;
						for (uint32_t e = 0; e < g.ring; e++) {
							uint64_t k = a.tally.count[e];
							ATF_CHECK(k == visits / g.ring || k == visits / g.ring + 1);
							sum += k;
						}
						ATF_CHECK_EQ(sum, visits);
					}
					done(&a);
				}
				tl_dcfg_ttable_free(&t);
			}
	/* Edge by edge, 6 * 10^18 edges would take centuries; the sanitizer
	 * build needs well under a millisecond. */
	ATF_CHECK_MSG(slowest < 0.5, "the slowest large count took %.3f s", slowest);
}

/* A random body: characters, now and then an inner repeat. */
static void random_body(struct rng *r, char *out, size_t cap)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
	size_t n = 0;
	uint32_t parts = 1 + rnd(r, 3);
	for (uint32_t k = 0; k < parts && n + 16 < cap; k++) {
		if (rnd(r, 4) == 0)
			n += (size_t)snprintf(out + n, cap - n, "(%u*%c%c)", 1 + rnd(r, 4), b64[rnd(r, 64)], b64[rnd(r, 64)]);
		else
			out[n++] = b64[rnd(r, 64)];
	}
	out[n] = 0;
}

/* An inner "(k*XY)" of a body spelled out. */
static char *expand_inner(const char *body)
{
	size_t cap = strlen(body) * 8 + 1, n = 0;
	char *out = malloc(cap);
	ATF_REQUIRE(out);
	for (const char *p = body; *p;) {
		if (*p == '(') {
			unsigned k = (unsigned)strtoul(p + 1, NULL, 10);
			const char *star = strchr(p, '*'), *end = strchr(p, ')');
			for (unsigned i = 0; i < k; i++)
				for (const char *q = star + 1; q < end; q++)
					out[n++] = *q;
			p = end + 1;
		} else
			out[n++] = *p++;
	}
	out[n] = 0;
	return out;
}

/* Random rings (codes of 1 to 4 bits, random hops, sometimes a code
 * missing), random bodies and counts, EDGE_COUNT exact or off: the repeat
 * and its expansion decode alike, diagnostics included. */
ATF_TC(random_repeats_against_expansion);
ATF_TC_HEAD(random_repeats_against_expansion, tc) { atf_tc_set_md_var(tc, "timeout", "300"); }
ATF_TC_BODY(random_repeats_against_expansion, tc)
{
	struct rng r = { 0x853c49e6748fea9bull };
	uint32_t cases = 0, decoded = 0, failed = 0;
	for (uint32_t round = 0; round < 400; round++) {
		struct ring g = { .ring = 1 + rnd(&r, 40), .tail = rnd(&r, 3) ? 0 : 1 + rnd(&r, 5), .width = 1 + rnd(&r, 4) };
		g.missing = rnd(&r, 5) == 0 ? (int)rnd(&r, 1u << g.width) : -1;
		for (uint32_t c = 0; c < 16; c++)
			g.hop[c] = rnd(&r, g.ring + 1);
		bool pairing = rnd(&r, 3) == 0;
		struct tl_dcfg_ttable t;
		build_ring(&g, &t, pairing);
		uint32_t nedges = g.ring + g.tail + 2;
		for (uint32_t k = 0; k < 8; k++, cases++) {
			char body[64], pre[8] = "", post[8] = "";
			random_body(&r, body, sizeof body);
			if (rnd(&r, 2))
				pre[0] = "AB+-"[rnd(&r, 4)];
			if (rnd(&r, 2))
				post[0] = "AB+-"[rnd(&r, 4)];
			uint64_t n = 1 + rnd(&r, rnd(&r, 2) ? 8 : 400);
			char *inner = expand_inner(body);
			char *lit = expand(pre, inner, n, post);
			size_t replen = strlen(pre) + strlen(body) + strlen(post) + 32;
			char *rep = malloc(replen);
			ATF_REQUIRE(rep);
			snprintf(rep, replen, "%s(%" PRIu64 "*%s)%s", pre, n, body, post);
			/* EDGE_COUNT: every edge of the chunk's bits at `width` bits a
			 * code, or a few off (excess bits, the sequence exhausted). */
			uint64_t bits = 6 * (uint64_t)strlen(lit), count = 1 + bits / g.width;
			if (rnd(&r, 3) == 0)
				count = count + rnd(&r, 9) - (count > 4 ? 4 : count - 1);
			struct outcome a, b;
			run(&g, &t, pairing, rep, count, &a);
			run(&g, &t, pairing, lit, count, &b);
			ATF_CHECK_MSG(alike(&a, &b, nedges), "round %u case %u %s: ok=%d edges=%" PRIu64 " / ok=%d edges=%" PRIu64 "\n%s---\n%s",
				      round, k, rep, a.c.ok, a.c.edges_done, b.c.ok, b.c.edges_done, a.l.text, b.l.text);
			decoded += b.c.ok;
			failed += !b.c.ok;
			done(&a);
			done(&b);
			free(rep);
			free(lit);
			free(inner);
		}
		tl_dcfg_ttable_free(&t);
	}
	/* Both outcomes must be common, or the comparison proves little. */
	ATF_CHECK_MSG(decoded > cases / 5 && failed > cases / 10, "%u of %u decoded, %u failed", decoded, cases, failed);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, cycles_of_2_to_64_iterations);
	ATF_TP_ADD_TC(tp, random_repeats_against_expansion);
	return atf_no_error();
}
