/* After the record pass: the links from each syscallRec to its entry and exit records
 * (UMT-SYSCALL-BEGIN-EID, -END-EID, -END-ORDER), as the pass saw them (struct umt_links). */
#include "umt.h"

/* The exec record at eid: its type, thread and SyscallID (types 4..6), if readable.
 * Used only to word a diagnostic: the links themselves were seen by the record pass. */
static bool linked_record(struct umt_trace *t, const struct umt_exec_index *exec, int64_t eid,
			  uint64_t *type, int64_t *thread, int64_t *sid)
{
	uint64_t start, end;
	if (eid < 0 || !tl_umt_exec_record(t, exec, (uint64_t)eid, &start, &end) || end - start < 14)
		return false;
	struct tl_cursor r;
	uint64_t head[4];
	if (!umt_row(&t->f[M_EXEC_VTABLE], start, 14, &r) || !umt_record_head(&r, 4, head))
		return false;
	*thread = umt_signed(head[UMT_R_THREAD]);
	*type = head[UMT_R_TYPE];
	*sid = umt_signed(head[UMT_R_ID]);
	return true;
}

static void check_links(struct umt_trace *t, const struct umt_exec_index *exec,
			const struct umt_links *links, uint64_t s)
{
	struct umt_syscall_rec r;
	if (!tl_umt_syscall_rec(t, s, &r)) /* not in syscall_bad: its block was read */
		return;
	uint64_t at = r.at;
	int64_t begin = r.begin, end = r.end;
	if (!umt_bit(links->begin_seen, s)) {
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_BEGIN_EID, at + 8,
			   MSG_UMT_SYSCALL_BEGIN_EID,
			   (unsigned long long)s, (long long)begin);
		return;
	}
	if (end == UMT_NONE)
		return;
	if (!umt_bit(links->end_seen, s)) {
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_END_EID, at + 16,
			   MSG_UMT_SYSCALL_END_EID,
			   (unsigned long long)s, (long long)end);
		return;
	}
	if (umt_bit(links->pair_bad, s)) {
		uint64_t type;
		int64_t bthread = -1, ethread = -1, sid;
		linked_record(t, exec, begin, &type, &bthread, &sid);
		linked_record(t, exec, end, &type, &ethread, &sid);
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_END_ORDER, at + 16,
			   MSG_UMT_SYSCALL_END_ORDER,
			   (long long)end, (long long)begin, (long long)bthread, (long long)ethread);
	}
}

/* After the record pass, in syscall order; reads only the syscall files (their pages
 * are handed back every 64 Ki calls, as in the block pass). */
void tl_umt_check_syscall_links(struct umt_trace *t, const struct umt_tables *tabs,
				const struct umt_links *links)
{
	if (!tabs->syscall.ok || !tabs->exec.ok || !links->complete)
		return;
	for (uint64_t s = 0; s < tabs->syscall.count && !tl_stopped(t->ctx); s++) {
		if (!umt_bit(tabs->syscall.bad, s))
			check_links(t, &tabs->exec, links, s);
		if ((s & 0xffff) == 0xffff) {
			tl_umt_drop_pages(t, M_SYSCALL_OFFSETS);
			tl_umt_drop_pages(t, M_SYSCALL_VTABLE);
		}
	}
}
