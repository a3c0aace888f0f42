/* EDGE_ID_SEQUENCE decoding through the public API: the seed's own
 * examples, expansion bombs checked in bounded time, huge legitimate
 * expansions decoded by skipping identical repeat iterations, and
 * zero-bit transition loops. */
#include <atf-c.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, seed_examples);
	ATF_TP_ADD_TC(tp, bomb_is_cheap);
	ATF_TP_ADD_TC(tp, huge_valid_expansion);
	ATF_TP_ADD_TC(tp, zero_bit_loop);
	return atf_no_error();
}
