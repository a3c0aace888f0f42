/* context_map.itable: a flat 17424-byte structure without a table header (seed section 11). */
#include "umt.h"

#define CMAP_COMMON 16u
#define CMAP_NAMES 1040u
#define CMAP_MAP32 9232u
#define CMAP_MAP64 13328u
#define CMAP_MAX 512u
_Static_assert(CMAP_MAP64 == CMAP_MAP32 + 8 * CMAP_MAX, "the two regInfo tables are one array");

/* An 8-byte regInfo entry of the map: Offset u16, Size u8, EffLargest i16. Both
 * modes' tables (512 entries each, the 64-bit one right after the 32-bit one) are
 * read as one array. */
struct reg_info {
	uint32_t off, size;
	int64_t large;
};

static struct reg_info entry(const uint64_t (*info)[3], unsigned i)
{
	return (struct reg_info){ (uint32_t)info[i][0], (uint32_t)info[i][1], umt_signed(info[i][2]) };
}

static void check_reg_info(struct umt_trace *t, const uint64_t (*info)[3], uint64_t base,
			   unsigned i, const char *mode, unsigned dump_size)
{
	uint64_t at = base + 8u * i;
	struct reg_info e = entry(info, i);
	if (e.off == 0xffff && e.size == 0)
		return;
	uint32_t off = e.off, size = e.size;
	if (size == 0 || off + size > dump_size)
		tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_REGISTER_IN_DUMP, at,
			   MSG_UMT_CMAP_REGISTER_IN_DUMP,
			   mode, i, dump_size, off, size);
}

static bool present(const struct reg_info *e) { return e->size > 0 && e->off != 0xffff; }

/* EffLargest of a register present in this mode: present too, and its bytes of the
 * dump contain the register's (al inside rax). Absent registers are not looked at. */
static void check_enclosing(struct umt_trace *t, const uint64_t (*info)[3], uint64_t base,
			    unsigned i, unsigned count, const char *mode)
{
	uint64_t at = base + 8u * i;
	struct reg_info e = entry(info, i), enc = { 0, 0, 0 };
	if (!present(&e))
		return;
	uint32_t off = e.off, size = e.size, esize;
	int64_t large = e.large;
	if (large >= 0 && large < (int64_t)count) {
		enc = entry(info, (unsigned)large);
		if (present(&enc) && enc.off <= off && off + size <= enc.off + enc.size)
			return;
	}
	esize = enc.size;
	tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_LARGEST, at + 4,
		   MSG_UMT_CMAP_LARGEST,
		   mode, i, off, off + size, (long long)large,
		   large < 0 || large >= (int64_t)count ? " (not a register)" : esize ? "" : " (absent)");
}

/* Rows from ElemCount to 511 are filler: "no register here" in both modes. */
static void check_unused_entries(struct umt_trace *t, const uint64_t (*info)[CMAP_MAX][3],
				 unsigned count)
{
	static const uint64_t bases[2] = { CMAP_MAP32, CMAP_MAP64 };
	for (unsigned k = 0; k < 2; k++) {
		for (unsigned i = count; i < CMAP_MAX; i++) {
			uint64_t at = bases[k] + 8u * i;
			struct reg_info e = entry(info[k], i);
			if (e.off != 0xffff || e.size != 0)
				tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_UNUSED, at,
					   MSG_UMT_CMAP_UNUSED,
					   k ? "64-bit" : "32-bit", i, count, e.off, e.size);
		}
	}
}

void tl_umt_check_context_map(struct umt_trace *t, struct umt_cmap *out)
{
	const struct tl_input *in = &t->f[M_CONTEXT_MAP];
	static const struct umt_field header[2] = { { 0, 2, false }, { 2, 2, false } }; /* DumpSize, ElemCount */
	static const struct umt_field reg_info[3] = { { 0, 2, false }, { 2, 1, false }, { 4, 2, true } };
	static const struct umt_field common_name[1] = { { 0, 2, false } };
	struct tl_cursor map;
	uint64_t v[2], info[2][CMAP_MAX][3], names[CMAP_MAX];
	/* the whole map, its CommonNames and both modes' regInfo as arrays */
	if (in->size != UMT_CMAP_SIZE || !umt_row_fields(in, 0, UMT_CMAP_SIZE, &map, header, 2, v) ||
	    !umt_get_array(&map, CMAP_COMMON, 2, CMAP_MAX, common_name, 1, names) ||
	    !umt_get_array(&map, CMAP_MAP32, 8, 2 * CMAP_MAX, reg_info, 3, info[0][0])) {
		tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_SIZE, 0, MSG_UMT_CMAP_SIZE,
			   UMT_CMAP_SIZE, in->size);
		return;
	}
	/* from here on every offset is inside the map's fixed layout */
	out->dump_size = (uint16_t)v[0];
	unsigned count = (unsigned)v[1];
	if (count > CMAP_MAX) {
		tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_COUNT, 2, MSG_UMT_CMAP_COUNT,
			   count);
		return;
	}
	check_unused_entries(t, info, count);
	/* the CommonNames are kept: each names another register's, and the slots of
	 * decodedIns are checked against them (umt_decoded.c) */
	for (unsigned i = 0; i < count; i++)
		out->common[i] = (uint16_t)names[i];
	for (unsigned i = 0; i < count; i++) {
		check_enclosing(t, info[0], CMAP_MAP32, i, count, "32-bit");
		check_enclosing(t, info[1], CMAP_MAP64, i, count, "64-bit");
		check_reg_info(t, info[0], CMAP_MAP32, i, "32-bit", out->dump_size);
		check_reg_info(t, info[1], CMAP_MAP64, i, "64-bit", out->dump_size);
		uint64_t name = CMAP_NAMES + 16u * i;
		struct tl_cursor nm;
		if (tl_cursor_at(&nm, map.p, map.left, name, 16) && !memchr(nm.p, 0, 16))
			tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_REGISTER_NAME, name,
				   MSG_UMT_CMAP_REGISTER_NAME, i);
		int64_t common = (int16_t)out->common[i], again;
		if (common < 0 || common >= (int64_t)count) {
			tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_COMMON_NAME, CMAP_COMMON + 2u * i,
				   MSG_UMT_CMAP_COMMON_NAME, i, count,
				   (long long)common);
			continue;
		}
		/* A common name names itself: every register maps to one name. */
		again = (int16_t)out->common[common];
		if (again != common)
			tl_umt_report(t, M_CONTEXT_MAP, RULE_UMT_CMAP_COMMON_SELF, CMAP_COMMON + 2u * i,
				   MSG_UMT_CMAP_COMMON_SELF,
				   i, (long long)common, (long long)again);
	}
	out->count = (uint16_t)count;
	out->ok = true;
}
