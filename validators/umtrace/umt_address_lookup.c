/* The lookup of a memory reference in address_space.itable, for the record pass
 * and the memory operand check (UMT-RANGES-COVER-MEMORY). */
#include "umt.h"

/* [lo, hi] lies in one range. Only used when the ranges are well formed, sorted,
 * disjoint and merged (ranges_ok): a gap between two ranges is then never listed, so
 * a listed reference lies in the one range found by binary search on First. *hit is
 * the caller's: the row that held its last reference (umt_address_listed tried it). */
bool tl_umt_address_search(const struct umt_trace *t, const struct umt_table *address,
			   uint64_t *hit, uint64_t lo, uint64_t hi)
{
	const struct tl_input *in = &t->f[M_ADDRESS];
	struct tl_cursor r;
	uint64_t fl[2];
	uint64_t a = 0, b = address->rows; /* find the first row with First > lo */
	while (a < b) {
		uint64_t mid = a + (b - a) / 2;
		/* ranges_ok says every row was read: a failure here is a layout error, and
		 * the row is taken as past lo, which can only hide a finding */
		if (umt_range_row(in, address, mid, &r, fl) && fl[0] <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == 0)
		return false;
	*hit = a - 1;
	return !umt_range_row(in, address, a - 1, &r, fl) || hi <= fl[1];
}
