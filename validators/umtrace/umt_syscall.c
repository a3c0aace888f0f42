/* syscall.vtable / syscall.offsets: header, (Offset, Size) blocks, syscallRec fields.
 * Their overlap (umt_syscall_overlap.c) and their links to the exec records
 * (umt_syscall_links.c) are checks of their own. */
#include "umt.h"

#include <stdlib.h>

static bool check_header(struct umt_trace *t, struct umt_syscalls *out)
{
	const struct tl_input *vt = &t->f[M_SYSCALL_VTABLE];
	/* Version, UnifiedIDsVer, RecordCount */
	static const struct umt_field header[3] = { { 0, 4, false }, { 4, 4, false }, { 8, 8, true } };
	struct tl_cursor h;
	uint64_t v[3] = { 0, 0, 0 };
	/* a short file reports the Version it has, or 0 */
	bool whole = umt_row(vt, 0, 16, &h) && umt_get_fields(&h, header, 3, v);
	uint64_t version = v[0], ids = v[1];
	int64_t count = umt_signed(v[2]);
	if (!whole || version != 0) {
		if (!whole && !umt_rd(vt, 0, 4, &version))
			version = 0;
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_HEADER, 0,
			   MSG_UMT_SYSCALL_HEADER,
			   vt->size, (unsigned long long)version);
		return false;
	}
	if (ids > 1)
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_IDS_VERSION, 4,
			   MSG_UMT_SYSCALL_IDS_VERSION, (unsigned long long)ids);
	uint64_t want;
	if (t->single)
		return count >= 0;
	if (count < 0 || !tl_mul_u64((uint64_t)count, 16, &want) ||
	    t->f[M_SYSCALL_OFFSETS].size != want) {
		tl_umt_report(t, M_SYSCALL_OFFSETS, RULE_UMT_SYSCALL_OFFSETS_SIZE, 0,
			   MSG_UMT_SYSCALL_OFFSETS_SIZE, (long long)count,
			   t->f[M_SYSCALL_OFFSETS].size);
		return false;
	}
	out->count = (uint64_t)count;
	return true;
}

static bool check_block(struct umt_trace *t, uint64_t s)
{
	const struct tl_input *vt = &t->f[M_SYSCALL_VTABLE], *offs = &t->f[M_SYSCALL_OFFSETS];
	struct umt_syscall_rec r;
	uint64_t start, end;
	if (!tl_umt_syscall_block(t, s, &start, &end) || !tl_umt_syscall_rec(t, s, &r)) {
		/* syscall.offsets is RecordCount x 16 bytes (check_header): row s is there */
		uint64_t row[2]; /* Offset, Size */
		if (!umt_pair(offs, 16 * s, row))
			return false;
		tl_umt_report(t, M_SYSCALL_OFFSETS, RULE_UMT_SYSCALL_BLOCK_IN_FILE, 16 * s,
			   MSG_UMT_SYSCALL_BLOCK_IN_FILE,
			   (unsigned long long)s, vt->size, (long long)umt_signed(row[0]),
			   (long long)umt_signed(row[1]));
		return false;
	}
	uint64_t at = r.at;
	int64_t conv = r.convention, args = r.args, extras = r.extras, size = (int64_t)r.size;
	uint64_t completed = r.completed;
	if (conv < 0 || conv > 5 || completed > 1 || args < 0 || extras < 0) {
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_FIELDS, at + 4,
			   MSG_UMT_SYSCALL_FIELDS,
			   (long long)conv, (unsigned long long)completed, (long long)args,
			   (long long)extras);
		return false;
	}
	bool ok = true;
	int64_t args_fp = r.args_fp, extras_fp = r.extras_fp;
	if (args > 0 && !tl_umt_fp_inside(0, args_fp, 8 * args, 64, (uint64_t)size, NULL)) {
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_ARGS_IN_BLOCK, at + 40,
			   MSG_UMT_SYSCALL_ARGS_IN_BLOCK,
			   (long long)args_fp, (long long)args, (long long)size);
		ok = false;
	}
	if (extras > 0 && !tl_umt_fp_inside(0, extras_fp, 1, 64, (uint64_t)size, NULL)) {
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_EXTRAS_IN_BLOCK, at + 48,
			   MSG_UMT_SYSCALL_EXTRAS_IN_BLOCK, (long long)size,
			   (long long)extras_fp);
		ok = false;
	}
	if (r.end == UMT_NONE && completed != 0)
		tl_umt_report(t, M_SYSCALL_VTABLE, RULE_UMT_SYSCALL_COMPLETED, at + 5,
			   MSG_UMT_SYSCALL_COMPLETED,
			   (unsigned long long)completed);
	return ok;
}

void tl_umt_check_syscall_table(struct umt_trace *t, struct umt_syscalls *out)
{
	if (!check_header(t, out) || t->single)
		return;
	out->bad = tl_umt_bitmap_new(out->count);
	if (!out->bad) {
		tl_out_of_memory(t->ctx);
		return;
	}
	for (uint64_t s = 0; s < out->count && !tl_stopped(t->ctx); s++) {
		if (!check_block(t, s))
			umt_set_bit(out->bad, s);
		/* blocks lie anywhere in syscall.vtable: hand all pages back now and then */
		if ((s & 0xffff) == 0xffff) {
			tl_umt_drop_pages(t, M_SYSCALL_OFFSETS);
			tl_umt_drop_pages(t, M_SYSCALL_VTABLE);
		}
	}
	out->ok = true;
}
