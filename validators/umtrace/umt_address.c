/* address_space.itable rows: page-aligned inclusive ranges, sorted, disjoint, merged. */
#include "umt.h"

void tl_umt_check_addresses(struct umt_trace *t, const struct umt_table *address, bool *ranges_ok)
{
	const struct tl_input *in = &t->f[M_ADDRESS];
	bool have_prev = false, clean = true;
	uint64_t findings = t->ctx->result->errors + t->ctx->result->warnings;
	uint64_t prev_first = 0, prev_last = 0;
	for (uint64_t k = 0; k < address->rows && !tl_stopped(t->ctx); k++) {
		struct tl_cursor r;
		uint64_t fl[2];
		/* the header check put every row inside the file */
		if (!umt_range_row(in, address, k, &r, fl)) {
			clean = false;
			continue;
		}
		uint64_t first = fl[0], last = fl[1];
		uint64_t row = tl_cursor_offset(&r);
		bool ok = true;
		if (first % 4096) {
			tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGE_FIRST_ALIGNED, row,
				   MSG_UMT_RANGE_FIRST_ALIGNED,
				   (unsigned long long)k, (unsigned long long)first);
			ok = false;
		}
		if ((last + 1) % 4096) {
			tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGE_END_ALIGNED, row + 8,
				   MSG_UMT_RANGE_END_ALIGNED,
				   (unsigned long long)k, (unsigned long long)last);
			ok = false;
		}
		if (first >= last) {
			tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGE_ORDER, row,
				   MSG_UMT_RANGE_ORDER,
				   (unsigned long long)k, (unsigned long long)first,
				   (unsigned long long)last);
			ok = false;
		}
		if (!ok)
			continue;
		if (have_prev) {
			if (first <= prev_last && last >= prev_first)
				tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGES_OVERLAP, row,
					   MSG_UMT_RANGES_OVERLAP,
					   (unsigned long long)k, (unsigned long long)prev_last,
					   (unsigned long long)first);
			else if (first <= prev_last)
				tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGES_SORTED, row,
					   MSG_UMT_RANGES_SORTED,
					   (unsigned long long)first, (unsigned long long)prev_last);
			else if (first == prev_last + 1)
				tl_umt_report(t, M_ADDRESS, RULE_UMT_RANGES_ADJACENT, row,
					   MSG_UMT_RANGES_ADJACENT,
					   (unsigned long long)k, (unsigned long long)first);
		}
		have_prev = true;
		prev_first = first;
		prev_last = last;
	}
	clean = clean && t->ctx->result->errors + t->ctx->result->warnings == findings;
	/* UMT-RANGES-COVER-MEMORY looks references up by binary search: only in a table without findings */
	*ranges_ok = clean && !tl_stopped(t->ctx);
}
