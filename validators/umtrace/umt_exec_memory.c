/* The memory operands of one instruction record: each MEM0 address (or AGEN value) is
 * the one its phrase registers give (U346), and every page it touches is listed in
 * address_space.itable (U706). Also the page lookup used for context dumps.
 * Operand values start at record offset 14 (research §0.3); a memory slot holds an
 * 8-byte zero-extended address, then its value. */
#include "umt.h"

#define REG_MEM0 0xffff
#define REG_MEM1 0xfffe
#define REG_AGEN 0xfffd

/* [lo, hi] lies in one range. Only used when the ranges are well formed, sorted,
 * disjoint and merged (ranges_ok): a gap between two ranges is then never listed, so
 * a listed reference lies in the one range found by binary search on First. */
bool umt_address_listed(struct umt_trace *t, uint64_t lo, uint64_t hi)
{
	const struct tl_input *in = &t->f[M_ADDRESS];
	uint64_t base = t->address.table_fp, step = t->address.row_size;
	uint64_t a = 0, b = t->address.rows; /* find the first row with First > lo */
	while (a < b) {
		uint64_t mid = a + (b - a) / 2;
		if (umt_u(in, base + mid * step, 8) <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == 0)
		return false;
	uint64_t last = umt_u(in, base + (a - 1) * step + 8, 8);
	return hi <= last;
}

struct lc_slot {
	uint64_t reg, value_size, offset, addr_width;
};

static struct lc_slot slot_at(const struct tl_input *ins, uint64_t decoded, uint64_t s)
{
	uint64_t at = decoded + 88 + 12 * s;
	struct lc_slot r = { umt_u(ins, at, 2), umt_u(ins, at + 4, 2), umt_u(ins, at + 6, 2),
			     umt_u(ins, at + 8, 1) };
	return r;
}

static uint64_t low_bytes(uint64_t v, uint64_t bytes)
{
	return bytes >= 8 ? v : v & (((uint64_t)1 << (8 * bytes)) - 1);
}

/* The value a phrase slot gives: 0 for SLOT_NA, a constant for SLOT_IMM0/IMM1, else the
 * first (up to 8) value bytes of the slot in the record. */
static uint64_t phrase_value(struct umt_trace *t, uint64_t decoded, uint64_t lc, uint64_t s)
{
	const struct tl_input *ins = &t->f[M_INS];
	if (s == UMT_SLOT_NA)
		return 0;
	if (s == UMT_SLOT_IMM0 || s == UMT_SLOT_IMM1)
		return umt_u(ins, decoded + 72 + 8 * (s - UMT_SLOT_IMM0), 8);
	struct lc_slot sl = slot_at(ins, decoded, s);
	uint64_t width = sl.value_size < 8 ? sl.value_size : 8;
	if (width == 0)
		return 0;
	return umt_u(&t->f[M_EXEC_VTABLE], lc + sl.offset + (sl.addr_width ? 8 : 0), (unsigned)width);
}

/* seg + (base + index x scale + displacement) mod 2^(8 x EffAddrSize) */
static uint64_t mem0_address(struct umt_trace *t, uint64_t decoded, uint64_t lc)
{
	const struct tl_input *ins = &t->f[M_INS];
	uint64_t seg = phrase_value(t, decoded, lc, umt_u(ins, decoded + 63, 1));
	uint64_t base = phrase_value(t, decoded, lc, umt_u(ins, decoded + 64, 1));
	uint64_t index = phrase_value(t, decoded, lc, umt_u(ins, decoded + 66, 1));
	uint64_t scale = umt_u(ins, decoded + 65, 1), disp = umt_u(ins, decoded + 72, 8);
	uint64_t size = umt_u(ins, decoded + 57, 1);
	return seg + low_bytes(base + index * scale + disp, size);
}

void umt_check_memory_operands(struct umt_trace *t, uint64_t eid, uint64_t start,
			       const struct umt_ins_info *info)
{
	const struct tl_input *ins = &t->f[M_INS];
	uint64_t lc = start + 14, count = umt_u(ins, info->decoded + 62, 1);
	for (uint64_t s = 0; s < count; s++) {
		struct lc_slot sl = slot_at(ins, info->decoded, s);
		bool agen = sl.reg == REG_AGEN && sl.addr_width == 0;
		if (sl.addr_width == 0 && !agen)
			continue;
		uint64_t at = lc + sl.offset, width = sl.addr_width;
		uint64_t addr = umt_u(&t->f[M_EXEC_VTABLE], at, 8);
		if (agen) { /* the value is the address */
			width = sl.value_size < 8 ? sl.value_size : 8;
			addr = width ? umt_u(&t->f[M_EXEC_VTABLE], at, (unsigned)width) : 0;
		}
		if (sl.reg == REG_MEM0 || agen) {
			uint64_t want = mem0_address(t, info->decoded, lc);
			if (low_bytes(want ^ addr, width))
				umt_report(t, M_EXEC_VTABLE, RULE_UMT_U346, at,
					   "expected record %llu %s slot %llu = 0x%llx from its phrase registers (low %llu bytes), found 0x%llx",
					   (unsigned long long)eid, agen ? "AGEN" : "MEM0",
					   (unsigned long long)s, (unsigned long long)low_bytes(want, width),
					   (unsigned long long)width, (unsigned long long)addr);
		} else if (sl.reg == REG_MEM1 && umt_u(ins, info->decoded + 67, 1) != UMT_SLOT_NA) {
			uint64_t want = phrase_value(t, info->decoded, lc, umt_u(ins, info->decoded + 67, 1));
			if (low_bytes(want ^ addr, width))
				umt_report(t, M_EXEC_VTABLE, RULE_UMT_U346, at,
					   "expected record %llu MEM1 slot %llu = 0x%llx (its Mem1Base register), found 0x%llx",
					   (unsigned long long)eid, (unsigned long long)s,
					   (unsigned long long)low_bytes(want, width),
					   (unsigned long long)addr);
		}
		if (agen || !t->ranges_ok)
			continue;
		uint64_t last = sl.value_size ? addr + (sl.value_size - 1) : addr;
		if (last < addr)
			last = UINT64_MAX;
		if (!umt_address_listed(t, addr, last))
			umt_report(t, M_EXEC_VTABLE, RULE_UMT_U706, at,
				   "expected the pages of record %llu memory slot %llu [0x%llx, 0x%llx] in address_space.itable, found them missing",
				   (unsigned long long)eid, (unsigned long long)s,
				   (unsigned long long)addr, (unsigned long long)last);
	}
}
