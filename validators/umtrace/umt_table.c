/* The header shared by the fixed-size tables (ins, module, thread, address_space):
 * HeaderVer, RecordVer, RowCount, RowSize, TableFP, and for ins/module an extra area. */
#include "umt.h"

struct table_kind {
	uint64_t header;     /* 32, or 48 with ExtraFP/ExtraSize */
	uint64_t row_size;
	uint32_t max_record_ver;
	const char *record;
};

static struct table_kind kind_of(enum umt_member m)
{
	switch (m) {
	case M_INS: return (struct table_kind){ 48, 64, 1, "insRec" };
	case M_MODULE: return (struct table_kind){ 48, 48, 0, "moduleRec" };
	case M_THREAD: return (struct table_kind){ 32, 48, 0, "threadRec" };
	default: return (struct table_kind){ 32, 16, 0, "addressRange" };
	}
}

void tl_umt_check_table_header(struct umt_trace *t, enum umt_member m, struct umt_table *tab)
{
	const struct tl_input *in = &t->f[m];
	struct table_kind k = kind_of(m);
	tab->ok = false;
	/* the header as a whole: one size check, then every field of it */
	uint64_t v[UMT_H_N];
	if (!umt_table_header_fields(in, k.header, v)) {
		tl_umt_report(t, m, RULE_UMT_TABLE_HEADER_SIZE, 0, MSG_UMT_TABLE_HEADER_SIZE,
			   (unsigned long long)k.header, in->size);
		return;
	}
	uint64_t hver = v[UMT_H_VER], rver = v[UMT_H_RECORD_VER];
	int64_t rows = umt_signed(v[UMT_H_ROWS]), row_size = umt_signed(v[UMT_H_ROW_SIZE]);
	int64_t fp = umt_signed(v[UMT_H_FP]), xfp = umt_signed(v[UMT_H_EXTRA_FP]);
	int64_t xsize = umt_signed(v[UMT_H_EXTRA_SIZE]);
	bool ok = true;
	if (hver != 0) {
		tl_umt_report(t, m, RULE_UMT_TABLE_HEADER_VERSION, 0, MSG_UMT_TABLE_HEADER_VERSION,
			   (unsigned long long)hver);
		ok = false;
	}
	tab->record_ver = (uint32_t)rver;
	if (tab->record_ver > k.max_record_ver) {
		tl_umt_report(t, m, RULE_UMT_TABLE_RECORD_VERSION, 4, MSG_UMT_TABLE_RECORD_VERSION, k.record,
			   k.max_record_ver, tab->record_ver);
		ok = false;
	}
	if (rows < 0) {
		tl_umt_report(t, m, RULE_UMT_TABLE_ROW_COUNT, 8, MSG_UMT_TABLE_ROW_COUNT,
			   (long long)rows);
		ok = false;
	}
	if (m == M_MODULE && row_size == 64) {
		tl_umt_report(t, m, RULE_UMT_MODULE_ROW_2015, 16,
			   MSG_UMT_MODULE_ROW_2015);
	} else if (row_size < 0 || (uint64_t)row_size != k.row_size) {
		tl_umt_report(t, m, RULE_UMT_TABLE_ROW_SIZE, 16, MSG_UMT_TABLE_ROW_SIZE,
			   (unsigned long long)k.row_size, k.record, (long long)row_size);
		ok = false;
	}
	if (fp < 0 || (uint64_t)fp < k.header) {
		tl_umt_report(t, m, RULE_UMT_TABLE_ROWS_OFFSET, 24,
			   MSG_UMT_TABLE_ROWS_OFFSET,
			   (unsigned long long)k.header, (long long)fp);
		return;
	}
	if (!ok)
		return;
	uint64_t bytes, end;
	if (!tl_mul_u64((uint64_t)rows, (uint64_t)row_size, &bytes) ||
	    !tl_add_u64((uint64_t)fp, bytes, &end) || end > in->size) {
		tl_umt_report(t, m, RULE_UMT_TABLE_ROWS_IN_FILE, 8,
			   MSG_UMT_TABLE_ROWS_IN_FILE,
			   (long long)rows, (long long)row_size, (long long)fp, in->size);
		return;
	}
	tab->rows = (uint64_t)rows;
	tab->row_size = (uint64_t)row_size;
	tab->table_fp = (uint64_t)fp;
	uint64_t last = end;
	if (k.header == 48) {
		if (!tl_umt_fp_inside(0, xfp, xsize, 0, in->size, NULL)) {
			tl_umt_report(t, m, RULE_UMT_TABLE_EXTRA_IN_FILE, 32,
				   MSG_UMT_TABLE_EXTRA_IN_FILE,
				   (long long)xfp, (long long)xsize, in->size);
			return;
		}
		tab->extra_fp = (uint64_t)xfp;
		tab->extra_size = (uint64_t)xsize;
		uint64_t xend = tab->extra_fp + tab->extra_size;
		if (xsize > 0 && (tab->extra_fp < k.header || (tab->extra_fp < end && xend > tab->table_fp))) {
			tl_umt_report(t, m, RULE_UMT_TABLE_EXTRA_OVERLAP, 32,
				   MSG_UMT_TABLE_EXTRA_OVERLAP,
				   (long long)xfp, (unsigned long long)xend, (long long)fp,
				   (unsigned long long)end);
			return;
		}
		if (xend > last)
			last = xend;
	}
	if (last < in->size)
		tl_umt_report(t, m, RULE_UMT_TABLE_TRAILING_BYTES, last,
			   MSG_UMT_TABLE_TRAILING_BYTES,
			   (unsigned long long)last, (unsigned long long)(in->size - last));
	tab->ok = true;
}
