/* One module.itable row (moduleRec), read as a whole: the module checks, the
 * overlap sweep and the instruction rows all read modules through it. */
#include "umt.h"

/* LoadEID, UnloadEID, StartAddr, EndAddr, WinNameFP, DeviceNameFP */
enum { MR_LOAD, MR_UNLOAD, MR_START, MR_END, MR_WIN, MR_DEVICE, MR_N };
static const struct umt_field module_row[MR_N] = {
	{ 0, 8, true }, { 8, 8, true }, { 16, 8, false }, { 24, 8, false }, { 32, 8, true }, { 40, 8, true },
};

bool tl_umt_module_row(const struct umt_trace *t, const struct umt_table *module, uint64_t i,
		       struct umt_module_row *m)
{
	struct tl_cursor r;
	uint64_t v[MR_N];
	if (!umt_table_fields(&t->f[M_MODULE], module, i, &r, module_row, MR_N, v))
		return false;
	m->at = tl_cursor_offset(&r);
	m->load = umt_signed(v[MR_LOAD]);
	m->unload = umt_signed(v[MR_UNLOAD]);
	m->start = v[MR_START];
	m->end = v[MR_END];
	m->win_name = umt_signed(v[MR_WIN]);
	m->device_name = umt_signed(v[MR_DEVICE]);
	return true;
}
