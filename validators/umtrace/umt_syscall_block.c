/* UMTracer: where syscall block s lies in syscall.vtable, from its syscall.offsets
 * row, and its fixed 64 bytes read as one structure; read by the table check, the
 * overlap check and the record pass alike. */
#include "umt.h"

/* Row s of syscall.offsets: the block's Offset and Size. */
TL_HOT bool offsets_row(const struct umt_trace *t, uint64_t s, int64_t *off, int64_t *size)
{
	static const struct umt_field offset_size[2] = { { 0, 8, true }, { 8, 8, true } };
	struct tl_cursor row;
	uint64_t at, v[2];
	if (!tl_mul_u64(s, 16, &at) || !umt_row(&t->f[M_SYSCALL_OFFSETS], at, 16, &row) ||
	    !umt_get_fields(&row, offset_size, 2, v))
		return false;
	*off = umt_signed(v[0]);
	*size = umt_signed(v[1]);
	return true;
}

bool tl_umt_syscall_block(const struct umt_trace *t, uint64_t s, uint64_t *start, uint64_t *end)
{
	int64_t off, size;
	if (!offsets_row(t, s, &off, &size))
		return false;
	if (off < 16 || size < 64 ||
	    !tl_umt_fp_inside(0, off, size, 16, t->f[M_SYSCALL_VTABLE].size, NULL))
		return false;
	*start = (uint64_t)off;
	*end = (uint64_t)off + (uint64_t)size;
	return true;
}

/* syscallRec's fixed fields */
enum { S_CONV, S_COMPLETED, S_ARGS, S_EXTRAS, S_BEGIN, S_END, S_SP, S_RESULT, S_ARGS_FP,
       S_EXTRAS_FP, S_N };
static const struct umt_field syscall_rec[S_N] = {
	[S_CONV] = { 4, 1, true },      [S_COMPLETED] = { 5, 1, false },
	[S_ARGS] = { 6, 1, true },      [S_EXTRAS] = { 7, 1, true },
	[S_BEGIN] = { 8, 8, true },     [S_END] = { 16, 8, true },
	[S_SP] = { 24, 8, false },      [S_RESULT] = { 32, 8, false },
	[S_ARGS_FP] = { 40, 8, true },  [S_EXTRAS_FP] = { 48, 8, true },
};

/* Only the 64 bytes read are checked here, not UMT-SYSCALL-BLOCK-IN-FILE's bounds of the whole block: the
 * record pass and the links' check read blocks the table check passed, several times
 * per syscall, and the table check calls tl_umt_syscall_block itself. */
bool tl_umt_syscall_rec(const struct umt_trace *t, uint64_t s, struct umt_syscall_rec *r)
{
	struct tl_cursor c;
	int64_t off, size;
	uint64_t v[S_N];
	if (!offsets_row(t, s, &off, &size) || off < 0 || size < 64 ||
	    !umt_row_fields(&t->f[M_SYSCALL_VTABLE], (uint64_t)off, 64, &c, syscall_rec, S_N, v))
		return false;
	r->convention = umt_signed(v[S_CONV]);
	r->completed = v[S_COMPLETED];
	r->args = umt_signed(v[S_ARGS]);
	r->extras = umt_signed(v[S_EXTRAS]);
	r->begin = umt_signed(v[S_BEGIN]);
	r->end = umt_signed(v[S_END]);
	r->before_sp = v[S_SP];
	r->result = v[S_RESULT];
	r->args_fp = umt_signed(v[S_ARGS_FP]);
	r->extras_fp = umt_signed(v[S_EXTRAS_FP]);
	r->at = (uint64_t)off;
	r->size = (uint64_t)size;
	return true;
}
