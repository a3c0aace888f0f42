/* context_map.itable: a flat 17424-byte structure without a table header (research §10). */
#include "umt.h"

#define CMAP_COMMON 16u
#define CMAP_NAMES 1040u
#define CMAP_MAP32 9232u
#define CMAP_MAP64 13328u
#define CMAP_MAX 512u

static void check_reg_info(struct umt_trace *t, uint64_t base, unsigned i, const char *mode)
{
	const struct tl_input *in = &t->f[M_CONTEXT_MAP];
	uint64_t at = base + 8u * i;
	uint32_t off = (uint32_t)umt_u(in, at, 2), size = (uint32_t)umt_u(in, at + 2, 1);
	if (off == 0xffff && size == 0)
		return;
	if (size == 0 || off + size > t->dump_size)
		umt_report(t, M_CONTEXT_MAP, RULE_UMT_U602, at,
			   "expected %s register %u absent (0xffff, 0) or inside DumpSize %u, found Offset %u Size %u",
			   mode, i, t->dump_size, off, size);
}

void umt_check_context_map(struct umt_trace *t)
{
	const struct tl_input *in = &t->f[M_CONTEXT_MAP];
	if (in->size != UMT_CMAP_SIZE) {
		umt_report(t, M_CONTEXT_MAP, RULE_UMT_U600, 0, "expected %u bytes, found %zu",
			   UMT_CMAP_SIZE, in->size);
		return;
	}
	t->dump_size = (uint16_t)umt_u(in, 0, 2);
	unsigned count = (unsigned)umt_u(in, 2, 2);
	if (count > CMAP_MAX) {
		umt_report(t, M_CONTEXT_MAP, RULE_UMT_U601, 2, "expected ElemCount <= 512, found %u",
			   count);
		return;
	}
	for (unsigned i = 0; i < count; i++) {
		check_reg_info(t, CMAP_MAP32, i, "32-bit");
		check_reg_info(t, CMAP_MAP64, i, "64-bit");
		uint64_t name = CMAP_NAMES + 16u * i;
		bool nul = false;
		for (unsigned k = 0; k < 16 && !nul; k++)
			nul = umt_u(in, name + k, 1) == 0;
		if (!nul)
			umt_report(t, M_CONTEXT_MAP, RULE_UMT_U603, name,
				   "expected register name %u NUL-terminated within 16 bytes, found none", i);
		int64_t common = umt_s(in, CMAP_COMMON + 2u * i, 2);
		if (common < 0 || common >= (int64_t)count)
			umt_report(t, M_CONTEXT_MAP, RULE_UMT_U604, CMAP_COMMON + 2u * i,
				   "expected CommonName of register %u in [0, %u), found %lld", i, count,
				   (long long)common);
	}
	t->cmap_ok = true;
}
