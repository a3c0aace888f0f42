/* One module.itable row (moduleRec), read as a whole: the module checks, the
 * overlap sweep and the instruction rows all read modules through it. */
#include "umt.h"

bool tl_umt_module_row(const struct umt_trace *t, const struct umt_table *module, uint64_t i,
		       struct umt_module_row *m)
{
	struct tl_cursor r;
	if (!umt_table_row(&t->f[M_MODULE], module, i, &r) || !umt_get_s(&r, 0, 8, &m->load) ||
	    !umt_get_s(&r, 8, 8, &m->unload) || !umt_get(&r, 16, 8, &m->start) ||
	    !umt_get(&r, 24, 8, &m->end) || !umt_get_s(&r, 32, 8, &m->win_name) ||
	    !umt_get_s(&r, 40, 8, &m->device_name))
		return false;
	m->at = tl_cursor_offset(&r);
	return true;
}
