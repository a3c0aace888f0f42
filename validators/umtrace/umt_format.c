/* UMTracer trace directories: registration, probe, and the checking order of
 * headers first (a table whose header fails is skipped with everything
 * that points into it). A single table file is validated alone, cross-table checks off. */
#include "umt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : (path ? path : "");
}

static int member_by_name(const char *name)
{
	for (int m = 0; m < M_COUNT; m++)
		if (!strcmp(name, tl_umt_member_name[m]))
			return m;
	return -1;
}

/* A single file without a known name: recognise a fixed-size table by its header. */
static int member_by_content(const struct tl_input *in)
{
	uint64_t elems;
	if (in->size == UMT_CMAP_SIZE && umt_rd(in, 2, 2, &elems) && elems <= 512)
		return M_CONTEXT_MAP;
	uint64_t v[UMT_H_N], bytes, end;
	if (!umt_table_header_fields(in, 32, v) || v[UMT_H_VER] != 0 || v[UMT_H_RECORD_VER] > 1)
		return -1;
	/* RowSize and TableFP as unsigned: a negative one is then too large */
	int64_t rows = umt_signed(v[UMT_H_ROWS]);
	uint64_t row_size = v[UMT_H_ROW_SIZE], fp = v[UMT_H_FP];
	if (rows < 0 || !tl_mul_u64((uint64_t)rows, row_size, &bytes) ||
	    !tl_add_u64(fp, bytes, &end) || end > in->size)
		return -1;
	if (fp == 32 && row_size == 48)
		return M_THREAD;
	if (fp == 32 && row_size == 16)
		return M_ADDRESS;
	if (fp >= 48 && row_size == 64 && in->size >= 48) {
		/* ins rows start with ID 0 and a code size 1..15 */
		static const struct umt_field first[2] = { { 0, 8, false }, { 10, 1, false } };
		struct tl_cursor row;
		uint64_t f[2]; /* ID, CodeSize */
		if (rows == 0 || (umt_row_fields(in, fp, 64, &row, first, 2, f) && f[0] == 0 &&
				  f[1] - 1 < 15))
			return M_INS;
	}
	if (fp >= 48 && (row_size == 48 || row_size == 64))
		return M_MODULE;
	return -1;
}

static bool named(const char *base)
{
	return member_by_name(base) >= 0;
}

/* A directory holding two tables or indexes of a trace is that trace, so
 * that one that lost its exec.vtable is judged (and found missing it); one
 * table alone in a directory is validated alone, and trace.xml is too
 * common a name to count. */
static bool holds_tables(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	int found = 0;
	while (found < 2 && (e = readdir(d)) != NULL) {
		int m = member_by_name(e->d_name);
		found += m >= 0 && m != M_XML;
	}
	closedir(d);
	return found >= 2;
}

static int probe(const struct tl_input *in, const char **why_not)
{
	if (in->is_directory) {
		char path[4096];
		struct stat st;
		int n = snprintf(path, sizeof path, "%s/exec.vtable", in->name ? in->name : ".");
		if (n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0)
			return 90;
		if (holds_tables(in->name ? in->name : "."))
			return 60;
		*why_not = "no UMTracer table in the directory";
		return 0;
	}
	if (member_by_content(in) >= 0)
		return 30;
	*why_not = "not a UMTracer table (no fixed-size table header)";
	return 0;
}

static void open_members(struct umt_trace *t)
{
	for (int m = 0; m < M_COUNT; m++) {
		char err[256] = "";
		if (tl_open_member(t->ctx, tl_umt_member_name[m], &t->f[m], err, sizeof err)) {
			t->have[m] = true;
			continue;
		}
		if (t->ctx->unreadable)
			return; /* present but unreadable: no verdict (validate.c) */
		/* Which file is missing is the diagnostic: the member names itself. */
		tl_umt_report(t, (enum umt_member)m, RULE_UMT_FILE_MISSING, 0,
			   MSG_UMT_FILE_MISSING, tl_umt_member_name[m], err);
	}
}

static void run_fixed(struct umt_trace *t, enum umt_member m, struct umt_table *tab)
{
	if (t->have[m])
		tl_umt_check_table_header(t, m, tab);
}

/* The steps in a fixed order: each decode step checks its table and fills its own
 * field of *tabs; each check reads what was decoded before it and keeps its own
 * state. What the record pass hands on (chains, links) goes only to the checks after
 * it. Returns whether the record pass located every record. */
static bool run_all(struct umt_trace *t, struct umt_tables *tabs)
{
	run_fixed(t, M_INS, &tabs->ins);
	run_fixed(t, M_MODULE, &tabs->module);
	run_fixed(t, M_THREAD, &tabs->thread);
	run_fixed(t, M_ADDRESS, &tabs->address);
	if (t->have[M_CONTEXT_MAP])
		tl_umt_check_context_map(t, &tabs->cmap);
	if (t->have[M_XML])
		tl_umt_check_xml(t, &tabs->bitness);
	bool exec_files = t->have[M_EXEC_VTABLE] && (t->single || (t->have[M_EXEC_OFFSETS] &&
								     t->have[M_EXEC_PREVNEXT]));
	if (exec_files)
		tl_umt_check_exec_index(t, &tabs->exec);
	if (tabs->module.ok) {
		tl_umt_check_modules(t, tabs);
		tl_umt_check_module_overlap(t, &tabs->module);
	}
	if (tabs->ins.ok)
		tl_umt_check_instructions(t, tabs, &tabs->ins_bad);
	if (t->have[M_SYSCALL_VTABLE] && (t->single || t->have[M_SYSCALL_OFFSETS]))
		tl_umt_check_syscall_table(t, &tabs->syscall);
	if (tabs->syscall.ok)
		tl_umt_check_syscall_overlap(t, &tabs->syscall);
	/* before the record pass, which looks memory references up in the ranges (UMT-RANGES-COVER-MEMORY) */
	if (tabs->address.ok)
		tl_umt_check_addresses(t, &tabs->address, &tabs->ranges_ok);
	/* the record pass follows the threads' chains and sees the syscalls' links, for
	 * the checks of the thread rows and of the syscall links after it */
	struct umt_chains chains = { NULL };
	struct umt_links links = { NULL, NULL, NULL, false };
	bool located = tl_umt_check_exec_records(t, tabs, &chains, &links);
	if (tabs->thread.ok)
		tl_umt_check_threads(t, &tabs->thread, &chains);
	tl_umt_check_syscall_links(t, tabs, &links);
	tl_umt_chains_end(&chains);
	tl_umt_links_end(&links);
	return located;
}

static void validate_single(struct umt_trace *t, struct umt_tables *tabs, const struct tl_input *in)
{
	int m = member_by_name(base_name(in->name));
	if (m < 0)
		m = member_by_content(in);
	if (m < 0 || m == M_EXEC_OFFSETS || m == M_EXEC_PREVNEXT || m == M_SYSCALL_OFFSETS) {
		struct tl_location loc = tl_at(0);
		tl_report(t->ctx, RULE_UMT_NOT_A_TABLE, &loc,
			  MSG_UMT_NOT_A_TABLE,
			  m < 0 ? "an unrecognised file" : tl_umt_member_name[m]);
		return;
	}
	t->single = true;
	t->f[m] = *in;
	t->have[m] = true;
	tl_umt_report(t, (enum umt_member)m, RULE_UMT_SINGLE_TABLE, 0,
		   MSG_UMT_SINGLE_TABLE,
		   tl_umt_member_name[m]);
	run_all(t, tabs);
	memset(&t->f[m], 0, sizeof t->f[m]); /* owned by the caller */
}

/* The verdict's detail: what the trace holds, as far as its tables could be read;
 * records counted only when the record pass located them all. */
static void describe(struct umt_trace *t, const struct umt_tables *tabs, bool located)
{
	char bits[24] = "";
	if (tabs->bitness)
		snprintf(bits, sizeof bits, "%u-bit, ", tabs->bitness);
	if (t->single)
		tl_set_detail(t->ctx, "one table alone");
	else
		tl_set_detail(t->ctx, "%s%llu exec record(s), %llu thread(s), %llu module(s), %llu syscall(s)", bits,
			      (unsigned long long)(located ? tabs->exec.count : 0),
			      (unsigned long long)(tabs->thread.ok ? tabs->thread.rows : 0),
			      (unsigned long long)(tabs->module.ok ? tabs->module.rows : 0),
			      (unsigned long long)(tabs->syscall.ok ? tabs->syscall.count : 0));
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	struct umt_trace *t = calloc(1, sizeof *t);
	if (!t) {
		tl_out_of_memory(ctx);
		return;
	}
	t->ctx = ctx;
	struct umt_tables tabs = { .bitness = 0 }; /* nothing decoded yet: every field zero */
	bool located = false;
	if (in->is_directory) {
		open_members(t);
		if (!ctx->unreadable)
			located = run_all(t, &tabs);
		for (int m = 0; m < M_COUNT; m++)
			if (t->have[m])
				tl_close_input(t->ctx, &t->f[m]);
	} else {
		validate_single(t, &tabs, in);
	}
	if (!ctx->unreadable)
		describe(t, &tabs, located);
	free(tabs.ins_bad);
	free(tabs.syscall.bad);
	free(t);
}

/* No stepper: validated whole when a stream finishes. */
const struct tl_format tl_format_umtrace = {
	.id = TL_FORMAT_UMTRACE,
	.name = "umtrace",
	.summary = "UMTracer/UMTIndex trace directory (11 files)",
	.directory = true,
	.probe = probe,
	.validate = validate,
	.describe = tl_umt_describe, /* the fixed-size tables' fields; elsewhere the byte */
	.named = named,
};
