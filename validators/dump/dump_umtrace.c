/* UMTracer dump: a trace directory's threads (thread.itable), modules
 * (module.itable), execution records (exec.vtable through exec.offsets:
 * thread, type, flags, size and the instruction or syscall id they name) and
 * syscalls (syscall.vtable blocks). The tables are read with the validator's
 * decode steps and row readers (umt.h) in a context that reports nothing;
 * a table whose header does not hold is left out and the dump says so. */
#include "dump.h"
#include "quiet_ctx.h"
#include "umt.h"

#include <stdlib.h>
#include <string.h>

enum { T_ID, T_FIRST, T_LAST, T_COUNT, T_N };

static void threads(struct dump_run *r, struct umt_trace *t, const struct umt_table *thread)
{
	/* threadRec: ID, FirstEID, LastEID, RecCount */
	static const struct umt_field row_layout[T_N] = {
		{ 0, 4, true }, { 16, 8, true }, { 24, 8, true }, { 32, 8, true },
	};
	struct jl *j = &r->jl;
	for (uint64_t k = 0; k < thread->rows; k++) {
		struct tl_cursor row;
		uint64_t v[T_N];
		if (!umt_table_fields(&t->f[M_THREAD], thread, k, &row, row_layout, T_N, v))
			break;
		if (!dump_take(r))
			return;
		jl_begin(j, "thread");
		jl_i64(j, "id", umt_signed(v[T_ID]));
		jl_i64(j, "first-eid", umt_signed(v[T_FIRST]));
		jl_i64(j, "last-eid", umt_signed(v[T_LAST]));
		jl_i64(j, "record-count", umt_signed(v[T_COUNT]));
		jl_u64(j, "offset", tl_cursor_offset(&row));
		jl_end(j);
	}
}

static void modules(struct dump_run *r, struct umt_trace *t, const struct umt_table *module)
{
	struct jl *j = &r->jl;
	for (uint64_t k = 0; k < module->rows; k++) {
		struct umt_module_row m;
		if (!tl_umt_module_row(t, module, k, &m))
			break;
		if (!dump_take(r))
			return;
		jl_begin(j, "module");
		jl_u64(j, "index", k);
		jl_u64(j, "start", m.start);
		jl_u64(j, "end", m.end);
		jl_i64(j, "load-eid", m.load);
		jl_i64(j, "unload-eid", m.unload);
		jl_u64(j, "offset", m.at);
		jl_end(j);
	}
}

static void records(struct dump_run *r, struct umt_trace *t, const struct umt_exec_index *exec)
{
	struct jl *j = &r->jl;
	uint64_t start = exec->first;
	for (uint64_t i = 0; i < exec->count; i++) {
		uint64_t end;
		/* exec.offsets holds RecordCount + 1 entries */
		if (!umt_rd(&t->f[M_EXEC_OFFSETS], 8 * i + 8, 8, &end) || end <= start || end > exec->last) {
			dump_stop(r, "exec.offsets does not locate record %llu", (unsigned long long)i);
			return;
		}
		struct tl_cursor rec;
		uint64_t v[4] = { 0, 0, 0, 0 };
		if (!umt_row(&t->f[M_EXEC_VTABLE], start, end - start, &rec) || !umt_record_head(&rec, 3, v)) {
			dump_stop(r, "record %llu at offset %llu of exec.vtable cannot be read",
				  (unsigned long long)i, (unsigned long long)start);
			return;
		}
		uint64_t type = v[UMT_R_TYPE];
		bool has_id = type == 0 || (type >= 4 && type <= 6);
		if (has_id)
			(void)umt_record_head(&rec, 4, v);
		if (dump_take(r)) {
			jl_begin(j, "record");
			jl_u64(j, "eid", i);
			jl_i64(j, "thread", umt_signed(v[UMT_R_THREAD]));
			jl_u64(j, "type", type);
			jl_u64(j, "flags", v[UMT_R_FLAGS]);
			if (has_id)
				jl_i64(j, type == 0 ? "ins-id" : "syscall-id", umt_signed(v[UMT_R_ID]));
			jl_u64(j, "size", end - start);
			jl_u64(j, "offset", start);
			jl_end(j);
		} else {
			return;
		}
		start = end;
		if ((i & 0xffff) == 0)
			tl_umt_drop_pages(t, M_EXEC_VTABLE);
	}
}

static void syscalls(struct dump_run *r, struct umt_trace *t, const struct umt_syscalls *sys)
{
	struct jl *j = &r->jl;
	for (uint64_t s = 0; s < sys->count; s++) {
		struct umt_syscall_rec rec;
		if (umt_bit(sys->bad, s) || !tl_umt_syscall_rec(t, s, &rec))
			continue;
		if (!dump_take(r))
			return;
		jl_begin(j, "syscall");
		jl_u64(j, "index", s);
		jl_i64(j, "convention", rec.convention);
		jl_u64(j, "completed", rec.completed);
		jl_i64(j, "arg-count", rec.args);
		jl_i64(j, "extra-count", rec.extras);
		jl_i64(j, "begin-eid", rec.begin);
		jl_i64(j, "end-eid", rec.end);
		jl_u64(j, "result", rec.result);
		jl_u64(j, "offset", rec.at);
		jl_end(j);
	}
}

void tl_dump_umtrace(struct dump_run *r)
{
	struct quiet_ctx q;
	quiet_ctx_init(&q, r->opts, r->path);
	struct umt_trace *t = calloc(1, sizeof *t);
	struct umt_tables *tabs = calloc(1, sizeof *tabs);
	if (!t || !tabs) {
		free(t);
		free(tabs);
		dump_stop(r, "out of memory");
		return;
	}
	t->ctx = &q.ctx;
	char err[256];
	if (r->in->is_directory) {
		for (int m = 0; m < M_COUNT; m++)
			t->have[m] = tl_open_member(t->ctx, tl_umt_member_name[m], &t->f[m], err, sizeof err);
	} else {
		/* One member alone: the one its name ends with (thread.itable,
		 * my-module.itable); another name is dumped as a header only. */
		size_t n = strlen(r->path);
		t->single = true;
		for (int m = 0; m < M_COUNT; m++) {
			size_t k = strlen(tl_umt_member_name[m]);
			if (n >= k && strcmp(r->path + n - k, tl_umt_member_name[m]) == 0) {
				t->f[m] = *r->in;
				t->have[m] = true;
				break;
			}
		}
	}
	static const struct { enum umt_member m; size_t at; } fixed[] = {
		{ M_THREAD, offsetof(struct umt_tables, thread) },
		{ M_MODULE, offsetof(struct umt_tables, module) },
		{ M_INS, offsetof(struct umt_tables, ins) },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (t->have[fixed[i].m])
			tl_umt_check_table_header(t, fixed[i].m, (struct umt_table *)((char *)tabs + fixed[i].at));
	if (t->have[M_EXEC_VTABLE] && t->have[M_EXEC_OFFSETS])
		tl_umt_check_exec_index(t, &tabs->exec);
	if (t->have[M_SYSCALL_VTABLE] && t->have[M_SYSCALL_OFFSETS])
		tl_umt_check_syscall_table(t, &tabs->syscall);
	struct jl *j = &r->jl;
	jl_begin(j, "header");
	jl_str(j, "format", "umtrace");
	jl_bool(j, "single-member", t->single);
	jl_array_begin(j, "members");
	for (int m = 0; m < M_COUNT; m++)
		if (t->have[m])
			jl_str(j, NULL, tl_umt_member_name[m]);
	jl_array_end(j);
	if (tabs->exec.ok) {
		jl_u64(j, "exec-version", tabs->exec.version);
		jl_u64(j, "records", tabs->exec.count);
	}
	jl_end(j);
	bool whole = !t->single;
	if (tabs->thread.ok)
		threads(r, t, &tabs->thread);
	else if (whole)
		dump_stop(r, "thread.itable is missing or its header does not hold");
	if (tabs->module.ok)
		modules(r, t, &tabs->module);
	else if (whole)
		dump_stop(r, "module.itable is missing or its header does not hold");
	if (tabs->exec.ok)
		records(r, t, &tabs->exec);
	else if (whole)
		dump_stop(r, "exec.vtable or exec.offsets is missing or does not hold");
	if (tabs->syscall.ok)
		syscalls(r, t, &tabs->syscall);
	for (int m = 0; m < M_COUNT && whole; m++)
		if (t->have[m])
			tl_close_input(t->ctx, &t->f[m]);
	free(tabs->ins_bad);
	free(tabs->syscall.bad);
	free(tabs);
	free(t);
}
