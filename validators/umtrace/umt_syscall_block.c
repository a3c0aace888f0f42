/* UMTracer: where syscall block s lies in syscall.vtable, from its
 * syscall.offsets row; read by the table check and the overlap check alike. */
#include "umt.h"

bool tl_umt_syscall_block(struct umt_trace *t, uint64_t s, uint64_t *start, uint64_t *end)
{
	const struct tl_input *offs = &t->f[M_SYSCALL_OFFSETS];
	int64_t off = umt_s(offs, 16 * s, 8), size = umt_s(offs, 16 * s + 8, 8);
	if (off < 16 || size < 64 ||
	    !tl_umt_fp_inside(0, off, size, 16, t->f[M_SYSCALL_VTABLE].size, NULL))
		return false;
	*start = (uint64_t)off;
	*end = (uint64_t)off + (uint64_t)size;
	return true;
}
