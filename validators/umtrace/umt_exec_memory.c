/* The memory operands of one instruction record: each MEM0 address (or AGEN value) is
 * the one its phrase registers give (UMT-SLOT-ADDRESS-VALUE), and every page it touches is listed in
 * address_space.itable (UMT-RANGES-COVER-MEMORY). Its state, a cache of decodedIns layouts, belongs to
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

/* A value of the record: `width` bytes at `at` of the operand values, else `constant`
 * (a phrase register: 0 for SLOT_NA, ConstSlot[k] for SLOT_IMMk). */
struct phrase {
	uint64_t at, width, constant;
};

struct plan_slot {
	uint64_t slot;
	uint64_t width;       /* bytes compared: AddrWidth, AGEN min(ValueSize, 8) */
	uint64_t value_size;
	enum slot_kind kind;
	struct phrase addr;   /* its address (AGEN: value) in the operand values: 8 bytes
			       * (zero-extended), AGEN `width` */
};

struct umt_mem_plan {
	uint64_t key;         /* decodedIns offset + 1; 0 is an empty entry */
	uint64_t next_slot;   /* lcSlot to resume from when more than PLAN_SLOTS matter */
	uint64_t count;       /* LCCount */
	uint64_t need;        /* operand value bytes the plan reads: checked once a record */
	unsigned n;
	struct plan_slot s[PLAN_SLOTS];
	struct phrase seg, base, index, mem1;
	bool mem1_na;
	uint64_t scale, disp, addr_size;
};

static uint64_t low_bytes(uint64_t v, uint64_t bytes)
{
	return bytes >= 8 ? v : v & (((uint64_t)1 << (8 * bytes)) - 1);
}

/* A phrase register: a slot's value (after its address in a memory slot), a
 * ConstSlot, or 0 for SLOT_NA. A slot past LCCount is also taken as 0: only in a
 * decodedIns that failed its checks, whose records are not checked here. */
static struct phrase phrase_of(const struct umt_decoded *d, uint64_t s)
{
	if (s < d->f[UMT_D_LC_COUNT]) {
		const uint64_t *sl = d->slot[s];
		uint64_t size = sl[UMT_S_VALUE_SIZE] & 0xffff;
		return (struct phrase){ (sl[UMT_S_OFFSET] & 0xffff) + (sl[UMT_S_ADDR_WIDTH] ? 8 : 0),
					size < 8 ? size : 8, 0 };
	}
	if (s == UMT_SLOT_IMM0 || s == UMT_SLOT_IMM1)
		return (struct phrase){ 0, 0, d->f[s == UMT_SLOT_IMM0 ? UMT_D_IMM0 : UMT_D_IMM1] };
	return (struct phrase){ 0, 0, 0 };
}

static uint64_t reach(uint64_t need, uint64_t at, uint64_t width)
{
	return width && at + width > need ? at + width : need;
}

/* The memory and AGEN slots from lcSlot `from` on, at most PLAN_SLOTS of them. The
 * decodedIns passed its checks (its row is not in ins_bad), so its read fails only on
 * a layout error: the plan is then empty and the record's operands go unchecked. */
static void build_plan(const struct tl_input *ins, uint64_t decoded, uint64_t from,
		       struct umt_mem_plan *p)
{
	struct umt_decoded d;
	uint64_t count, s;
	p->n = 0;
	p->next_slot = UINT64_MAX;
	p->count = p->need = 0;
	if (!umt_decoded_read(ins, decoded, &d))
		return;
	const uint64_t *v = d.f;
	p->seg = phrase_of(&d, v[UMT_D_SEG]);
	p->base = phrase_of(&d, v[UMT_D_BASE]);
	p->index = phrase_of(&d, v[UMT_D_INDEX]);
	p->mem1 = phrase_of(&d, v[UMT_D_MEM1]);
	count = p->count = v[UMT_D_LC_COUNT];
	p->scale = v[UMT_D_SCALE];
	p->disp = v[UMT_D_IMM0]; /* Mem0Displacement shares ConstSlot[0]'s bytes */
	p->addr_size = v[UMT_D_EFF_ADDR];
	p->mem1_na = v[UMT_D_MEM1] == UMT_SLOT_NA;
	const struct phrase *ph[4] = { &p->seg, &p->base, &p->index, &p->mem1 };
	for (unsigned k = 0; k < 4; k++)
		p->need = reach(p->need, ph[k]->at, ph[k]->width);
	for (s = from; s < count && p->n < PLAN_SLOTS; s++) {
		const uint64_t *sl = d.slot[s];
		uint64_t reg = sl[UMT_S_REG], addr_width = sl[UMT_S_ADDR_WIDTH];
		uint64_t value_size = sl[UMT_S_VALUE_SIZE] & 0xffff;
		bool agen = reg == REG_AGEN && addr_width == 0;
		if (addr_width == 0 && !agen)
			continue;
		struct plan_slot *ps = &p->s[p->n++];
		ps->slot = s;
		ps->value_size = value_size;
		ps->width = agen ? (value_size < 8 ? value_size : 8) : addr_width;
		ps->kind = agen ? K_AGEN : reg == REG_MEM0 ? K_MEM0 : reg == REG_MEM1 ? K_MEM1 : K_MEMORY;
		ps->addr = (struct phrase){ sl[UMT_S_OFFSET] & 0xffff, agen ? ps->width : 8, 0 };
		p->need = reach(p->need, ps->addr.at, ps->addr.width);
	}
	p->next_slot = s;
}

/* A value of the record: its bytes lie within the plan's `need` bytes of the operand
 * values, checked as a whole for the record (check_plan). */
static inline uint64_t value_of(const struct tl_cursor *ops, const struct phrase *p)
{
	return p->width ? tl_load_uint(ops->p + p->at, p->width, false) : p->constant;
}

/* seg + (base + index x scale + displacement) mod 2^(8 x EffAddrSize) */
TL_HOT uint64_t mem0_address(const struct tl_cursor *ops, const struct umt_mem_plan *p)
{
	uint64_t base = value_of(ops, &p->base), index = value_of(ops, &p->index);
	return value_of(ops, &p->seg) + low_bytes(base + index * p->scale + p->disp, p->addr_size);
}

static void check_slot(struct umt_trace *t, struct umt_memory *m, uint64_t eid, uint64_t lc,
		       const struct tl_cursor *ops, const struct umt_mem_plan *p,
		       const struct plan_slot *ps)
{
	uint64_t at = lc + ps->addr.at, width = ps->width, addr = value_of(ops, &ps->addr), want;
	if (ps->kind == K_MEM0 || ps->kind == K_AGEN) {
		want = mem0_address(ops, p);
		if (low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   MSG_UMT_SLOT_ADDRESS_VALUE,
				   (unsigned long long)eid, ps->kind == K_AGEN ? "AGEN" : "MEM0",
				   (unsigned long long)ps->slot, (unsigned long long)low_bytes(want, width),
				   (unsigned long long)width, (unsigned long long)addr);
	} else if (ps->kind == K_MEM1 && !p->mem1_na) {
		want = value_of(ops, &p->mem1);
		if (low_bytes(want ^ addr, width))
			tl_umt_report(t, M_EXEC_VTABLE, RULE_UMT_SLOT_ADDRESS_VALUE, at,
				   MSG_UMT_SLOT_ADDRESS_VALUE_2,
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
			   MSG_UMT_RANGES_COVER_MEMORY,
			   (unsigned long long)eid, (unsigned long long)ps->slot,
			   (unsigned long long)addr, (unsigned long long)last);
}

/* The plan's slots of one record (most instructions have none). The operand values
 * they read are checked as one structure: they lie inside the record (its size is 14 + LCSize, and every slot of
 * a decodedIns that passed its checks ends within LCSize). */
static inline void check_plan(struct umt_trace *t, struct umt_memory *m, uint64_t eid, uint64_t lc,
		       const struct umt_mem_plan *p)
{
	struct tl_cursor ops;
	if (!p->n || !umt_row(&t->f[M_EXEC_VTABLE], lc, p->need, &ops))
		return;
	for (unsigned k = 0; k < p->n; k++)
		check_slot(t, m, eid, lc, &ops, p, &p->s[k]);
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
	check_plan(t, m, eid, lc, p);
	/* more memory slots than a plan holds: go on without the cache */
	while (p->next_slot < p->count) {
		build_plan(ins, info->decoded, p->next_slot, &local);
		p = &local;
		check_plan(t, m, eid, lc, p);
	}
}
