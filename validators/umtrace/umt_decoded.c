/* decodedIns (88 bytes + 12 per lcSlot) with its expOper and lcSlot arrays (seed 7.3.3).
 * Mem1BaseSlot is read at offset 67 (decision D1). */
#include "umt.h"

struct slot {
	uint64_t reg, common;         /* RegName, CommonRegName */
	int64_t value_size, offset;
	uint64_t addr_width;
};

/* An operand (expOper): RegName, Size, Flags, BeforeSlot, AfterSlot, their offsets. */
struct operand {
	uint64_t reg;
	int64_t size;
	uint64_t flags, before, after, before_offset, after_offset;
};

struct decoded {
	struct umt_decoded dec;       /* the decodedIns with its lcSlots, read as a whole */
	uint64_t at;                  /* file offset of the decodedIns */
	uint64_t lc_count, first_after;
	int64_t lc_size;
	uint64_t first_out;
	uint64_t ph[4];               /* the phrase slots, in the order of phrase[] */
	const struct umt_cmap *cmap;  /* the context map, for the slots' register names */
	struct operand op[4];         /* the first ExpCount (at most 4) expOpers */
	unsigned slot_kinds;          /* MEM0/MEM1/AGEN named by a slot (kind_bit) */
};

#define REG_INVALID 0
#define REG_MEM0 0xffff
#define REG_MEM1 0xfffe
#define REG_AGEN 0xfffd

static bool real_slot(const struct decoded *d, uint64_t s) { return s < d->lc_count; }
static bool special_slot(uint64_t s) { return s >= UMT_SLOT_IMM0; }

/* lcSlot s, below lc_count (real_slot): read with the decodedIns. */
static struct slot slot_at(const struct decoded *d, uint64_t s)
{
	const uint64_t *v = d->dec.slot[s];
	return (struct slot){ v[UMT_S_REG], v[UMT_S_COMMON], umt_signed(v[UMT_S_VALUE_SIZE]),
			      umt_signed(v[UMT_S_OFFSET]), v[UMT_S_ADDR_WIDTH] };
}

/* MEM0, MEM1 and AGEN as bits, for the phrase check's "named by an operand or slot". */
static unsigned kind_bit(uint64_t reg)
{
	return reg == REG_MEM0 ? 1u : reg == REG_MEM1 ? 2u : reg == REG_AGEN ? 4u : 0u;
}

/* RegName and CommonRegName against the context map (seed 7.3.3: both versions of
 * the second field hold the map's CommonName of the register). */
static void check_slot_names(struct umt_trace *t, const struct decoded *d, uint64_t s,
			     const struct slot *sl)
{
	if (!d->cmap->ok)
		return;
	uint64_t at = d->at + 88 + 12 * s;
	uint64_t reg = sl->reg, common = sl->common, want;
	if (reg == REG_MEM0 || reg == REG_MEM1 || reg == REG_AGEN)
		return;
	if (reg >= d->cmap->count) {
		tl_umt_report(t, M_INS, RULE_UMT_SLOT_REGISTER, at,
			   MSG_UMT_SLOT_REGISTER,
			   (unsigned long long)s, d->cmap->count, (unsigned long long)reg);
		return;
	}
	want = d->cmap->common[reg];
	/* a CommonName outside the map was reported there (UMT-CMAP-COMMON-NAME) */
	if (common != want && want < d->cmap->count)
		tl_umt_report(t, M_INS, RULE_UMT_SLOT_COMMON_REGISTER, at + 2,
			   MSG_UMT_SLOT_COMMON_REGISTER,
			   (unsigned long long)s, (unsigned long long)want, (unsigned long long)reg,
			   (unsigned long long)common);
}

static bool check_slots(struct umt_trace *t, struct decoded *d)
{
	bool ok = true;
	for (uint64_t s = 0; s < d->lc_count; s++) {
		uint64_t at = d->at + 88 + 12 * s;
		struct slot sl = slot_at(d, s);
		d->slot_kinds |= kind_bit(sl.reg);
		if (sl.value_size < 0 || sl.offset < 0) {
			tl_umt_report(t, M_INS, RULE_UMT_SLOT_SIZE, at + 4,
				   MSG_UMT_SLOT_SIZE,
				   (unsigned long long)s, (long long)sl.value_size, (long long)sl.offset);
			ok = false;
			continue;
		}
		if (sl.addr_width > 8) {
			tl_umt_report(t, M_INS, RULE_UMT_SLOT_ADDR_WIDTH, at + 8,
				   MSG_UMT_SLOT_ADDR_WIDTH,
				   (unsigned long long)s, (unsigned long long)sl.addr_width);
			ok = false;
			continue;
		}
		if (sl.addr_width != 0 && sl.addr_width != 2 && sl.addr_width != 4 && sl.addr_width != 8)
			tl_umt_report(t, M_INS, RULE_UMT_SLOT_ADDR_WIDTH_VALUE, at + 8,
				   MSG_UMT_SLOT_ADDR_WIDTH_VALUE,
				   (unsigned long long)s, (unsigned long long)sl.addr_width);
		check_slot_names(t, d, s, &sl);
		int64_t end = sl.offset + (sl.addr_width ? 8 : 0) + sl.value_size;
		if (end > d->lc_size) {
			tl_umt_report(t, M_INS, RULE_UMT_SLOT_IN_RECORD, at + 6,
				   MSG_UMT_SLOT_IN_RECORD,
				   (unsigned long long)s, (long long)d->lc_size, (long long)end);
			ok = false;
		}
	}
	return ok;
}

/* One operand's bytes at slot + offset: a memory slot's value starts after its address. */
static void check_operand_span(struct umt_trace *t, const struct decoded *d, uint64_t k,
			       uint64_t reg, uint64_t slot, uint64_t offset, int64_t size,
			       uint64_t field)
{
	uint64_t at = d->at + 8 + 12 * k;
	if (!real_slot(d, slot)) {
		if (special_slot(slot) && slot != UMT_SLOT_NA && (int64_t)offset + size > 8)
			tl_umt_report(t, M_INS, RULE_UMT_OPERAND_IN_SLOT, at + 2,
				   MSG_UMT_OPERAND_IN_SLOT,
				   (unsigned long long)k, (long long)size, (unsigned long long)offset);
		return;
	}
	struct slot sl = slot_at(d, slot);
	bool memory_reg = reg == REG_MEM0 || reg == REG_MEM1;
	if (memory_reg != (sl.addr_width > 0) && (memory_reg || reg == REG_AGEN)) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_SLOT_KIND, at,
			   MSG_UMT_OPERAND_SLOT_KIND,
			   (unsigned long long)k, reg == REG_AGEN ? "AGEN" : reg == REG_MEM0 ? "MEM0" : "MEM1",
			   memory_reg ? "memory" : "non-memory", (unsigned long long)slot,
			   (unsigned long long)sl.addr_width);
		return;
	}
	if (sl.addr_width == 0 && offset > 1)
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_REGISTER_OFFSET, at + field,
			   MSG_UMT_OPERAND_REGISTER_OFFSET,
			   (unsigned long long)k, (unsigned long long)slot, (unsigned long long)offset);
	if (sl.addr_width > 0 && offset != 8) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_MEMORY_OFFSET, at + field,
			   MSG_UMT_OPERAND_MEMORY_OFFSET,
			   (unsigned long long)k, (unsigned long long)slot, (unsigned long long)offset);
		return;
	}
	int64_t span = (sl.addr_width ? 8 : 0) + sl.value_size;
	if ((int64_t)offset + size > span)
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_IN_SLOT, at + 2,
			   MSG_UMT_OPERAND_IN_SLOT_2,
			   (unsigned long long)k, (long long)size, (unsigned long long)offset,
			   (unsigned long long)slot, (long long)span);
}

static void check_operand(struct umt_trace *t, const struct decoded *d, uint64_t k)
{
	uint64_t at = d->at + 8 + 12 * k;
	const struct operand o = d->op[k];
	int64_t size = o.size;
	uint64_t flags = o.flags, before = o.before, after = o.after, reg = o.reg;
	if (flags < 1 || flags > 3) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_FLAGS, at + 4,
			   MSG_UMT_OPERAND_FLAGS, (unsigned long long)k,
			   (unsigned long long)flags);
		return;
	}
	if (before == UMT_SLOT_NA || !(real_slot(d, before) || special_slot(before))) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_BEFORE_SLOT, at + 5,
			   MSG_UMT_OPERAND_BEFORE_SLOT,
			   (unsigned long long)k, (unsigned long long)d->lc_count,
			   (unsigned long long)before);
		return;
	}
	bool written = flags & 2;
	if (!(real_slot(d, after) || special_slot(after)) || written != (after != UMT_SLOT_NA)) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_AFTER_SLOT, at + 6,
			   MSG_UMT_OPERAND_AFTER_SLOT, (unsigned long long)k,
			   written ? "< LCCount or 0xfd/0xfe (written operand)" : "0xff (not written)",
			   (unsigned long long)after);
		return;
	}
	if ((real_slot(d, before) && before >= d->first_after) ||
	    (real_slot(d, after) && after < d->first_after)) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_SLOT_GROUP, at + 5,
			   MSG_UMT_OPERAND_SLOT_GROUP,
			   (unsigned long long)k, (unsigned long long)d->first_after,
			   (unsigned long long)before, (unsigned long long)after);
		return;
	}
	if ((flags & 1) && real_slot(d, before) && before >= d->first_out)
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_READ_GROUP, at + 5,
			   MSG_UMT_OPERAND_READ_GROUP,
			   (unsigned long long)k, (unsigned long long)d->first_out,
			   (unsigned long long)before);
	bool constant = (special_slot(before) && before != UMT_SLOT_NA) ||
			(special_slot(after) && after != UMT_SLOT_NA);
	if (constant && reg != REG_INVALID)
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_CONSTANT_REGISTER, at,
			   MSG_UMT_OPERAND_CONSTANT_REGISTER,
			   (unsigned long long)k, (unsigned long long)reg);
	if (size < 0) {
		tl_umt_report(t, M_INS, RULE_UMT_OPERAND_IN_SLOT, at + 2, MSG_UMT_OPERAND_IN_SLOT_3,
			   (unsigned long long)k, (long long)size);
		return;
	}
	check_operand_span(t, d, k, reg, before, o.before_offset, size, 7);
	if (written)
		check_operand_span(t, d, k, reg, after, o.after_offset, size, 8);
}

/* Does any operand or slot name this register (MEM0, MEM1, AGEN)? The slots' were
 * noted by check_slots. */
static bool names_reg(const struct decoded *d, uint64_t exp_count, uint64_t reg)
{
	for (uint64_t k = 0; k < exp_count && k < 4; k++)
		if (d->op[k].reg == reg)
			return true;
	return (d->slot_kinds & kind_bit(reg)) != 0;
}

static const unsigned phrase[] = { 63, 64, 66, 67 };
static const char *const phrase_name[] = { "Mem0SegSlot", "Mem0BaseSlot", "Mem0IndexSlot",
					   "Mem1BaseSlot" };

/* Phrase slots hold registers read to form an address: before-execution slots of a
 * MEM0/AGEN (Mem1Base: MEM1) operand that exists (decision D22). */
static void check_phrase_use(struct umt_trace *t, const struct decoded *d, uint64_t exp_count)
{
	bool mem0 = names_reg(d, exp_count, REG_MEM0) || names_reg(d, exp_count, REG_AGEN);
	bool mem1 = names_reg(d, exp_count, REG_MEM1);
	for (unsigned k = 0; k < 4; k++) {
		uint64_t s = d->ph[k];
		if (s == UMT_SLOT_NA)
			continue;
		if (s == UMT_SLOT_IMM0 || s == UMT_SLOT_IMM1 || s >= d->first_after)
			tl_umt_report(t, M_INS, RULE_UMT_DECODED_PHRASE_BEFORE, d->at + phrase[k],
				   MSG_UMT_DECODED_PHRASE_BEFORE,
				   phrase_name[k], (unsigned long long)d->first_after,
				   (unsigned long long)s);
		else if (!(k == 3 ? mem1 : mem0))
			tl_umt_report(t, M_INS, RULE_UMT_DECODED_PHRASE_UNUSED, d->at + phrase[k],
				   MSG_UMT_DECODED_PHRASE_UNUSED,
				   phrase_name[k], k == 3 ? "MEM1" : "MEM0/AGEN", (unsigned long long)s);
	}
}

bool tl_umt_check_decoded(struct umt_trace *t, const struct umt_cmap *cmap, uint64_t at, bool cs64)
{
	const struct tl_input *in = &t->f[M_INS];
	struct decoded d; /* not zeroed whole: its slots are read only up to LCCount */
	d.at = at;
	d.cmap = cmap;
	d.slot_kinds = 0;
	/* the row check put 88 + 12 x LCCount bytes at `at` inside the extra area: the
	 * fixed part (with the expOpers) and the slots are read as one structure, which
	 * fails as a whole */
	if (!umt_decoded_read(in, at, &d.dec))
		return false;
	const uint64_t *f = d.dec.f;
	for (unsigned k = 0; k < 4 && k < f[UMT_D_EXP_COUNT]; k++) {
		const uint64_t *v = d.dec.op[k];
		d.op[k] = (struct operand){ v[UMT_O_REG], umt_signed(v[UMT_O_SIZE]), v[UMT_O_FLAGS],
					    v[UMT_O_BEFORE], v[UMT_O_AFTER], v[UMT_O_BEFORE_OFF],
					    v[UMT_O_AFTER_OFF] };
	}
	d.lc_count = f[UMT_D_LC_COUNT];
	d.first_after = f[UMT_D_FIRST_AFTER];
	d.lc_size = umt_signed(f[UMT_D_LC_SIZE]);
	d.first_out = f[UMT_D_FIRST_OUT];
	uint64_t flags = f[UMT_D_FLAGS], exp_count = f[UMT_D_EXP_COUNT];
	uint64_t eff[2] = { f[UMT_D_EFF_OPER], f[UMT_D_EFF_ADDR] };
	uint64_t scale = f[UMT_D_SCALE], index = f[UMT_D_INDEX];
	uint64_t *ph = d.ph;
	ph[0] = f[UMT_D_SEG];
	ph[1] = f[UMT_D_BASE];
	ph[2] = f[UMT_D_INDEX];
	ph[3] = f[UMT_D_MEM1];
	uint64_t err0 = t->ctx->result->errors;
	if (flags & ~(uint64_t)0x3f)
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_FLAGS, at + 6,
			   MSG_UMT_DECODED_FLAGS,
			   (unsigned long long)flags);
	if ((flags & 0x08 && !cs64) || (flags & 3) == 3)
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_FLAGS_MODE, at + 6,
			   MSG_UMT_DECODED_FLAGS_MODE,
			   (unsigned long long)flags, cs64 ? 64 : 32);
	for (unsigned k = 56; k <= 57; k++) {
		uint64_t v = eff[k - 56];
		if (v != 2 && v != 4 && v != 8)
			tl_umt_report(t, M_INS, RULE_UMT_DECODED_SIZES, at + k, MSG_UMT_DECODED_SIZES,
				   k == 56 ? "EffOperSize" : "EffAddrSize", (unsigned long long)v);
		else if (v == 8 && !cs64)
			tl_umt_report(t, M_INS, RULE_UMT_DECODED_SIZES_32BIT, at + k,
				   MSG_UMT_DECODED_SIZES_32BIT,
				   k == 56 ? "EffOperSize" : "EffAddrSize");
	}
	if (d.lc_size < 0) {
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_SLOTS_SIZE, at + 58, MSG_UMT_DECODED_SLOTS_SIZE,
			   (long long)d.lc_size);
		return false;
	}
	uint64_t first_out = d.first_out;
	if (first_out > d.first_after || d.first_after > d.lc_count || d.lc_count > 253) {
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_SLOT_GROUPS, at + 60,
			   MSG_UMT_DECODED_SLOT_GROUPS,
			   (unsigned long long)first_out, (unsigned long long)d.first_after,
			   (unsigned long long)d.lc_count);
		return false;
	}
	bool phrase_ok = true;
	for (unsigned k = 0; k < 4; k++) {
		uint64_t s = ph[k];
		if (!real_slot(&d, s) && !special_slot(s)) {
			tl_umt_report(t, M_INS, RULE_UMT_DECODED_PHRASE_SLOT, at + phrase[k],
				   MSG_UMT_DECODED_PHRASE_SLOT, phrase_name[k],
				   (unsigned long long)d.lc_count, (unsigned long long)s);
			phrase_ok = false;
		}
	}
	if ((scale != 0 && scale != 1 && scale != 2 && scale != 4 && scale != 8) ||
	    (scale == 0) != (index == UMT_SLOT_NA))
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_SCALE, at + 65,
			   MSG_UMT_DECODED_SCALE,
			   (unsigned long long)scale, (unsigned long long)index);
	bool slots_ok = check_slots(t, &d);
	if (phrase_ok)
		check_phrase_use(t, &d, exp_count);
	if (exp_count > 4) {
		tl_umt_report(t, M_INS, RULE_UMT_DECODED_OPERAND_COUNT, at + 7, MSG_UMT_DECODED_OPERAND_COUNT,
			   (unsigned long long)exp_count);
	} else if (slots_ok) {
		for (uint64_t k = 0; k < exp_count; k++)
			check_operand(t, &d, k);
	}
	return t->ctx->result->errors == err0;
}
