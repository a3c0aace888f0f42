/* cStr (8-bit units) and uStr (UTF-16 units): i16 Length, Length units, a NUL unit. */
#include "umt.h"

bool tl_umt_check_string(struct umt_trace *t, enum umt_member m, uint64_t abs, unsigned unit,
		      uint64_t lo, uint64_t hi)
{
	const struct tl_input *in = &t->f[m];
	const char *kind = unit == 1 ? "cStr" : "uStr";
	if (!tl_umt_inside(abs, 2, lo, hi)) {
		tl_umt_report(t, m, RULE_UMT_STRING_IN_AREA, abs,
			   MSG_UMT_STRING_IN_AREA, kind,
			   (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)abs);
		return false;
	}
	int64_t len;
	if (!umt_rd_s(in, abs, 2, &len)) /* inside [lo, hi), which callers put inside the file */
		return false;
	if (len < 0) {
		tl_umt_report(t, m, RULE_UMT_STRING_LENGTH, abs, MSG_UMT_STRING_LENGTH, kind,
			   (long long)len);
		return false;
	}
	uint64_t span = 2 + ((uint64_t)len + 1) * unit;
	if (!tl_umt_inside(abs, span, lo, hi)) {
		tl_umt_report(t, m, RULE_UMT_STRING_IN_AREA, abs,
			   MSG_UMT_STRING_IN_AREA_2,
			   kind, (long long)len, (unsigned long long)span, (unsigned long long)hi,
			   (unsigned long long)(abs + span));
		return false;
	}
	uint64_t term = abs + 2 + (uint64_t)len * unit;
	uint64_t nul;
	if (!umt_rd(in, term, unit, &nul))
		return false;
	if (nul != 0) {
		tl_umt_report(t, m, RULE_UMT_STRING_TERMINATOR, term,
			   MSG_UMT_STRING_TERMINATOR,
			   (long long)len, kind, (unsigned long long)nul);
		return false;
	}
	for (int64_t i = 0; i < len; i++) {
		uint64_t at = abs + 2 + (uint64_t)i * unit, v;
		if (umt_rd(in, at, unit, &v) && v == 0) {
			tl_umt_report(t, m, RULE_UMT_STRING_EARLY_NUL, at,
				   MSG_UMT_STRING_EARLY_NUL,
				   kind, (long long)len, (long long)i);
			break;
		}
	}
	return true;
}
