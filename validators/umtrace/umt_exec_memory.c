/* The memory operands of one instruction record: each MEM0 address (or AGEN value) is
 * the one its phrase registers give (U346), and every page it touches is listed in
 * address_space.itable (U706). Also the page lookup used for context dumps.
 * Operand values start at record offset 14 (research §0.3); a memory slot holds an
 * 8-byte zero-extended address, then its value. */
#include "umt.h"

#include <stdlib.h>

#define REG_MEM0 0xffff
#define REG_MEM1 0xfffe
#define REG_AGEN 0xfffd

/* [lo, hi] lies in one range. Only used when the ranges are well formed, sorted,
 * disjoint and merged (ranges_ok): a gap between two ranges is then never listed, so
 * a listed reference lies in the one range found by binary search on First. */
bool tl_umt_address_listed(struct umt_trace *t, uint64_t lo, uint64_t hi)
{
	const struct tl_input *in = &t->f[M_ADDRESS];
	uint64_t base = t->address.table_fp, step = t->address.row_size;
	uint64_t hit = base + t->range_hit * step; /* references cluster: try it first */
	if (t->range_hit < t->address.rows && umt_u(in, hit, 8) <= lo && hi <= umt_u(in, hit + 8, 8))
		return true;
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
	t->range_hit = a - 1;
	return hi <= umt_u(in, base + (a - 1) * step + 8, 8);
}

/* What the check needs of one decodedIns, read once from ins.itable and kept in a small
 * direct-mapped cache keyed by the decodedIns offset: records of the same instruction
 * then cost only the reads of their own operand bytes. */
#define PLAN_SLOTS 8
#define PLAN_CACHE 1024

enum slot_kind { K_MEM0, K_MEM1, K_AGEN, K_MEMORY };

struct plan_slot {
	uint64_t slot;
	uint64_t at;          /* offset of the address (AGEN: value) in the operand values */
	uint64_t width;       /* bytes compared: AddrWidth, AGEN min(ValueSize, 8) */
	uint64_t value_size;
	enum slot_kind kind;
};

/* A phrase register's value: `width` bytes at `at` of the operand values, else `constant`
 * (0 for SLOT_NA, ConstSlot[k] for SLOT_IMMk). */
struct phrase {
	uint64_t at, width, constant;
};

struct umt_mem_plan {
	uint64_t key;         /* decodedIns offset + 1; 0 is an empty entry */
	uint64_t next_slot;   /* lcSlot to resume from when more than PLAN_SLOTS matter */
	unsigned n;
	struct plan_slot s[PLAN_SLOTS];
	struct phrase seg, base, index, mem1;
	bool mem1_na;
	uint64_t scale, disp, addr_size;
};

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

static struct phrase phrase_of(const struct tl_input *ins, uint64_t decoded, uint64_t s)
{
	struct phrase p = { 0, 0, 0 };
	if (s == UMT_SLOT_IMM0 || s == UMT_SLOT_IMM1) {
		p.constant = umt_u(ins, decoded + 72 + 8 * (s - UMT_SLOT_IMM0), 8);
	} else if (s != UMT_SLOT_NA) {
		struct lc_slot sl = slot_at(ins, decoded, s);
		p.at = sl.offset + (sl.addr_width ? 8 : 0);
		p.width = sl.value_size < 8 ? sl.value_size : 8;
	}
	return p;
}

/* The memory and AGEN slots from lcSlot `from` on, at most PLAN_SLOTS of them. */
static void build_plan(const struct tl_input *ins, uint64_t decoded, uint64_t from,
		       struct umt_mem_plan *p)
{
	uint64_t count = umt_u(ins, decoded + 62, 1), s;
	p->n = 0;
	for (s = from; s < count && p->n < PLAN_SLOTS; s++) {
		struct lc_slot sl = slot_at(ins, decoded, s);
		bool agen = sl.reg == REG_AGEN && sl.addr_width == 0;
		if (sl.addr_width == 0 && !agen)
			continue;
		struct plan_slot *ps = &p->s[p->n++];
		ps->slot = s;
		ps->at = sl.offset;
		ps->value_size = sl.value_size;
		ps->width = agen ? (sl.value_size < 8 ? sl.value_size : 8) : sl.addr_width;
		ps->kind = agen ? K_AGEN : sl.reg == REG_MEM0 ? K_MEM0 : sl.reg == REG_MEM1 ? K_MEM1 : K_MEMORY;
	}
	p->next_slot = s;
	p->seg = phrase_of(ins, decoded, umt_u(ins, decoded + 63, 1));
	p->base = phrase_of(ins, decoded, umt_u(ins, decoded + 64, 1));
	p->index = phrase_of(ins, decoded, umt_u(ins, decoded + 66, 1));
	p->mem1 = phrase_of(ins, decoded, umt_u(ins, decoded + 67, 1));
	p->mem1_na = umt_u(ins, decoded + 67, 1) == UMT_SLOT_NA;
	p->scale = umt_u(ins, decoded + 65, 1);
	p->disp = umt_u(ins, decoded + 72, 8);
	p->addr_size = umt_u(ins, decoded + 57, 1);
}

static uint64_t value_of(struct umt_trace *t, uint64_t lc, const struct phrase *p)
{
	return p->width ? umt_u(&t->f[M_EXEC_VTABLE], lc + p->at, (unsigned)p->width) : p->constant;
}

/* seg + (base + index x scale + displacement) mod 2^(8 x EffAddrSize) */
static uint64_t mem0_address(struct umt_trace *t, const struct umt_mem_plan *p, uint64_t lc)
{
	uint64_t ea = value_of(t, lc, &p->base) + value_of(t, lc, &p->index) * p->scale + p->disp;
	return value_of(t, lc, &p->seg) + low_bytes(ea, p->addr_size);
}

static void check_slot(struct umt_trace *t, uint64_t eid, uint64_t lc,
		       const struct umt_mem_plan *p, const struct plan_slot *ps)
{
	uint64_t at = lc + ps->at, width = ps->width;
	uint64_t addr = width ? umt_u(&t->f[M_EXEC_VTABLE], at, ps->kind == K_AGEN ? (unsigned)width : 8) : 0;
	if (ps->kind == K_MEM0 || ps->kind == K_AGEN) {
		uint64_t want = mem0_address(t, p, lc);
		if (low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   "expected record %llu %s slot %llu = 0x%llx from its phrase registers (low %llu bytes), found 0x%llx",
				   (unsigned long long)eid, ps->kind == K_AGEN ? "AGEN" : "MEM0",
				   (unsigned long long)ps->slot, (unsigned long long)low_bytes(want, width),
				   (unsigned long long)width, (unsigned long long)addr);
	} else if (ps->kind == K_MEM1 && !p->mem1_na) {
		uint64_t want = value_of(t, lc, &p->mem1);
		if (low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   "expected record %llu MEM1 slot %llu = 0x%llx (its Mem1Base register), found 0x%llx",
				   (unsigned long long)eid, (unsigned long long)ps->slot,
				   (unsigned long long)low_bytes(want, width), (unsigned long long)addr);
	}
	if (ps->kind == K_AGEN || !t->ranges_ok)
		return;
	uint64_t last = ps->value_size ? addr + (ps->value_size - 1) : addr;
	if (last < addr)
		last = UINT64_MAX;
	if (!tl_umt_address_listed(t, addr, last))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RANGES_COVER_MEMORY, at,
			   "expected the pages of record %llu memory slot %llu [0x%llx, 0x%llx] in address_space.itable, found them missing",
			   (unsigned long long)eid, (unsigned long long)ps->slot,
			   (unsigned long long)addr, (unsigned long long)last);
}

void tl_umt_check_memory_operands(struct umt_trace *t, uint64_t eid, uint64_t start,
			       const struct umt_ins_info *info)
{
	const struct tl_input *ins = &t->f[M_INS];
	uint64_t lc = start + 14, count;
	struct umt_mem_plan local, *p = &local;
	if (!t->plans)
		t->plans = calloc(PLAN_CACHE, sizeof *t->plans);
	if (t->plans) {
		p = &t->plans[(info->decoded >> 2) % PLAN_CACHE];
		if (p->key != info->decoded + 1) {
			build_plan(ins, info->decoded, 0, p);
			p->key = info->decoded + 1;
		}
	} else {
		build_plan(ins, info->decoded, 0, p);
	}
	for (unsigned k = 0; k < p->n; k++)
		check_slot(t, eid, lc, p, &p->s[k]);
	/* more memory slots than a plan holds: go on without the cache */
	for (count = umt_u(ins, info->decoded + 62, 1); p->next_slot < count;) {
		build_plan(ins, info->decoded, p->next_slot, &local);
		p = &local;
		for (unsigned k = 0; k < p->n; k++)
			check_slot(t, eid, lc, p, &p->s[k]);
	}
}
