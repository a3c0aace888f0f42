/* exec.vtable header and the index files exec.offsets / exec.prev_next.column:
 * sizes agree with RecordCount, offsets strictly increase and stay in the file. */
#include "umt.h"

static bool check_header(struct umt_trace *t, struct umt_exec_index *out)
{
	const struct tl_input *vt = &t->f[M_EXEC_VTABLE];
	/* Version, RecordCount */
	static const struct umt_field header[2] = { { 0, 4, false }, { 8, 8, true } };
	struct tl_cursor h;
	uint64_t v[2];
	if (!umt_row(vt, 0, 16, &h) || !umt_get_fields(&h, header, 2, v)) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_EXEC_HEADER_SIZE, 0,
			   MSG_UMT_EXEC_HEADER_SIZE, vt->size);
		return false;
	}
	uint64_t version = v[0];
	int64_t count = umt_signed(v[1]);
	out->version = (uint32_t)version;
	if (out->version > 1) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_EXEC_VERSION, 0, MSG_UMT_EXEC_VERSION,
			   out->version);
		return false;
	}
	if (count < 0) {
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_EXEC_RECORD_COUNT, 8, MSG_UMT_EXEC_RECORD_COUNT,
			   (long long)count);
		return false;
	}
	out->count = (uint64_t)count;
	return true;
}

void tl_umt_check_exec_index(struct umt_trace *t, struct umt_exec_index *out)
{
	if (!check_header(t, out) || t->single)
		return;
	const struct tl_input *vt = &t->f[M_EXEC_VTABLE], *offs = &t->f[M_EXEC_OFFSETS];
	uint64_t n = out->count, want;
	if (!tl_add_u64(n, 1, &want) || !tl_mul_u64(want, 8, &want) || offs->size != want) {
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_OFFSETS_SIZE, 0,
			   MSG_UMT_EXEC_OFFSETS_SIZE,
			   (unsigned long long)n, offs->size);
		return;
	}
	if (!tl_mul_u64(n, 16, &want) || t->f[M_EXEC_PREVNEXT].size != want)
		tl_umt_report(t, M_EXEC_PREVNEXT, RULE_UMT_EXEC_LINKS_SIZE, 0,
			   MSG_UMT_EXEC_LINKS_SIZE, (unsigned long long)n,
			   t->f[M_EXEC_PREVNEXT].size);
	else
		out->prevnext_ok = true;
	int64_t first, last;
	/* the size check above: RecordCount + 1 entries */
	if (!umt_rd_s(offs, 0, 8, &first) || !umt_rd_s(offs, 8 * n, 8, &last))
		return;
	if (first < 16) {
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_FIRST_OFFSET, 0,
			   MSG_UMT_EXEC_FIRST_OFFSET, (long long)first);
		return;
	}
	if (first != 16)
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_GAP_AFTER_HEADER, 0,
			   MSG_UMT_EXEC_GAP_AFTER_HEADER, (long long)first,
			   (long long)(first - 16));
	/* Only the two ends are read here: that the entries strictly increase (UMT-EXEC-OFFSETS-ORDER) is
	 * checked by the record pass, so exec.offsets is read once, front to back. */
	if (n > 0 && last <= first) {
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_OFFSETS_ORDER, 8 * n,
			   MSG_UMT_EXEC_OFFSETS_ORDER,
			   (long long)first, (long long)last);
		return;
	}
	if ((uint64_t)last > vt->size) {
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_END_OFFSET, 8 * n,
			   MSG_UMT_EXEC_END_OFFSET, vt->size,
			   (long long)last);
		return;
	}
	if ((uint64_t)last < vt->size)
		tl_umt_report(t, M_EXEC_OFFSETS, RULE_UMT_EXEC_TRAILING_BYTES, 8 * n,
			   MSG_UMT_EXEC_TRAILING_BYTES, vt->size,
			   (long long)last);
	out->first = (uint64_t)first;
	out->last = (uint64_t)last;
	out->ok = true;
}

bool tl_umt_exec_record(struct umt_trace *t, const struct umt_exec_index *exec, uint64_t eid,
			uint64_t *start, uint64_t *end)
{
	if (!exec->ok || eid >= exec->count)
		return false;
	uint64_t pair[2];
	if (!umt_pair(&t->f[M_EXEC_OFFSETS], 8 * eid, pair))
		return false;
	*start = pair[0];
	*end = pair[1];
	/* Inside the pass, entries past the cursor are not yet known to increase. */
	return *start < *end && *end <= exec->last;
}
