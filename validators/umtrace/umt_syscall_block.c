/* UMTracer: where syscall block s lies in syscall.vtable, from its syscall.offsets
 * row, and its fixed 64 bytes read as one structure; read by the table check, the
 * overlap check and the record pass alike. */
#include "umt.h"

bool tl_umt_syscall_block(const struct umt_trace *t, uint64_t s, uint64_t *start, uint64_t *end)
{
	struct tl_cursor row;
	int64_t off, size;
	uint64_t at;
	if (!tl_mul_u64(s, 16, &at) || !umt_row(&t->f[M_SYSCALL_OFFSETS], at, 16, &row) ||
	    !umt_get_s(&row, 0, 8, &off) || !umt_get_s(&row, 8, 8, &size))
		return false;
	if (off < 16 || size < 64 ||
	    !tl_umt_fp_inside(0, off, size, 16, t->f[M_SYSCALL_VTABLE].size, NULL))
		return false;
	*start = (uint64_t)off;
	*end = (uint64_t)off + (uint64_t)size;
	return true;
}

/* Only the 64 bytes read are checked here, not U403's bounds of the whole block: the
 * record pass and the links' check read blocks the table check passed, several times
 * per syscall, and the table check calls tl_umt_syscall_block itself. */
bool tl_umt_syscall_rec(const struct umt_trace *t, uint64_t s, struct umt_syscall_rec *r)
{
	struct tl_cursor row, c;
	uint64_t at;
	int64_t off, size;
	if (!tl_mul_u64(s, 16, &at) || !umt_row(&t->f[M_SYSCALL_OFFSETS], at, 16, &row) ||
	    !umt_get_s(&row, 0, 8, &off) || !umt_get_s(&row, 8, 8, &size) || off < 0 || size < 64 ||
	    !umt_row(&t->f[M_SYSCALL_VTABLE], (uint64_t)off, 64, &c) || !umt_get_s(&c, 4, 1, &r->convention) ||
	    !umt_get(&c, 5, 1, &r->completed) || !umt_get_s(&c, 6, 1, &r->args) ||
	    !umt_get_s(&c, 7, 1, &r->extras) || !umt_get_s(&c, 8, 8, &r->begin) ||
	    !umt_get_s(&c, 16, 8, &r->end) || !umt_get(&c, 24, 8, &r->before_sp) ||
	    !umt_get(&c, 32, 8, &r->result) || !umt_get_s(&c, 40, 8, &r->args_fp) ||
	    !umt_get_s(&c, 48, 8, &r->extras_fp))
		return false;
	r->at = (uint64_t)off;
	r->size = (uint64_t)size;
	return true;
}
