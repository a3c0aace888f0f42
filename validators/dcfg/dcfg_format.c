/* Registration of the DCFG and DCFG-trace validators: content probes (the
 * top-level keys tell the two apart) and the validation entry points. */
#include "cursor.h"
#include "format.h"
#include "trace_read.h"

#include <stdio.h>
#include <string.h>

#define PROBE_WINDOW 65536

static bool contains(const uint8_t *p, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i + w <= n; i++)
		if (p[i] == (uint8_t)word[0] && !memcmp(p + i, word, w))
			return true;
	return false;
}

/* 0: not a JSON object; otherwise which kind of stream the keys suggest. */
static int probe_kind(const struct tl_input *in, const char **why_not)
{
	size_t n = in->size < PROBE_WINDOW ? in->size : PROBE_WINDOW, i = 0;
	struct tl_cursor window;
	const uint8_t *p = NULL;
	/* the first n bytes, checked once; an empty input has none */
	if (!tl_cursor_at(&window, in->data, in->size, 0, n) || !tl_cursor_bytes(&window, n, &p))
		n = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i >= n || p[i] != '{') {
		*why_not = "not a JSON object";
		return 0;
	}
	if (contains(p + i, n - i, "\"STRING_DICTIONARY\"") || contains(p + i, n - i, "\"TRANSITION_TABLE\"") ||
	    contains(p + i, n - i, "\"THREAD_DATA\""))
		return 2;
	if (contains(p + i, n - i, "\"PROCESS_DATA\"") || contains(p + i, n - i, "\"FILE_NAMES\"") ||
	    contains(p + i, n - i, "\"EDGE_TYPES\"") || contains(p + i, n - i, "\"SPECIAL_NODES\""))
		return 1;
	if (contains(p + i, n - i, "\"MAJOR_VERSION\""))
		return 3;
	*why_not = "a JSON object without DCFG keys";
	return 0;
}

static bool named_dcfg(const char *base) { return tl_name_ends_with(base, ".dcfg.json"); }
static bool named_trace(const char *base) { return tl_name_ends_with(base, ".trace.json"); }

static int probe_dcfg(const struct tl_input *in, const char **why_not)
{
	int k = probe_kind(in, why_not);
	if (k == 2)
		*why_not = "a DCFG-trace (STRING_DICTIONARY/TRANSITION_TABLE/THREAD_DATA keys)";
	return k == 1 ? 90 : k == 3 ? 30 : 0;
}

static int probe_trace(const struct tl_input *in, const char **why_not)
{
	int k = probe_kind(in, why_not);
	if (k == 1 || k == 3)
		*why_not = "no STRING_DICTIONARY/TRANSITION_TABLE/THREAD_DATA keys";
	return k == 2 ? 90 : 0;
}

static void validate_dcfg(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct tl_json_check v = { .ctx = ctx, .in = in };
	struct tl_dcfg_model m;
	tl_dcfg_read(&v, in->data, in->size, DCFG_VERDICT, &m);
	if (v.doc.nomem)
		tl_jv_out_of_memory(&v);
	uint64_t blocks = 0, edges = 0;
	for (uint32_t i = 0; i < m.nprocs; i++) {
		blocks += m.procs[i].nblocks;
		edges += m.procs[i].nedges;
	}
	if (v.doc.n)
		tl_set_detail(ctx, "%u process(es), %llu blocks, %llu edges", m.nprocs, (unsigned long long)blocks,
			      (unsigned long long)edges);
	else
		tl_set_detail(ctx, "no JSON value read");
	tl_dcfg_model_free(&m);
	tl_json_free(&v.doc);
}

static void validate_trace(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct tl_json_check v = { .ctx = ctx, .in = in };
	struct tl_json_check pv = { .ctx = NULL };
	struct tl_dcfg_model m;
	struct tl_input pin;
	bool paired = false, opened = false;
	memset(&m, 0, sizeof m);
	if (ctx->opts->pair_path) {
		struct tl_location loc = tl_at_text(0, 1, 1);
		/* An unreadable --pair is no verdict on the trace: exit 2 (validate.c). */
		if (tl_open_option_input(ctx, "--pair", ctx->opts->pair_path, &pin)) {
			opened = true;
			pv.in = &pin;
			tl_dcfg_read(&pv, pin.data, pin.size, DCFG_PAIRING, &m);
			/* The pair is checked silently, so nothing reports at its nodes
			 * again: only the model is kept. */
			bool nomem = pv.nomem || pv.doc.nomem;
			tl_json_free(&pv.doc);
			if (nomem)
				tl_out_of_memory(ctx);
			else if (pv.failed)
				tl_report(ctx, RULE_PAIR_DCFG, &loc,
					  MSG_PAIR_DCFG,
					  ctx->opts->pair_path);
			else
				paired = true;
		}
	}
	struct tl_dcfg_trace_summary sum = { 0 };
	if (!ctx->unreadable)
		tl_dcfg_trace_read(&v, in->data, in->size, paired ? &m : NULL, &sum);
	if (v.doc.nomem)
		tl_jv_out_of_memory(&v);
	if (v.doc.n)
		tl_set_detail(ctx, "%llu process(es), %llu thread(s), %llu chunk(s), %llu edges%s%s",
			      (unsigned long long)sum.processes, (unsigned long long)sum.threads,
			      (unsigned long long)sum.chunks, (unsigned long long)sum.edges,
			      paired ? "; paired with " : "", paired ? ctx->opts->pair_path : "");
	else
		tl_set_detail(ctx, "no JSON value read");
	tl_json_free(&v.doc);
	tl_json_free(&pv.doc);
	tl_dcfg_model_free(&m);
	if (opened)
		tl_close_input(ctx, &pin);
}

/* No stepper: validated whole when a stream finishes. No describe: JSON
 * diagnostics show their line, not bytes. */
const struct tl_format tl_format_dcfg = {
	.id = TL_FORMAT_DCFG,
	.name = "dcfg",
	.summary = "Intel DCFG 1.00 (JSON control-flow graph)",
	.probe = probe_dcfg,
	.validate = validate_dcfg,
	.named = named_dcfg,
};
const struct tl_format tl_format_dcfg_trace = {
	.id = TL_FORMAT_DCFG_TRACE,
	.name = "dcfg-trace",
	.summary = "Intel DCFG-trace 1.00 (JSON edge traces)",
	.probe = probe_trace,
	.validate = validate_trace,
	.named = named_trace,
};
