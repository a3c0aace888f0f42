/* thread.itable rows (threadRec) against what the record pass counted (research §9, D11). */
#include "umt.h"

void tl_umt_check_threads(struct umt_trace *t)
{
	const struct tl_input *in = &t->f[M_THREAD];
	for (uint64_t k = 0; k < t->thread.rows && !tl_stopped(t->ctx); k++) {
		uint64_t row = t->thread.table_fp + k * t->thread.row_size;
		int64_t id = umt_s(in, row, 4);
		if (id < 0 || (uint64_t)id != k)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_ID, row,
				   "expected threadRec ID %llu (its row), found %lld",
				   (unsigned long long)k, (long long)id);
		if (!t->threads)
			continue;
		const struct umt_thread_state *ts = &t->threads[k];
		if (ts->count == 0) {
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_EMPTY, row,
				   "expected thread %llu to have at least one record, found none",
				   (unsigned long long)k);
			continue;
		}
		int64_t first = umt_s(in, row + 16, 8), last = umt_s(in, row + 24, 8);
		int64_t count = umt_s(in, row + 32, 8);
		if (first != ts->first)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_FIRST_EID, row + 16,
				   "expected thread %llu FirstEID %lld, found %lld", (unsigned long long)k,
				   (long long)ts->first, (long long)first);
		bool ended = ts->last_type == 2 || ts->last_type == 3;
		if (last != ts->last && (ended || last != UMT_NONE))
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_LAST_EID, row + 24,
				   "expected thread %llu LastEID %lld%s, found %lld", (unsigned long long)k,
				   (long long)ts->last, ended ? "" : " or -1", (long long)last);
		if (count < 0 || (uint64_t)count != ts->count)
			tl_umt_report(t, M_THREAD, RULE_UMT_THREAD_RECORD_COUNT, row + 32,
				   "expected thread %llu RecCount %llu, found %lld", (unsigned long long)k,
				   (unsigned long long)ts->count, (long long)count);
	}
}
