/* thread.itable rows (threadRec) against what the record pass counted (seed section 10). */
#include "umt.h"

/* threadRec: ID, FirstEID, LastEID, RecCount */
enum { T_ID, T_FIRST, T_LAST, T_COUNT, T_N };
static const struct umt_field thread_row[T_N] = {
	{ 0, 4, true }, { 16, 8, true }, { 24, 8, true }, { 32, 8, true },
};

void tl_umt_check_threads(struct umt_trace *t, const struct umt_table *thread,
			  const struct umt_chains *chains)
{
	const struct tl_input *in = &t->f[M_THREAD];
	for (uint64_t k = 0; k < thread->rows && !tl_stopped(t->ctx); k++) {
		struct tl_cursor r;
		uint64_t v[T_N];
		/* the header check put every row inside the file */
		if (!umt_table_fields(in, thread, k, &r, thread_row, T_N, v))
			continue;
		int64_t id = umt_signed(v[T_ID]), first = umt_signed(v[T_FIRST]);
		int64_t last = umt_signed(v[T_LAST]), count = umt_signed(v[T_COUNT]);
		uint64_t row = tl_cursor_offset(&r);
		if (id < 0 || (uint64_t)id != k)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_ID, row,
				   MSG_UMT_THREAD_ID,
				   (unsigned long long)k, (long long)id);
		if (!chains->threads)
			continue;
		const struct umt_thread_state *ts = &chains->threads[k];
		if (ts->count == 0) {
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_EMPTY, row,
				   MSG_UMT_THREAD_EMPTY,
				   (unsigned long long)k);
			continue;
		}
		if (first != ts->first)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_FIRST_EID, row + 16,
				   MSG_UMT_THREAD_FIRST_EID, (unsigned long long)k,
				   (long long)ts->first, (long long)first);
		bool ended = ts->last_type == 2 || ts->last_type == 3;
		if (last != ts->last && (ended || last != UMT_NONE))
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_LAST_EID, row + 24,
				   MSG_UMT_THREAD_LAST_EID, (unsigned long long)k,
				   (long long)ts->last, ended ? "" : " or -1", (long long)last);
		if (count < 0 || (uint64_t)count != ts->count)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_RECORD_COUNT, row + 32,
				   MSG_UMT_THREAD_RECORD_COUNT, (unsigned long long)k,
				   (unsigned long long)ts->count, (long long)count);
	}
}
