/* ins.itable rows (insRec), their disassembly strings and decodedIns pointers. */
#include "umt.h"

#include <stdlib.h>

static bool valid_ins_type(uint64_t type)
{
	return type <= 6 || type == 8 || type == 9;
}

/* The code bytes lie inside the module the row names (a warning: modules mapped twice
 * or relocated are reported, not rejected). */
static void check_in_module(struct umt_trace *t, const struct umt_table *modules, uint64_t row,
			    uint64_t module, uint64_t address, uint64_t code_size)
{
	struct umt_module_row m;
	if (!tl_umt_module_row(t, modules, module, &m))
		return;
	uint64_t start = m.start, end = m.end;
	if (start > end) /* reported on the module (UMT-MODULE-RANGE) */
		return;
	if (address < start || address > end || code_size - 1 > end - address)
		tl_umt_report(t, M_INS, RULE_UMT_INS_IN_MODULE, row + 16,
			   MSG_UMT_INS_IN_MODULE,
			   (unsigned long long)address, (unsigned long long)code_size,
			   (unsigned long long)module, (unsigned long long)start,
			   (unsigned long long)end);
}

/* insRec: ID, Type, CSis64Bits, CodeSize, ModuleID, Address, DisasmFP, DecodedFP. */
enum { I_ID, I_TYPE, I_CS64, I_CODE_SIZE, I_MODULE, I_ADDRESS, I_DISASM, I_DECODED, I_N };
static const struct umt_field ins_row[I_N] = {
	[I_ID] = { 0, 8, true },       [I_TYPE] = { 8, 1, false },
	[I_CS64] = { 9, 1, false },    [I_CODE_SIZE] = { 10, 1, false },
	[I_MODULE] = { 12, 4, true },  [I_ADDRESS] = { 16, 8, false },
	[I_DISASM] = { 40, 8, true },  [I_DECODED] = { 48, 8, true },
};

/* One row; false when exec records must not rely on it. */
static bool check_row(struct umt_trace *t, const struct umt_tables *tabs, uint64_t i)
{
	const struct tl_input *in = &t->f[M_INS];
	const struct umt_table *tab = &tabs->ins;
	uint64_t xlo = tab->extra_fp, xhi = tab->extra_fp + tab->extra_size;
	struct tl_cursor r;
	uint64_t v[I_N];
	/* the header check put every row inside the file: a row fails here only as a whole */
	if (!umt_table_fields(in, tab, i, &r, ins_row, I_N, v))
		return false;
	int64_t id = umt_signed(v[I_ID]), module = umt_signed(v[I_MODULE]);
	int64_t disasm = umt_signed(v[I_DISASM]), decoded = umt_signed(v[I_DECODED]);
	uint64_t type = v[I_TYPE], cs64 = v[I_CS64], code_size = v[I_CODE_SIZE];
	uint64_t address = v[I_ADDRESS];
	uint64_t row = tl_cursor_offset(&r);
	bool ok = true;
	if (id < 0 || (uint64_t)id != i)
		tl_umt_report(t, M_INS, RULE_UMT_INS_ID, row, MSG_UMT_INS_ID,
			   (unsigned long long)i, (long long)id);
	if (!valid_ins_type(type))
		tl_umt_report(t, M_INS, RULE_UMT_INS_TYPE, row + 8,
			   MSG_UMT_INS_TYPE, (unsigned long long)type);
	if (cs64 > 1) {
		tl_umt_report(t, M_INS, RULE_UMT_INS_MODE, row + 9, MSG_UMT_INS_MODE,
			   (unsigned long long)cs64);
		ok = false;
	}
	if (code_size < 1 || code_size > 15)
		tl_umt_report(t, M_INS, RULE_UMT_INS_CODE_SIZE, row + 10, MSG_UMT_INS_CODE_SIZE,
			   (unsigned long long)code_size);
	if (tabs->module.ok && module != UMT_NONE && (module < 0 || (uint64_t)module >= tabs->module.rows))
		tl_umt_report(t, M_INS, RULE_UMT_INS_MODULE, row + 12,
			   MSG_UMT_INS_MODULE,
			   (unsigned long long)tabs->module.rows, (long long)module);
	if (cs64 == 0 && address > UINT32_MAX)
		tl_umt_report(t, M_INS, RULE_UMT_INS_ADDR32,
			   row + 16, MSG_UMT_INS_ADDR32,
			   (unsigned long long)address);
	else if (tabs->module.ok && module >= 0 && (uint64_t)module < tabs->module.rows &&
		 code_size >= 1 && code_size <= 15)
		check_in_module(t, &tabs->module, row, (uint64_t)module, address, code_size);
	uint64_t abs;
	if (!tl_umt_fp_inside(xlo, disasm, 1, xlo, xhi, &abs))
		tl_umt_report(t, M_INS, RULE_UMT_INS_DISASM_POINTER, row + 40,
			   MSG_UMT_INS_DISASM_POINTER,
			   (unsigned long long)tab->extra_size, (long long)disasm);
	else
		tl_umt_check_string(t, M_INS, abs, 1, xlo, xhi);
	uint64_t lc_count = 0;
	if (tl_umt_fp_inside(xlo, decoded, 88, xlo, xhi, &abs) && !umt_rd(in, abs + 62, 1, &lc_count))
		return false;
	if (!tl_umt_fp_inside(xlo, decoded, 88 + 12 * (int64_t)lc_count, xlo, xhi, &abs)) {
		tl_umt_report(t, M_INS, RULE_UMT_INS_DECODED_POINTER, row + 48,
			   MSG_UMT_INS_DECODED_POINTER,
			   (long long)decoded, (unsigned long long)(88 + 12 * lc_count),
			   (unsigned long long)tab->extra_size);
		return false;
	}
	return tl_umt_check_decoded(t, &tabs->cmap, abs, cs64 != 0) && ok;
}

void tl_umt_check_instructions(struct umt_trace *t, const struct umt_tables *tabs,
			       uint8_t **ins_bad)
{
	uint8_t *bad = tl_umt_bitmap_new(tabs->ins.rows);
	*ins_bad = bad;
	if (!bad) {
		tl_out_of_memory(t->ctx);
		return;
	}
	for (uint64_t i = 0; i < tabs->ins.rows && !tl_stopped(t->ctx); i++) {
		if (!check_row(t, tabs, i))
			umt_set_bit(bad, i);
		/* rows in order, decodedIns anywhere in the extra area: drop all now and then */
		if ((i & 0xffff) == 0xffff)
			tl_umt_drop_pages(t, M_INS);
	}
}
