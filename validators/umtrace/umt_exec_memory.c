/* The memory operands of one instruction record: each MEM0 address (or AGEN value) is
 * the one its phrase registers give (U346), and every page it touches is listed in
 * address_space.itable (U706). Its state, a cache of decodedIns layouts, belongs to
 * the record pass that calls it.
 * Operand values start at record offset 14 (seed 6.4); a memory slot holds an
 * 8-byte zero-extended address, then its value. */
#include "umt.h"

#include <stdlib.h>

#define REG_MEM0 0xffff
#define REG_MEM1 0xfffe
#define REG_AGEN 0xfffd

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
	uint64_t count;       /* LCCount */
	unsigned n;
	struct plan_slot s[PLAN_SLOTS];
	struct phrase seg, base, index, mem1;
	bool mem1_na;
	uint64_t scale, disp, addr_size;
};

struct lc_slot {
	uint64_t reg, value_size, offset, addr_width;
};

/* lcSlot s of the decodedIns cursor (s below LCCount: inside it); ValueSize and
 * Offset taken unsigned here. */
static bool slot_at(const struct tl_cursor *dec, uint64_t s, struct lc_slot *r)
{
	uint64_t v[UMT_S_N];
	if (!umt_slot_fields(dec, s, v))
		return false;
	*r = (struct lc_slot){ v[UMT_S_REG], v[UMT_S_VALUE_SIZE] & 0xffff, v[UMT_S_OFFSET] & 0xffff,
			       v[UMT_S_ADDR_WIDTH] };
	return true;
}

static uint64_t low_bytes(uint64_t v, uint64_t bytes)
{
	return bytes >= 8 ? v : v & (((uint64_t)1 << (8 * bytes)) - 1);
}

static bool phrase_of(const struct tl_cursor *dec, const uint64_t v[UMT_D_N], uint64_t s,
		      struct phrase *p)
{
	*p = (struct phrase){ 0, 0, 0 };
	if (s == UMT_SLOT_IMM0 || s == UMT_SLOT_IMM1) {
		p->constant = v[s == UMT_SLOT_IMM0 ? UMT_D_IMM0 : UMT_D_IMM1];
		return true;
	}
	struct lc_slot sl;
	if (s == UMT_SLOT_NA)
		return true;
	if (!slot_at(dec, s, &sl))
		return false;
	p->at = sl.offset + (sl.addr_width ? 8 : 0);
	p->width = sl.value_size < 8 ? sl.value_size : 8;
	return true;
}

/* The memory and AGEN slots from lcSlot `from` on, at most PLAN_SLOTS of them. The
 * decodedIns passed its checks (its row is not in ins_bad), so a read fails only on a
 * layout error: the plan is then empty and the record's operands go unchecked. */
static void build_plan(const struct tl_input *ins, uint64_t decoded, uint64_t from,
		       struct umt_mem_plan *p)
{
	struct tl_cursor dec;
	uint64_t v[UMT_D_N], count, s;
	p->n = 0;
	p->next_slot = UINT64_MAX;
	p->count = 0;
	if (!umt_decoded_row(ins, decoded, &dec, v) || !phrase_of(&dec, v, v[UMT_D_SEG], &p->seg) ||
	    !phrase_of(&dec, v, v[UMT_D_BASE], &p->base) ||
	    !phrase_of(&dec, v, v[UMT_D_INDEX], &p->index) ||
	    !phrase_of(&dec, v, v[UMT_D_MEM1], &p->mem1))
		return;
	count = p->count = v[UMT_D_LC_COUNT];
	p->scale = v[UMT_D_SCALE];
	p->disp = v[UMT_D_IMM0]; /* Mem0Displacement shares ConstSlot[0]'s bytes */
	p->addr_size = v[UMT_D_EFF_ADDR];
	p->mem1_na = v[UMT_D_MEM1] == UMT_SLOT_NA;
	for (s = from; s < count && p->n < PLAN_SLOTS; s++) {
		struct lc_slot sl;
		if (!slot_at(&dec, s, &sl)) {
			p->n = 0;
			return;
		}
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
}

/* A phrase register's value. Its bytes lie inside the record (the slots end within
 * LCSize, the record is 14 + LCSize bytes): false only on a layout error. */
TL_HOT bool value_of(struct umt_trace *t, uint64_t lc, const struct phrase *p, uint64_t *v)
{
	if (!p->width) {
		*v = p->constant;
		return true;
	}
	return umt_rd(&t->f[M_EXEC_VTABLE], lc + p->at, (unsigned)p->width, v);
}

/* seg + (base + index x scale + displacement) mod 2^(8 x EffAddrSize) */
TL_HOT bool mem0_address(struct umt_trace *t, const struct umt_mem_plan *p, uint64_t lc,
			 uint64_t *addr)
{
	uint64_t base, index, seg;
	if (!value_of(t, lc, &p->base, &base) || !value_of(t, lc, &p->index, &index) ||
	    !value_of(t, lc, &p->seg, &seg))
		return false;
	*addr = seg + low_bytes(base + index * p->scale + p->disp, p->addr_size);
	return true;
}

static void check_slot(struct umt_trace *t, struct umt_memory *m, uint64_t eid, uint64_t lc,
		       const struct umt_mem_plan *p, const struct plan_slot *ps)
{
	uint64_t at = lc + ps->at, width = ps->width, addr = 0, want;
	/* inside the record, as value_of's reads */
	if (width && !umt_rd(&t->f[M_EXEC_VTABLE], at, ps->kind == K_AGEN ? (unsigned)width : 8, &addr))
		return;
	if (ps->kind == K_MEM0 || ps->kind == K_AGEN) {
		if (mem0_address(t, p, lc, &want) && low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   "expected record %llu %s slot %llu = 0x%llx from its phrase registers (low %llu bytes), found 0x%llx",
				   (unsigned long long)eid, ps->kind == K_AGEN ? "AGEN" : "MEM0",
				   (unsigned long long)ps->slot, (unsigned long long)low_bytes(want, width),
				   (unsigned long long)width, (unsigned long long)addr);
	} else if (ps->kind == K_MEM1 && !p->mem1_na) {
		if (value_of(t, lc, &p->mem1, &want) && low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   "expected record %llu MEM1 slot %llu = 0x%llx (its Mem1Base register), found 0x%llx",
				   (unsigned long long)eid, (unsigned long long)ps->slot,
				   (unsigned long long)low_bytes(want, width), (unsigned long long)addr);
	}
	if (ps->kind == K_AGEN || !m->ranges)
		return;
	uint64_t last = ps->value_size ? addr + (ps->value_size - 1) : addr;
	if (last < addr)
		last = UINT64_MAX;
	if (!umt_address_listed(t, m->ranges, &m->range_hit, addr, last))
		tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_RANGES_COVER_MEMORY, at,
			   "expected the pages of record %llu memory slot %llu [0x%llx, 0x%llx] in address_space.itable, found them missing",
			   (unsigned long long)eid, (unsigned long long)ps->slot,
			   (unsigned long long)addr, (unsigned long long)last);
}

void tl_umt_memory_end(struct umt_memory *m)
{
	free(m->plans);
	m->plans = NULL;
}

void tl_umt_check_memory_operands(struct umt_trace *t, struct umt_memory *m, uint64_t eid,
			       uint64_t start, const struct umt_ins_info *info)
{
	const struct tl_input *ins = &t->f[M_INS];
	uint64_t lc = start + 14;
	struct umt_mem_plan local, *p = &local;
	if (!m->plans)
		m->plans = calloc(PLAN_CACHE, sizeof *m->plans);
	if (m->plans) {
		p = &m->plans[(info->decoded >> 2) % PLAN_CACHE];
		if (p->key != info->decoded + 1) {
			build_plan(ins, info->decoded, 0, p);
			p->key = info->decoded + 1;
		}
	} else {
		build_plan(ins, info->decoded, 0, p);
	}
	for (unsigned k = 0; k < p->n; k++)
		check_slot(t, m, eid, lc, p, &p->s[k]);
	/* more memory slots than a plan holds: go on without the cache */
	while (p->next_slot < p->count) {
		build_plan(ins, info->decoded, p->next_slot, &local);
		p = &local;
		for (unsigned k = 0; k < p->n; k++)
			check_slot(t, m, eid, lc, p, &p->s[k]);
	}
}
