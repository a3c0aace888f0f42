/* The R line: the register block size, in hex as GDB writes and reads it. */
#include "tfile.h"

void tl_tfile_check_r(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t)
{
	char found[64];
	if (!tl_tfile_once(ctx, &desc->r, t, 2, RULE_TFILE_R_DUPLICATE, "R"))
		return;

	/* A decimal-only text is remembered: decision 1 uses it as a hint. */
	bool all_decimal = t->len > 0 && t->len <= 19;
	uint64_t decimal = 0;
	for (size_t i = 0; i < t->len && all_decimal; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			all_decimal = false;
		else
			decimal = decimal * 10 + (uint64_t)(t->p[i] - '0');
	}
	desc->r_decimal_valid = all_decimal && decimal > 0;
	desc->r_size_decimal = decimal;

	uint64_t size;
	struct tl_location loc = tfile_text_loc(t);
	if (!tl_tfile_text_hex(t, 16, &size) || !tfile_text_end(t)) {
		if (tl_tfile_text_hex_run(t) > 0 && !tfile_text_end(t))
			loc = tfile_text_loc(t);
		tl_report(ctx, RULE_TFILE_R_SYNTAX, &loc,
			  MSG_TFILE_R_SYNTAX,
			  tl_tfile_text_found(t, found, sizeof found));
		return;
	}
	if (size == 0) {
		tl_report(ctx, RULE_TFILE_R_ZERO, &loc,
			  MSG_TFILE_R_ZERO);
		return;
	}
	if (size > TFILE_R_SIZE_WARN)
		tl_report(ctx, RULE_TFILE_R_LARGE, &loc,
			  MSG_TFILE_R_LARGE, TFILE_R_SIZE_WARN, (unsigned long long)size);
	desc->r_valid = true;
	desc->r_size = size;
}
