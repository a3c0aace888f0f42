/* The one streaming pass over execution records: layout per type, references into the
 * other tables, and each thread's Prev/Next chain (memory: one state per thread). */
#include "umt.h"

#include <stdlib.h>

struct rec {
	struct tl_cursor c;           /* the record's bytes [start, end), checked as a whole */
	uint64_t eid, start, end, size;
	int64_t thread;
	uint64_t type, flags;
};

/* The pass's own state: what its checks remember from record to record. */
struct pass {
	struct umt_trace *t;
	struct umt_tables tabs;      /* a copy of what was decoded before the pass, read only */
	struct umt_chains *chains;   /* filled for the thread rows' check */
	struct umt_links *links;     /* filled for the syscall links' check */
	struct umt_memory memory;    /* the memory operand check's (umt_exec_memory.c) */
	uint64_t range_hit;          /* the address range of the last context dump looked up */
	int cs_bit;                  /* flag 0x01 all records should share (UMT-RECORD-BITNESS); -1 unknown */
	bool cs_bit_reported;
	bool app_end_seen;
};

static bool valid_type(uint64_t type) { return type <= 6 || (type >= 8 && type <= 11); }

static bool has_context(uint64_t type) { return type == 1 || type == 4 || type == 5 || type >= 8; }

static bool size_fits(const struct rec *r, uint64_t *want, const char **how)
{
	switch (r->type) {
	case 2: case 3: *want = 10; *how = "exactly"; return r->size == 10;
	case 6: *want = 14; *how = "exactly"; return r->size == 14;
	case 4: case 5: *want = 30; *how = "at least"; return r->size >= 30;
	case 0: *want = 14; *how = "at least"; return r->size >= 14;
	default: *want = 22; *how = "at least"; return r->size >= 22;
	}
}

static bool listed(struct pass *p, uint64_t addr, uint64_t size)
{
	uint64_t last = addr + (size - 1);
	return umt_address_listed(p->t, &p->tabs.address, &p->range_hit, addr,
				     last < addr ? UINT64_MAX : last);
}

static void check_context(struct pass *p, const struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	uint64_t rel = r->type == 4 || r->type == 5 ? 14 : 6, c = r->start + rel;
	/* contextHdr: MemCount, RegsFP; contextMem: Address, Size, DataFP */
	static const struct umt_field header[2] = { { 0, 4, true }, { 8, 8, true } };
	static const struct umt_field mem[3] = { { 0, 8, false }, { 8, 8, false }, { 16, 8, true } };
	uint64_t v[3], data_lo;
	/* size_fits left 16 bytes of context header in the record */
	if (!umt_get_fields_at(&r->c, rel, header, 2, v))
		return;
	int64_t mem_count = umt_signed(v[0]), regs = umt_signed(v[1]);
	if (mem_count < 0 || !tl_umt_inside(c, 16 + 24 * (uint64_t)mem_count, c, r->end)) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_CONTEXT_MEM_COUNT, c,
			   MSG_UMT_CONTEXT_MEM_COUNT,
			   (unsigned long long)r->eid, (unsigned long long)r->end, (long long)mem_count);
		return;
	}
	data_lo = c + 16 + 24 * (uint64_t)mem_count;
	if (tabs->cmap.ok && !tl_umt_fp_inside(c, regs, tabs->cmap.dump_size, data_lo, r->end, NULL))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_CONTEXT_REGS_IN_RECORD, c + 8,
			   MSG_UMT_CONTEXT_REGS_IN_RECORD,
			   (long long)regs, tabs->cmap.dump_size, (unsigned long long)(data_lo - c),
			   (unsigned long long)(r->end - c), (unsigned long long)c);
	bool want_tib = r->type == 1 && tabs->thread.ok && r->thread >= 0 &&
			(uint64_t)r->thread < tabs->thread.rows;
	static const struct umt_field tib_addr[1] = { { 8, 8, false } }; /* threadRec TIBAddr */
	uint64_t tib = 0;
	struct tl_cursor trow;
	if (want_tib && !umt_table_fields(&t->f[M_THREAD], &tabs->thread, (uint64_t)r->thread, &trow,
					  tib_addr, 1, &tib))
		want_tib = false; /* the thread table's header put its rows inside */
	bool tib_seen = false;
	for (int64_t k = 0; k < mem_count; k++) {
		/* contextMem k: inside the record, as the MemCount check above found */
		uint64_t mrel = rel + 16 + 24 * (uint64_t)k, m = r->start + mrel;
		if (!umt_get_fields_at(&r->c, mrel, mem, 3, v))
			break;
		uint64_t addr = v[0], msize = v[1];
		int64_t size, fp = umt_signed(v[2]);
		if (tib >= addr && tib - addr < msize)
			tib_seen = true;
		size = tl_sign_extend(msize, 64);
		bool data_ok = tl_umt_fp_inside(c, fp, size, data_lo, r->end, NULL);
		if (data_ok && size > 0 && tabs->ranges_ok && !listed(p, addr, (uint64_t)size))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RANGES_COVER_MEMORY, m,
				   MSG_UMT_RANGES_COVER_MEMORY_2,
				   (unsigned long long)r->eid, (long long)k, (unsigned long long)addr,
				   (long long)size);
		if (!data_ok)
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_CONTEXT_MEM_IN_RECORD, m + 8,
				   MSG_UMT_CONTEXT_MEM_IN_RECORD,
				   (long long)k, (long long)size, (long long)fp,
				   (unsigned long long)(data_lo - c), (unsigned long long)(r->end - c));
		if (!(r->flags & 1) && addr > UINT32_MAX)
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_CONTEXT_MEM_ADDR32, m,
				   MSG_UMT_CONTEXT_MEM_ADDR32,
				   (unsigned long long)addr);
	}
	if (want_tib && !tib_seen)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_CONTEXT_TIB, c,
			   MSG_UMT_CONTEXT_TIB,
			   (long long)r->thread, (unsigned long long)tib, (long long)mem_count);
}

static void check_instruction(struct pass *p, const struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	int64_t ins;
	if (!tabs->ins.ok || !umt_get_s(&r->c, 6, 8, &ins)) /* a type-0 record has 14 bytes or more */
		return;
	if (ins < 0 || (uint64_t)ins >= tabs->ins.rows) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_INS_RECORD_ID, r->start + 6,
			   MSG_UMT_INS_RECORD_ID, (unsigned long long)tabs->ins.rows,
			   (long long)ins);
		return;
	}
	struct umt_ins_info info;
	if (!umt_ins_lookup(t, tabs, (uint64_t)ins, &info))
		return;
	if (r->size != 14 + (uint64_t)info.lc_size)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_INS_RECORD_SIZE, r->start,
			   MSG_UMT_INS_RECORD_SIZE,
			   (unsigned long long)r->eid, (long long)info.lc_size, (long long)ins,
			   (unsigned long long)r->size);
	if (((r->flags & 1) != 0) != info.cs64)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_INS_RECORD_MODE, r->start + 5,
			   MSG_UMT_INS_RECORD_MODE,
			   info.cs64, (long long)ins, (unsigned long long)r->flags);
	if (r->size == 14 + (uint64_t)info.lc_size)
		tl_umt_check_memory_operands(t, &p->memory, r->eid, r->start, &info);
	if ((r->flags & 0x08) && !(info.flags & 3))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_REP_FLAG, r->start + 5,
			   MSG_UMT_RECORD_REP_FLAG,
			   (long long)ins, info.flags);
}

/* A type 4/5/6 record whose syscall names it back: remember it for the syscall side
 * (UMT-SYSCALL-BEGIN-EID/UMT-SYSCALL-END-EID), and whether entry and exit are in order on one thread (UMT-SYSCALL-END-ORDER). */
static void note_syscall_link(struct pass *p, const struct rec *r, uint64_t sid,
			      const struct umt_syscall_rec *call);

/* The syscall record named by a type 4/5/6 record points back at it. */
static void check_syscall_link(struct pass *p, const struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	int64_t sid;
	if (!tabs->syscall.ok || !umt_get_s(&r->c, 6, 8, &sid) || (r->type == 5 && sid == UMT_NONE))
		return;
	if (sid < 0 || (uint64_t)sid >= tabs->syscall.count) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_SYSCALL_ID, r->start + 6,
			   MSG_UMT_RECORD_SYSCALL_ID,
			   (unsigned long long)tabs->syscall.count, r->type == 5 ? " or -1" : "",
			   (long long)sid);
		return;
	}
	struct umt_syscall_rec call;
	/* a block not in syscall_bad passed its checks: it reads whole */
	if (umt_bit(tabs->syscall.bad, (uint64_t)sid) || !tl_umt_syscall_rec(t, (uint64_t)sid, &call))
		return;
	int64_t link = r->type == 4 ? call.begin : call.end;
	uint64_t completed = call.completed;
	if (link >= 0 && (uint64_t)link == r->eid) {
		if (r->type != 4 && (r->type == 5) != (completed == 1))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_SYSCALL_COMPLETED, r->start + 4,
				   MSG_UMT_RECORD_SYSCALL_COMPLETED,
				   (long long)sid, r->type == 5, (unsigned long long)r->type,
				   (unsigned long long)completed);
		note_syscall_link(p, r, (uint64_t)sid, &call);
		return;
	}
	/* When the syscall's own pointer is bad, the syscall side reports it (UMT-SYSCALL-BEGIN-EID/UMT-SYSCALL-END-EID);
	 * here only a second record claiming a consistent syscall is named. */
	uint64_t ls, le, head[4];
	struct tl_cursor lr;
	if (link < 0 || !tl_umt_exec_record(t, &tabs->exec, (uint64_t)link, &ls, &le) || le - ls < 14 ||
	    !umt_row(&t->f[M_EXEC_VTABLE], ls, 14, &lr) || !umt_record_head(&lr, 4, head) ||
	    head[UMT_R_TYPE] != r->type || umt_signed(head[UMT_R_ID]) != sid)
		return;
	tl_umt_report(t, M_EXEC_VTABLE, r->type == 4 ? RULE_UMT_RECORD_SYSCALL_ENTRY : RULE_UMT_RECORD_SYSCALL_EXIT, r->start + 6,
		   MSG_UMT_CHECK_SYSCALL_LINK,
		   (long long)sid, r->type == 4 ? "BeginEID" : "EndEID", (unsigned long long)r->eid,
		   (long long)link);
}

static bool thread_of(struct umt_trace *t, const struct umt_exec_index *exec, uint64_t eid,
		      int64_t *thread)
{
	uint64_t s, e;
	return tl_umt_exec_record(t, exec, eid, &s, &e) && e - s >= 6 &&
	       umt_rd_s(&t->f[M_EXEC_VTABLE], s, 4, thread);
}

/* A 32-bit call's values are zero-extended to 64 bits: BeforeSP, Result when the call
 * completed (else it is garbage), and each argument. One finding per call. */
static void check_32bit_call(struct umt_trace *t, const struct rec *r, uint64_t sid,
			     const struct umt_syscall_rec *call)
{
	const struct tl_input *svt = &t->f[M_SYSCALL_VTABLE];
	uint64_t at = call->at, field = 0, value = 0;
	const char *what = NULL;
	if ((value = call->before_sp) > UINT32_MAX) {
		field = at + 24, what = "BeforeSP";
	} else if (call->completed == 1 && (value = call->result) > UINT32_MAX) {
		field = at + 32, what = "Result";
	} else {
		for (int64_t k = 0; k < call->args && !what; k++) {
			/* ArgsFP was checked against the block (UMT-SYSCALL-ARGS-IN-BLOCK): the reads succeed */
			uint64_t a = at + (uint64_t)call->args_fp + 8 * (uint64_t)k;
			if (!umt_rd(svt, a, 8, &value))
				break;
			if (value > UINT32_MAX)
				field = a, what = "an argument";
		}
	}
	if (what)
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_VALUES_32BIT, field,
			   MSG_UMT_SYSCALL_VALUES_32BIT,
			   what, (unsigned long long)sid, (unsigned long long)r->eid,
			   (unsigned long long)value);
}

static void note_syscall_link(struct pass *p, const struct rec *r, uint64_t sid,
			      const struct umt_syscall_rec *call)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	struct umt_links *l = p->links;
	if (r->type == 4) {
		if (!(r->flags & 1))
			check_32bit_call(t, r, sid, call);
		umt_set_bit(l->begin_seen, sid);
		/* its exit came first */
		if (umt_bit(l->end_seen, sid))
			umt_set_bit(l->pair_bad, sid);
		return;
	}
	umt_set_bit(l->end_seen, sid);
	int64_t begin = call->begin, thread;
	/* the entry, already seen, is earlier: only its thread is left to compare */
	if (umt_bit(l->begin_seen, sid) && thread_of(t, &tabs->exec, (uint64_t)begin, &thread) &&
	    thread != r->thread)
		umt_set_bit(l->pair_bad, sid);
}

/* A record whose ThreadID is out of range was reported (UMT-RECORD-THREAD) and left out of every
 * chain: pointers to it are follow-on findings. */
static bool bad_thread_record(const struct pass *p, int64_t eid)
{
	const struct umt_tables *tabs = &p->tabs;
	int64_t other;
	return eid >= 0 && thread_of(p->t, &tabs->exec, (uint64_t)eid, &other) &&
	       (other < 0 || (uint64_t)other >= tabs->thread.rows);
}

/* Exec version 1 flag 0x80: the process aborted around this record. */
static bool aborted(const struct umt_tables *tabs, uint8_t flags)
{
	return tabs->exec.version == 1 && (flags & 0x80);
}

/* Prev/Next: the neighbours of the same thread in EID order (decision D7). */
static void check_flow(struct pass *p, const struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	struct umt_thread_state *ts = &p->chains->threads[r->thread];
	uint64_t at = 16 * r->eid;
	uint64_t links[2];
	/* prevnext_ok: the file holds 16 bytes for every record */
	if (!umt_pair(&t->f[M_EXEC_PREVNEXT], at, links))
		return;
	int64_t prev = umt_signed(links[0]), next = umt_signed(links[1]);
	int64_t n = (int64_t)tabs->exec.count;
	if (prev < -1 || prev >= n || next < -1 || next >= n) {
		tl_umt_report(t, M_EXEC_PREVNEXT, RULE_UMT_LINK_RANGE, at,
			   MSG_UMT_LINK_RANGE,
			   (unsigned long long)r->eid, (long long)n, (long long)prev, (long long)next);
		next = -2; /* no expectation for the successor */
	} else if (prev != ts->last && !bad_thread_record(p, prev)) {
		tl_umt_report(t, M_EXEC_PREVNEXT, RULE_UMT_LINK_PREV, at,
			   MSG_UMT_LINK_PREV,
			   (unsigned long long)r->eid, (long long)ts->last, (long long)r->thread,
			   (long long)prev);
	}
	if (ts->last >= 0 && ts->pending_next != -2 && ts->pending_next != (int64_t)r->eid) {
		if (!bad_thread_record(p, ts->pending_next))
			tl_umt_report(t, M_EXEC_PREVNEXT, RULE_UMT_LINK_NEXT, 16 * (uint64_t)ts->last + 8,
				   MSG_UMT_LINK_NEXT,
				   (long long)ts->last, (unsigned long long)r->eid, (long long)r->thread,
				   (long long)ts->pending_next);
	}
	if ((ts->last < 0) != (r->type == 1))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_THREAD_BEGIN_FIRST, r->start + 4,
			   ts->last < 0 ? MSG_UMT_THREAD_BEGIN_FIRST
					: MSG_UMT_THREAD_BEGIN_FIRST_2,
			   (long long)r->thread, (unsigned long long)r->type);
	if (ts->last_type == 2 && ts->last >= 0)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_THREAD_END_LAST, r->start,
			   MSG_UMT_THREAD_END_LAST,
			   (long long)r->thread, (long long)ts->last, (unsigned long long)r->eid);
	if (ts->last >= 0 && aborted(tabs, ts->last_flags))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_ABORT_FLAG, ts->last_at + 5,
			   MSG_UMT_RECORD_ABORT_FLAG,
			   (long long)r->thread, (long long)ts->last, (unsigned long long)r->eid);
	if (ts->last < 0)
		ts->first = (int64_t)r->eid;
	ts->last = (int64_t)r->eid;
	ts->last_at = r->start;
	ts->pending_next = next;
	ts->last_type = (uint8_t)r->type;
	ts->last_flags = (uint8_t)r->flags;
	ts->count++;
}

/* UMTracer records 32-bit or 64-bit code, never both (seed §11.1): every record has
 * the flag 0x01 of App/Bitness, or of the first record. Reported once: a wrong
 * Bitness would otherwise flag every record. */
static void check_cs_bit(struct pass *p, const struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	int bit = (int)(r->flags & 1);
	if (p->cs_bit < 0)
		p->cs_bit = tabs->bitness ? tabs->bitness == 64 : bit;
	if (bit == p->cs_bit || p->cs_bit_reported)
		return;
	p->cs_bit_reported = true;
	tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_BITNESS, r->start + 5,
		   MSG_UMT_RECORD_BITNESS,
		   p->cs_bit ? "set" : "clear",
		   tabs->bitness ? (tabs->bitness == 64 ? "App/Bitness 64" : "App/Bitness 32")
			      : "as in record 0",
		   (unsigned long long)r->eid, (unsigned long long)r->flags);
}

static void check_record(struct pass *p, struct rec *r)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	if (r->size < 6) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_SIZE_MIN, r->start,
			   MSG_UMT_RECORD_SIZE_MIN,
			   (unsigned long long)r->eid, (unsigned long long)r->size);
		return;
	}
	uint64_t head[4];
	if (!umt_record_head(&r->c, 3, head))
		return;
	r->thread = umt_signed(head[UMT_R_THREAD]);
	r->type = head[UMT_R_TYPE];
	r->flags = head[UMT_R_FLAGS];
	if (!valid_type(r->type)) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_TYPE, r->start + 4,
			   MSG_UMT_RECORD_TYPE,
			   (unsigned long long)r->eid, (unsigned long long)r->type);
		return;
	}
	check_cs_bit(p, r);
	if (r->type == 3)
		p->app_end_seen = true;
	bool thread_ok = tabs->thread.ok && r->thread >= 0 && (uint64_t)r->thread < tabs->thread.rows;
	if (tabs->thread.ok && !thread_ok)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_THREAD, r->start,
			   MSG_UMT_RECORD_THREAD,
			   (unsigned long long)tabs->thread.rows, (long long)r->thread);
	if (r->type == 3 && r->eid + 1 != tabs->exec.count)
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_APP_END_LAST, r->start + 4,
			   MSG_UMT_APP_END_LAST,
			   (unsigned long long)(tabs->exec.count - 1), (unsigned long long)r->eid);
	if (r->type != 0 && (r->flags & 0xfc))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_FLAGS, r->start + 5,
			   MSG_UMT_RECORD_FLAGS,
			   (unsigned long long)r->type, (unsigned long long)r->flags);
	uint64_t want;
	const char *how;
	if (!size_fits(r, &want, &how)) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_SIZE, r->start,
			   MSG_UMT_RECORD_SIZE,
			   (unsigned long long)r->type, how, (unsigned long long)want,
			   (unsigned long long)r->size);
	} else {
		if (r->type == 0)
			check_instruction(p, r);
		if (r->type >= 4 && r->type <= 6)
			check_syscall_link(p, r);
		if (has_context(r->type))
			check_context(p, r);
	}
	if (thread_ok && p->chains->threads)
		check_flow(p, r);
}

static void finish_threads(const struct pass *p)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	for (uint64_t k = 0; k < tabs->thread.rows; k++) {
		struct umt_thread_state *ts = &p->chains->threads[k];
		if (ts->last >= 0 && aborted(tabs, ts->last_flags) && p->app_end_seen)
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RECORD_ABORT_FLAG, ts->last_at + 5,
				   MSG_UMT_RECORD_ABORT_FLAG_2,
				   (long long)ts->last, (unsigned long long)k);
		if (ts->last >= 0 && ts->pending_next != -1 && ts->pending_next != -2)
			tl_umt_report(t, M_EXEC_PREVNEXT, RULE_UMT_LINK_NEXT, 16 * (uint64_t)ts->last + 8,
				   MSG_UMT_LINK_NEXT_2,
				   (long long)ts->last, (unsigned long long)k, (long long)ts->pending_next);
	}
}

/* Every UMT_WINDOW bytes of exec.vtable, every mapped page of every member goes back
 * to the kernel: the pages behind the cursor, pages brought back by a read behind it
 * (a syscall's entry record, error paths), and those of the tables read at random
 * (ins.itable, the syscall files). What is still needed faults back in from the page
 * cache. The core releases behind a cursor only in 16 MB steps, which would leave up
 * to 16 MB resident per streamed file; dropping whole mappings keeps the sum small. */
static void drop_all(struct umt_trace *t)
{
	for (int m = 0; m < M_COUNT; m++)
		tl_umt_drop_pages(t, (enum umt_member)m);
}

static void start_state(struct pass *p)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	struct umt_chains *c = p->chains;
	if (tabs->thread.ok && tabs->exec.prevnext_ok) {
		c->threads = calloc(tabs->thread.rows ? (size_t)tabs->thread.rows : 1, sizeof *c->threads);
		if (!c->threads)
			tl_out_of_memory(t->ctx);
		for (uint64_t k = 0; c->threads && k < tabs->thread.rows; k++)
			c->threads[k] = (struct umt_thread_state){ -1, -1, -1, 0, 0, 0xff, 0 };
	}
	if (tabs->syscall.ok) {
		p->links->begin_seen = tl_umt_bitmap_new(tabs->syscall.count);
		p->links->end_seen = tl_umt_bitmap_new(tabs->syscall.count);
		p->links->pair_bad = tl_umt_bitmap_new(tabs->syscall.count);
		if (!p->links->begin_seen || !p->links->end_seen || !p->links->pair_bad)
			tl_out_of_memory(t->ctx);
	}
}

/* The pass reads exec.offsets once: entry i + 1 must be above entry i and not above
 * Offset[RecordCount] (checked first), else no later record can be located (UMT-EXEC-OFFSETS-ORDER). */
static bool next_offset(struct umt_trace *t, const struct umt_exec_index *exec, uint64_t i,
			uint64_t start, uint64_t *end)
{
	/* exec.offsets holds RecordCount + 1 entries (tl_umt_check_exec_index) */
	if (!umt_rd(&t->f[M_EXEC_OFFSETS], 8 * i + 8, 8, end))
		return false;
	if (*end > start && *end <= exec->last)
		return true;
	if (*end <= start)
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_OFFSETS_ORDER, 8 * i + 8,
			   MSG_UMT_EXEC_OFFSETS_ORDER_2,
			   (unsigned long long)(i + 1), (unsigned long long)i,
			   (unsigned long long)start, (long long)*end);
	else
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_OFFSETS_ORDER, 8 * i + 8,
			   MSG_UMT_EXEC_OFFSETS_ORDER_3,
			   (unsigned long long)(i + 1), (unsigned long long)exec->last,
			   (long long)*end);
	return false;
}

/* False when a record could not be located (UMT-EXEC-OFFSETS-ORDER): the pass stopped there. */
static bool walk(struct pass *p)
{
	struct umt_trace *t = p->t;
	const struct umt_tables *tabs = &p->tabs;
	start_state(p);
	uint64_t start = tabs->exec.first, next_drop = start + UMT_WINDOW, i;
	for (i = 0; i < tabs->exec.count && !tl_stopped(t->ctx); i++) {
		uint64_t end;
		if (!next_offset(t, &tabs->exec, i, start, &end)) {
			/* Records cannot be located: nothing is compared with their totals. */
			tl_umt_chains_end(p->chains);
			return false;
		}
		struct rec r = { .eid = i, .start = start, .end = end, .size = end - start };
		/* end <= Offset[RecordCount] <= the file's size (tl_umt_check_exec_index) */
		if (umt_row(&t->f[M_EXEC_VTABLE], start, r.size, &r.c))
			check_record(p, &r);
		start = end;
		if (start >= next_drop) {
			drop_all(t);
			next_drop = start + UMT_WINDOW;
		}
	}
	p->links->complete = i == tabs->exec.count && p->links->begin_seen && p->links->end_seen &&
			     p->links->pair_bad;
	if (p->chains->threads)
		finish_threads(p);
	return true;
}

void tl_umt_chains_end(struct umt_chains *c)
{
	free(c->threads);
	c->threads = NULL;
}

void tl_umt_links_end(struct umt_links *l)
{
	free(l->begin_seen);
	free(l->end_seen);
	free(l->pair_bad);
	*l = (struct umt_links){ NULL, NULL, NULL, false };
}

bool tl_umt_check_exec_records(struct umt_trace *t, const struct umt_tables *tabs,
			       struct umt_chains *chains, struct umt_links *links)
{
	if (!tabs->exec.ok)
		return false;
	struct pass p = { .t = t, .tabs = *tabs, .chains = chains, .links = links, .cs_bit = -1 };
	p.memory.ranges = tabs->ranges_ok ? &tabs->address : NULL;
	bool located = walk(&p);
	tl_umt_memory_end(&p.memory);
	return located;
}
