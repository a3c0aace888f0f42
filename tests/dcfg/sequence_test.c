/* EDGE_ID_SEQUENCE decoding through the public API: the seed's own
 * examples, expansion bombs checked in bounded time, huge legitimate
 * expansions decoded by skipping identical repeat iterations, and
 * zero-bit transition loops. */
#define _POSIX_C_SOURCE 200809L
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracelint.h"

struct seen {
	char rules[512];
	unsigned count;
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	size_t len = strlen(s->rules);
	snprintf(s->rules + len, sizeof s->rules - len, "%s%s", len ? " " : "", d->rule->id);
	s->count++;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Validates a one-process, one-thread trace with the given table rows and chunk row. */
static double run(const char *table_rows, const char *chunk_row, struct seen *s)
{
	char text[4096];
	snprintf(text, sizeof text,
		 "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"PROCESSES\": ["
		 "[\"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\"],"
		 "[7, {\"a\": \"A\", \"b\": \"<a><a>\"}, [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"], %s],"
		 "[[\"THREAD_ID\", \"TRACE_DATA\"], [0, [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\","
		 " \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"], %s]]]]]}",
		 table_rows, chunk_row);
	struct tl_options opts;
	struct tl_result result;
	char err[256];
	tl_options_init(&opts);
	opts.format = TL_FORMAT_DCFG_TRACE;
	opts.on_diag = collect;
	opts.user = s;
	memset(s, 0, sizeof *s);
	double t0 = now();
	ATF_REQUIRE_EQ(tl_validate_buffer(text, strlen(text), "seq.json", &opts, &result, err, sizeof err), TL_OK);
	return now() - t0;
}

static const char seed_table[] =
	"[123, \"0\", [124]], [123, \"1\", [125]], [124, \"\", [456]], [125, \"0\", [543]],"
	"[125, \"10\", [542, 549]], [125, \"11\", [540, 541]]";

ATF_TC_WITHOUT_HEAD(seed_examples);
ATF_TC_BODY(seed_examples, tc)
{
	struct seen s;
	/* Example 1: bits 110 give 123, 125, 542, 549 ("110000" is 'w'). */
	run(seed_table, "[0, 0, 4, 123, \"w\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	/* Example 2: bit 0 gives 123, 124, 456. */
	run(seed_table, "[0, 0, 3, 123, \"A\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	/* One edge more than the bits allow. */
	run(seed_table, "[0, 0, 6, 123, \"w\"]", &s);
	ATF_CHECK_STREQ(s.rules, "DTRACE-DECODE");
	/* A whole unused character after the edges. */
	run(seed_table, "[0, 0, 3, 123, \"AA\"]", &s);
	ATF_CHECK_STREQ(s.rules, "DTRACE-EXCESS-BITS");
	/* Dictionary references expand in place: <b> is "AA". */
	run(seed_table, "[0, 0, 3, 123, \"<b>\"]", &s);
	ATF_CHECK_STREQ(s.rules, "DTRACE-EXCESS-BITS");
}

ATF_TC_WITHOUT_HEAD(bomb_is_cheap);
ATF_TC_BODY(bomb_is_cheap, tc)
{
	struct seen s;
	/* 10^36 x 24 bits of expansion, 1000 edges declared: rejected from lengths. */
	double t = run("[1, \"0\", [1]], [1, \"1\", [1]]",
		       "[0, 0, 1000, 1, \"(1000000000000000000*(1000000000000000000*AAAA))\"]", &s);
	ATF_CHECK_STREQ(s.rules, "DTRACE-EXCESS-BITS");
	ATF_CHECK_MSG(t < 1.0, "bomb took %.3f s", t);
}

ATF_TC_WITHOUT_HEAD(huge_valid_expansion);
ATF_TC_BODY(huge_valid_expansion, tc)
{
	struct seen s;
	/* 6 * 10^12 one-bit transitions plus the first edge: valid, decoded by
	 * skipping identical repeat iterations. */
	double t = run("[1, \"0\", [1]], [1, \"1\", [1]]", "[0, 0, 6000000000001, 1, \"(1000000000000*A)\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	ATF_CHECK_MSG(t < 1.0, "decoding took %.3f s", t);
	/* The same with one edge too many: the bits run out. */
	t = run("[1, \"0\", [1]], [1, \"1\", [1]]", "[0, 0, 6000000000002, 1, \"(1000000000000*A)\"]", &s);
	ATF_CHECK_STREQ(s.rules, "DTRACE-DECODE");
	ATF_CHECK_MSG(t < 1.0, "decoding took %.3f s", t);
}

ATF_TC_WITHOUT_HEAD(zero_bit_loop);
ATF_TC_BODY(zero_bit_loop, tc)
{
	struct seen s;
	double t = run("[1, \"\", [2]], [2, \"\", [1]]", "[0, 0, 1000000000000000000, 1, \"\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	ATF_CHECK_MSG(t < 1.0, "decoding took %.3f s", t);
}

/* A one-block DCFG: START -> 10 (edge 1), 10 -> 10 (edge 2, `loops` times), 10 -> END
 * (edge 3); block 10 holds one instruction. The trace of process 7 is checked
 * against it (--pair) and its diagnostics collected in s. */
static void run_paired(const char *loops, const char *instrs, const char *chunk_row, struct seen *s)
{
	char dcfg[2048], trace[2048], path[] = "/tmp/tl_pair_XXXXXX";
	snprintf(dcfg, sizeof dcfg,
		 "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,"
		 " \"EDGE_TYPES\": [[\"EDGE_TYPE_ID\", \"EDGE_TYPE\"], [1, \"ENTRY\"], [2, \"EXIT\"], [3, \"CONDITIONAL_BRANCH\"]],"
		 " \"SPECIAL_NODES\": [[\"NODE_ID\", \"NODE_NAME\"], [1, \"START\"], [2, \"END\"]],"
		 " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"], [7, {\"INSTR_COUNT_PER_THREAD\": [%s], \"INSTR_COUNT\": %s,"
		 " \"IMAGES\": [[\"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\"], [1, \"0x1000\", 4096, {\"BASIC_BLOCKS\":"
		 " [[\"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\"], [10, \"0x0\", 2, 1, 0]]}]],"
		 " \"EDGES\": [[\"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\"],"
		 " [1, 1, 10, 1, [1]], [2, 10, 10, 3, [%s]], [3, 10, 2, 2, [1]]]}]]}",
		 instrs, instrs, loops);
	snprintf(trace, sizeof trace,
		 "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"PROCESSES\": ["
		 "[\"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\"],"
		 "[7, {\"a\": \"A\", \"b\": \"<a><a>\"}, [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"],"
		 " [1, \"\", [2]], [2, \"0\", [2]], [2, \"1\", [3]]],"
		 "[[\"THREAD_ID\", \"TRACE_DATA\"], [0, [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\","
		 " \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"], %s]]]]]}",
		 chunk_row);
	int fd = mkstemp(path);
	ATF_REQUIRE(fd >= 0);
	ATF_REQUIRE(write(fd, dcfg, strlen(dcfg)) == (ssize_t)strlen(dcfg));
	close(fd);
	struct tl_options opts;
	struct tl_result result;
	char err[256];
	tl_options_init(&opts);
	opts.format = TL_FORMAT_DCFG_TRACE;
	opts.pair_path = path;
	opts.on_diag = collect;
	opts.user = s;
	memset(s, 0, sizeof *s);
	ATF_REQUIRE_EQ(tl_validate_buffer(trace, strlen(trace), "pair.json", &opts, &result, err, sizeof err), TL_OK);
	unlink(path);
}

ATF_TC_WITHOUT_HEAD(pair_counts_without_expansion);
ATF_TC_BODY(pair_counts_without_expansion, tc)
{
	struct seen s;
	/* 6 * 10^12 + 1 traversals of the self-loop, written as repeats: the
	 * occurrence counts come out exact although nothing is expanded. */
	run_paired("6000000000001", "6000000000002", "[0, 6000000000002, 6000000000003, 1, \"(1000000000000*A)g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	run_paired("6000000000001", "6000000000002", "[0, 6000000000002, 6000000000003, 1, \"(1000000*(1000000*A))g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	run_paired("6000000000001", "6000000000002", "[0, 6000000000002, 6000000000003, 1, \"(500000000000*<b>)g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	/* The DCFG counts one traversal fewer than the trace holds. */
	run_paired("6000000000000", "6000000000002", "[0, 6000000000002, 6000000000003, 1, \"(1000000*(1000000*A))g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "PAIR-EDGE-COUNT");
	/* One character of loop fewer: six traversals short, but the trace ends
	 * before the thread does, so that is no finding. */
	run_paired("6000000000001", "6000000000002", "[0, 5999999999996, 5999999999997, 1, \"(999999999999*A)g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "");
	/* The same edges, but the whole thread: six traversals short is reported. */
	run_paired("6000000000001", "5999999999996", "[0, 5999999999996, 5999999999997, 1, \"(999999999999*A)g\"]", &s);
	ATF_CHECK_STREQ(s.rules, "PAIR-EDGE-COUNT-SHORT");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pair_counts_without_expansion);
	ATF_TP_ADD_TC(tp, seed_examples);
	ATF_TP_ADD_TC(tp, bomb_is_cheap);
	ATF_TP_ADD_TC(tp, huge_valid_expansion);
	ATF_TP_ADD_TC(tp, zero_bit_loop);
	return atf_no_error();
}
