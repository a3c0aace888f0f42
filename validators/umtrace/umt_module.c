/* module.itable rows (moduleRec): address range, load/unload EIDs, UTF-16 names. */
#include "umt.h"

static void check_name(struct umt_trace *t, const struct umt_table *tab, uint64_t row, uint64_t field,
		       int64_t fp, const char *what)
{
	uint64_t lo = tab->extra_fp, hi = tab->extra_fp + tab->extra_size;
	if (fp < 0 || (uint64_t)fp < lo || (uint64_t)fp >= hi) {
		tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_NAME_POINTER, row + field,
			   MSG_UMT_MODULE_NAME_POINTER, what,
			   (unsigned long long)lo, (unsigned long long)hi, (long long)fp);
		return;
	}
	tl_umt_check_string(t, M_MODULE, (uint64_t)fp, 2, lo, hi);
}

void tl_umt_check_modules(struct umt_trace *t, const struct umt_tables *tabs)
{
	const struct umt_table *tab = &tabs->module;
	for (uint64_t i = 0; i < tab->rows && !tl_stopped(t->ctx); i++) {
		struct umt_module_row m;
		if (!tl_umt_module_row(t, tab, i, &m)) /* the header check put every row inside */
			continue;
		uint64_t row = m.at, start = m.start, end = m.end;
		int64_t load = m.load, unload = m.unload;
		if (start > end)
			tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_RANGE, row + 16,
				   MSG_UMT_MODULE_RANGE,
				   (unsigned long long)i, (unsigned long long)start,
				   (unsigned long long)end);
		if (tabs->bitness == 32 && start <= end && end > UINT32_MAX)
			tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_ADDR32, row + 24,
				   MSG_UMT_MODULE_ADDR32,
				   (unsigned long long)i, (unsigned long long)start,
				   (unsigned long long)end);
		if (load < 0 || (unload != UMT_NONE && unload < load))
			tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_LOAD_EIDS, row,
				   MSG_UMT_MODULE_LOAD_EIDS,
				   (unsigned long long)i, (long long)load, (long long)unload);
		else if (tabs->exec.ok && ((uint64_t)load > tabs->exec.count ||
					(unload != UMT_NONE && (uint64_t)unload > tabs->exec.count)))
			tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_EIDS_IN_TRACE, row,
				   MSG_UMT_MODULE_EIDS_IN_TRACE,
				   (unsigned long long)i, (unsigned long long)tabs->exec.count,
				   (long long)load, (long long)unload);
		check_name(t, tab, row, 32, m.win_name, "WinNameFP");
		check_name(t, tab, row, 40, m.device_name, "DeviceNameFP");
	}
}
