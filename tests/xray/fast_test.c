/* The FDR fast path (xray_fast.c) against the checkers it stands in for:
 * for random runs of function records (plain ones, mismatched exits, id 0,
 * undefined actions, oversized deltas, metadata, deep stacks, TSCs near the
 * top) in both byte orders, the records it consumes must leave the grammar,
 * call stack and TSC checker exactly as the decoder and the checkers do, and
 * the checkers must have nothing to say about them. */
#include <atf-c.h>

#include <string.h>

#include "validators/xray/xray.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	/* xorshift64: deterministic, so a failure can be replayed. */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned below(unsigned n)
{
	return (unsigned)(next_random() % n);
}

static void put_u32(uint8_t *p, uint32_t v, bool big)
{
	for (int i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* One function record, mostly plain, sometimes one that a rule objects to. */
static void random_record(uint8_t *p, bool big)
{
	unsigned action = below(10) < 6 ? below(3) : below(8);
	uint32_t id = below(20) == 0 ? 0 : 1 + below(4);
	uint32_t delta = below(20) == 0 ? 0x80000000u + below(5) : (uint32_t)next_random();
	if (below(3) != 0)
		delta &= 0x7fffffffu;
	uint32_t word = big ? (action << 28 | id) : (id << 4 | action << 1);
	put_u32(p, word, big);
	put_u32(p + 4, delta, big);
	if (below(40) == 0)
		p[0] |= big ? 0x80u : 1u; /* a metadata record's first byte */
}

struct checkers {
	struct xray_grammar g;
	struct xray_stack s;
	struct xray_tsc t;
	int64_t next_index;
};

static void random_state(struct checkers *c)
{
	memset(c, 0, sizeof *c);
	tl_xray_grammar_begin(&c->g);
	tl_xray_stack_begin(&c->s);
	tl_xray_tsc_begin(&c->t);
	c->g.state = below(8) == 0 ? XRAY_EXPECT_NEW_CPU : XRAY_IN_BODY;
	c->g.entry_args_open = below(10) == 0;
	unsigned depth_kind = below(4);
	c->s.depth = depth_kind == 0 ? 0 : depth_kind == 1 ? 250 + below(12) : below(6);
	for (uint64_t i = 0; i < c->s.depth && i < XRAY_STACK_FRAMES; i++)
		c->s.frames[i] = 1 + below(4);
	c->t.have_base = below(4) != 0;
	c->t.now = below(3) == 0 ? UINT64_MAX - below(1u << 30) : next_random() >> 8;
	c->t.cpu = (uint16_t)below(4);
	c->next_index = below(1000);
}

static void count(const struct tl_diagnostic *d, void *user)
{
	(void)d;
	(*(unsigned *)user)++;
}

static void require_same(const struct checkers *a, const struct checkers *b)
{
	ATF_REQUIRE_EQ(a->next_index, b->next_index);
	ATF_REQUIRE_EQ(a->g.state, b->g.state);
	ATF_REQUIRE_EQ(a->g.previous, b->g.previous);
	ATF_REQUIRE_EQ(a->g.entry_args_open, b->g.entry_args_open);
	ATF_REQUIRE_STREQ(a->g.last_name, b->g.last_name);
	ATF_REQUIRE_EQ(a->s.depth, b->s.depth);
	for (uint64_t i = 0; i < a->s.depth && i < XRAY_STACK_FRAMES; i++)
		ATF_REQUIRE_EQ(a->s.frames[i], b->s.frames[i]);
	ATF_REQUIRE_EQ(a->t.have_base, b->t.have_base);
	ATF_REQUIRE_EQ(a->t.now, b->t.now);
	ATF_REQUIRE_EQ(a->t.cpu, b->t.cpu);
}

ATF_TC_WITHOUT_HEAD(fast_path_matches_the_checkers);
ATF_TC_BODY(fast_path_matches_the_checkers, tc)
{
	unsigned consumed_runs = 0, stopped_early = 0;
	for (unsigned trial = 0; trial < 20000; trial++) {
		bool big = trial % 2;
		struct xray_header hdr = { big, 5, XRAY_TYPE_FDR, 0, 1000000000, 4096 };
		uint8_t bytes[40 * 8 + 4];
		size_t n = 8 * (1 + below(40)) + below(8); /* sometimes a torn last record */
		for (size_t k = 0; k + 8 <= n; k += 8)
			random_record(bytes + k, big);
		struct checkers fast, slow;
		random_state(&fast);
		slow = fast;
		/* Every third trial without --instr-map; otherwise a map defining ids 1..2, 1..3 or 1..4. */
		bool mapped = trial % 3 != 0;
		struct xray_instr_map map = { 2 + below(3), 0, false, "t.bin" };
		size_t used = tl_xray_fast_functions(bytes, n, big, xray_max_function_id(mapped ? &map : NULL),
						  &fast.g, &fast.s, &fast.t, &fast.next_index);
		ATF_REQUIRE(used % 8 == 0 && used <= n);

		unsigned reports = 0;
		struct tl_options opts;
		tl_options_init(&opts);
		opts.on_diag = count;
		opts.user = &reports;
		struct tl_result result = { 0 };
		struct tl_ctx ctx = { .opts = &opts, .result = &result, .path = "t.xray" };
		tl_rule_policy_resolve(&opts, ctx.severity);
		struct xray_buffer buf = { 0, 0, n, 42 };
		struct xray_run run = { &ctx, &hdr, &buf, mapped ? &map : NULL };
		for (size_t k = 0; k < used; k += 8) {
			struct tl_cursor c;
			struct xray_record rec;
			tl_cursor_init(&c, bytes + k, n - k, k);
			rec.index = slow.next_index;
			ATF_REQUIRE_EQ(tl_xray_decode(&c, &hdr, &rec), XRAY_DECODED);
			ATF_REQUIRE(!rec.metadata);
			slow.next_index++;
			ATF_REQUIRE(!tl_xray_grammar_record(&slow.g, &run, &rec));
			tl_xray_stack_record(&slow.s, &run, &rec);
			tl_xray_tsc_record(&slow.t, &run, &rec);
		}
		ATF_REQUIRE_EQ_MSG(reports, 0, "trial %u: the fast path let through a record "
				   "a checker reports", trial);
		require_same(&fast, &slow);
		consumed_runs += used > 0;
		stopped_early += used + 8 <= n;
	}
	/* The random mix must exercise both outcomes, or the test proves little. */
	ATF_CHECK(consumed_runs > 5000);
	ATF_CHECK(stopped_early > 5000);
}

ATF_TC_WITHOUT_HEAD(plain_records_are_all_consumed);
ATF_TC_BODY(plain_records_are_all_consumed, tc)
{
	/* Entry 1, Entry 2, Exit 2, Tail_Exit 1, Exit 7 (its Entry was in an older buffer). */
	static const unsigned actions[] = { XRAY_ENTRY, XRAY_ENTRY, XRAY_EXIT, XRAY_TAIL_EXIT, XRAY_EXIT };
	static const uint32_t ids[] = { 1, 2, 2, 1, 7 };
	for (int big = 0; big < 2; big++) {
		uint8_t bytes[5 * 8];
		for (size_t i = 0; i < 5; i++) {
			uint32_t word = big ? (actions[i] << 28 | ids[i]) : (ids[i] << 4 | actions[i] << 1);
			put_u32(bytes + 8 * i, word, big);
			put_u32(bytes + 8 * i + 4, 10, big);
		}
		struct checkers c;
		memset(&c, 0, sizeof c);
		tl_xray_grammar_begin(&c.g);
		c.g.state = XRAY_IN_BODY;
		tl_xray_stack_begin(&c.s);
		tl_xray_tsc_begin(&c.t);
		c.t.have_base = true;
		c.t.now = 100;
		ATF_CHECK_EQ(tl_xray_fast_functions(bytes, sizeof bytes, big, 0x0fffffffu, &c.g, &c.s, &c.t,
						 &c.next_index), sizeof bytes);
		ATF_CHECK_EQ(c.next_index, 5);
		ATF_CHECK_EQ(c.s.depth, 0u);
		ATF_CHECK_EQ(c.t.now, 150u);
		ATF_CHECK_EQ(c.g.previous, XRAY_PREV_OTHER);
		ATF_CHECK_STREQ(c.g.last_name, "an Exit");
		/* A map of 6 functions: the fast path stops at id 7, for the checkers to report. */
		memset(&c.s, 0, sizeof c.s);
		c.next_index = 0;
		ATF_CHECK_EQ(tl_xray_fast_functions(bytes, sizeof bytes, big, 6, &c.g, &c.s, &c.t,
						 &c.next_index), 4 * 8u);
		ATF_CHECK_EQ(c.next_index, 4);
		/* In the preamble nothing is plain. */
		c.g.state = XRAY_EXPECT_WALLCLOCK;
		ATF_CHECK_EQ(tl_xray_fast_functions(bytes, sizeof bytes, big, 0x0fffffffu, &c.g, &c.s, &c.t,
						 &c.next_index), 0u);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, fast_path_matches_the_checkers);
	ATF_TP_ADD_TC(tp, plain_records_are_all_consumed);
	return atf_no_error();
}
