/* The FDR grammar as a per-buffer state machine (grammars/xray-fdr.ebnf):
 * which metadata kinds a version defines, the preamble order, what may
 * appear among body records, where CallArgument records may stand, and the
 * record-local field checks. */
#include "xray.h"

#include <inttypes.h>

#define MICROS_PER_SECOND 1000000

/* First and last version that defines each metadata kind. */
static const struct { uint16_t first, last; } kind_versions[XRAY_KIND_COUNT] = {
	[XRAY_NEW_BUFFER] = { 1, 5 },     [XRAY_END_OF_BUFFER] = { 1, 1 },
	[XRAY_NEW_CPU] = { 1, 5 },        [XRAY_TSC_WRAP] = { 1, 5 },
	[XRAY_WALLCLOCK] = { 1, 5 },      [XRAY_CUSTOM_EVENT] = { 1, 5 },
	[XRAY_CALL_ARGUMENT] = { 1, 5 },  [XRAY_BUFFER_EXTENTS] = { 2, 5 },
	[XRAY_TYPED_EVENT] = { 2, 5 },    [XRAY_PID] = { 3, 5 },
};

static struct tl_location at_record(const struct xray_record *rec)
{
	return tl_at_record(rec->offset, rec->index);
}

static const char *record_name(const struct xray_record *rec)
{
	return rec->metadata ? tl_xray_kind_name(rec->kind) : tl_xray_action_name(rec->action);
}

static bool kind_is_known(const struct xray_run *run, const struct xray_record *rec)
{
	struct tl_location at = at_record(rec);
	if (rec->kind >= XRAY_KIND_COUNT) {
		tl_report(run->ctx, RULE_XRAY_FDR_METADATA_KIND, &at,
			  MSG_XRAY_FDR_METADATA_KIND,
			  (unsigned)rec->kind, run->buf->index);
		return false;
	}
	uint16_t v = run->hdr->version;
	if (v < kind_versions[rec->kind].first || v > kind_versions[rec->kind].last) {
		tl_report(run->ctx, RULE_XRAY_FDR_KIND_VERSION, &at,
			  MSG_XRAY_FDR_KIND_VERSION,
			  tl_xray_kind_name(rec->kind), (unsigned)v,
			  (unsigned)kind_versions[rec->kind].first,
			  (unsigned)kind_versions[rec->kind].last, run->buf->index);
		return false;
	}
	return true;
}

/* Checks that need only the record itself. */
static void check_fields(const struct xray_run *run, const struct xray_record *rec)
{
	struct tl_location at = at_record(rec);
	if (!rec->metadata) {
		if (rec->action > XRAY_ENTRY_ARGS)
			tl_report(run->ctx, RULE_XRAY_FDR_FUNCTION_ACTION, &at,
				  MSG_XRAY_FDR_FUNCTION_ACTION,
				  (unsigned)rec->action, rec->function_id);
		if (rec->function_id == 0)
			tl_report(run->ctx, RULE_XRAY_FUNCTION_ID_ZERO, &at,
				  MSG_XRAY_FUNCTION_ID_ZERO_2,
				  tl_xray_action_name(rec->action));
		tl_xray_check_function_id(run->ctx, run->map, rec->function_id, rec->offset, rec->index);
		return;
	}
	switch (rec->kind) {
	case XRAY_WALLCLOCK:
		if (rec->micros < 0 || rec->micros >= MICROS_PER_SECOND) {
			at.offset += 9;
			tl_report(run->ctx, RULE_XRAY_FDR_WALLCLOCK_MICROS, &at,
				  MSG_XRAY_FDR_WALLCLOCK_MICROS,
				  rec->micros);
		}
		break;
	case XRAY_NEW_BUFFER:
	case XRAY_PID:
		if (rec->value <= 0) {
			at.offset += 1;
			tl_report(run->ctx, RULE_XRAY_FDR_THREAD_ID, &at,
				  MSG_XRAY_FDR_THREAD_ID,
				  rec->kind == XRAY_PID ? "process id" : "thread id",
				  tl_xray_kind_name(rec->kind), rec->value);
		}
		break;
	case XRAY_CUSTOM_EVENT:
	case XRAY_TYPED_EVENT:
		if (rec->value == 0) {
			at.offset += 1;
			tl_report(run->ctx, RULE_XRAY_FDR_EVENT_EMPTY, &at,
				  MSG_XRAY_FDR_EVENT_EMPTY,
				  tl_xray_kind_name(rec->kind));
		}
		break;
	default:
		break;
	}
}

static enum xray_kind expected_kind(const struct xray_grammar *g)
{
	switch (g->state) {
	case XRAY_EXPECT_NEW_BUFFER: return XRAY_NEW_BUFFER;
	case XRAY_EXPECT_WALLCLOCK: return XRAY_WALLCLOCK;
	case XRAY_EXPECT_PID: return XRAY_PID;
	default: return XRAY_NEW_CPU;
	}
}

static enum xray_grammar_state next_preamble_state(enum xray_grammar_state s, uint16_t version)
{
	switch (s) {
	case XRAY_EXPECT_NEW_BUFFER: return XRAY_EXPECT_WALLCLOCK;
	case XRAY_EXPECT_WALLCLOCK: return version >= 3 ? XRAY_EXPECT_PID : XRAY_EXPECT_NEW_CPU;
	case XRAY_EXPECT_PID: return XRAY_EXPECT_NEW_CPU;
	default: return XRAY_IN_BODY;
	}
}

static void preamble_step(struct xray_grammar *g, const struct xray_run *run,
			  const struct xray_record *rec)
{
	enum xray_kind want = expected_kind(g);
	if (rec->metadata && rec->kind == want) {
		g->state = next_preamble_state(g->state, run->hdr->version);
		return;
	}
	struct tl_location at = at_record(rec);
	tl_report(run->ctx, RULE_XRAY_FDR_PREAMBLE, &at,
		  MSG_XRAY_FDR_PREAMBLE,
		  tl_xray_kind_name(want), run->buf->index, record_name(rec));
	/* Judge the rest of the buffer as body records, without a cascade. */
	g->state = XRAY_IN_BODY;
}

static bool is_preamble_kind(unsigned kind)
{
	return kind == XRAY_NEW_BUFFER || kind == XRAY_WALLCLOCK || kind == XRAY_PID ||
	       kind == XRAY_BUFFER_EXTENTS;
}

static void call_argument_step(struct xray_grammar *g, const struct xray_run *run,
			       const struct xray_record *rec)
{
	struct tl_location at = at_record(rec);
	if (g->previous == XRAY_PREV_OTHER)
		tl_report(run->ctx, RULE_XRAY_FDR_CALL_ARGUMENT_ORDER, &at,
			  MSG_XRAY_FDR_CALL_ARGUMENT_ORDER, g->last_name);
	else if (g->previous == XRAY_PREV_ENTRY && run->hdr->version >= 5)
		tl_report(run->ctx, RULE_XRAY_FDR_CALL_ARGUMENT_PLAIN_ENTRY, &at,
			  MSG_XRAY_FDR_CALL_ARGUMENT_PLAIN_ENTRY);
}

static void close_entry_args(struct xray_grammar *g, const struct xray_run *run)
{
	if (!g->entry_args_open)
		return;
	g->entry_args_open = false;
	struct tl_location at = at_record(&g->entry_args);
	tl_report(run->ctx, RULE_XRAY_FDR_ENTRY_ARGS_WITHOUT_ARGUMENT, &at,
		  MSG_XRAY_FDR_ENTRY_ARGS_WITHOUT_ARGUMENT,
		  g->entry_args.function_id, g->last_name);
}

static void body_step(struct xray_grammar *g, const struct xray_run *run,
		      const struct xray_record *rec)
{
	if (rec->metadata && is_preamble_kind(rec->kind)) {
		struct tl_location at = at_record(rec);
		tl_report(run->ctx, RULE_XRAY_FDR_PREAMBLE_IN_BODY, &at,
			  MSG_XRAY_FDR_PREAMBLE_IN_BODY,
			  run->buf->index, tl_xray_kind_name(rec->kind));
	}
	if (rec->metadata && rec->kind == XRAY_CALL_ARGUMENT)
		call_argument_step(g, run, rec);
}

static enum xray_previous classify(const struct xray_record *rec)
{
	if (rec->metadata)
		return rec->kind == XRAY_CALL_ARGUMENT ? XRAY_PREV_ARGUMENT : XRAY_PREV_OTHER;
	if (rec->action == XRAY_ENTRY)
		return XRAY_PREV_ENTRY;
	return rec->action == XRAY_ENTRY_ARGS ? XRAY_PREV_ENTRY_ARGS : XRAY_PREV_OTHER;
}

static const char *describe(const struct xray_record *rec)
{
	if (!rec->metadata)
		return rec->action == XRAY_EXIT ? "an Exit" :
		       rec->action == XRAY_TAIL_EXIT ? "a Tail_Exit" : "a function record";
	return tl_xray_kind_name(rec->kind);
}

void tl_xray_grammar_begin(struct xray_grammar *g)
{
	g->state = XRAY_EXPECT_NEW_BUFFER;
	g->previous = XRAY_PREV_OTHER;
	g->entry_args_open = false;
	g->last_name = "the start of the buffer";
}

bool tl_xray_grammar_record(struct xray_grammar *g, const struct xray_run *run,
			 const struct xray_record *rec)
{
	bool is_argument = rec->metadata && rec->kind == XRAY_CALL_ARGUMENT;
	if (is_argument) {
		g->entry_args_open = false;     /* the Entry_Args got its argument */
	} else {
		g->last_name = describe(rec);
		close_entry_args(g, run);
	}
	bool ended = false;
	if (rec->metadata && !kind_is_known(run, rec)) {
		g->previous = XRAY_PREV_OTHER;
		return false;
	}
	check_fields(run, rec);
	if (g->state < XRAY_IN_BODY)
		preamble_step(g, run, rec);
	else
		body_step(g, run, rec);
	if (rec->metadata && rec->kind == XRAY_END_OF_BUFFER) {
		g->state = XRAY_AFTER_END;
		ended = true;
	}
	if (!rec->metadata && rec->action == XRAY_ENTRY_ARGS) {
		g->entry_args = *rec;
		g->entry_args_open = true;
	}
	g->previous = classify(rec);
	g->last_name = describe(rec);
	return ended;
}

void tl_xray_grammar_after_function(struct xray_grammar *g, unsigned action)
{
	struct xray_record rec = { .action = (uint8_t)action };
	g->previous = classify(&rec);
	g->last_name = describe(&rec);
}

void tl_xray_grammar_end(struct xray_grammar *g, const struct xray_run *run, int64_t next_index)
{
	g->last_name = "the end of the buffer";
	close_entry_args(g, run);
	if (g->state >= XRAY_IN_BODY)
		return;
	struct tl_location at = tl_at_record(run->buf->end, next_index);
	tl_report(run->ctx, RULE_XRAY_FDR_PREAMBLE, &at,
		  MSG_XRAY_FDR_PREAMBLE_2,
		  tl_xray_kind_name(expected_kind(g)), run->buf->index);
}
