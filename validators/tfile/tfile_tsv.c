/* tsv lines: NUMBER:VALUE:BUILTIN:NAME, all hex, the name hex-encoded. */
#include <stdlib.h>
#include <string.h>

#include "tfile.h"
#include "grow.h"

static bool add_tsv(struct tfile_desc *desc, uint32_t number, uint32_t line, uint64_t offset,
		    char *name)
{
	struct tfile_tsv *grown = tl_grow_array(desc->tsvs, &desc->tsv_cap, desc->tsv_count, sizeof *grown, 16);
	if (!grown)
		return false;
	desc->tsvs = grown;
	desc->tsvs[desc->tsv_count++] = (struct tfile_tsv){ number, line, offset, name };
	return true;
}

/* Reports the first grammar error of the line; false when there is one. */
static bool expect(struct tl_ctx *ctx, struct tfile_text *t, bool ok, const char *what)
{
	return ok || tl_tfile_text_expected(ctx, RULE_TFILE_TSV_SYNTAX, t, what);
}

void tl_tfile_check_tsv(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t)
{
	uint64_t number, value, builtin;
	uint64_t line_offset = t->offset - 4;
	struct tl_location number_loc = tfile_text_loc(t);
	if (!expect(ctx, t, tl_tfile_text_hex(t, 8, &number), "the variable number in hex") ||
	    !expect(ctx, t, tfile_text_eat(t, ':'), "':' after the variable number"))
		return;
	if (!tl_tfile_number_in_range(ctx, RULE_TFILE_TSV_SYNTAX, &number_loc, number, INT32_MAX,
				      "a variable number", "V blocks hold it as a signed 32-bit integer"))
		return;
	if (!expect(ctx, t, tl_tfile_text_hex(t, 16, &value), "the initial value as 1 to 16 hex digits") ||
	    !expect(ctx, t, tfile_text_eat(t, ':'), "':' after the initial value"))
		return;
	int b = tfile_text_peek(t);
	if (!expect(ctx, t, (b == '0' || b == '1') && tl_tfile_text_hex(t, 1, &builtin),
		    "the builtin flag 0 or 1") ||
	    !expect(ctx, t, tfile_text_eat(t, ':'), "':' after the builtin flag"))
		return;

	struct tl_location name_loc = tfile_text_loc(t);
	size_t start = t->pos;
	size_t digits = tl_tfile_text_hex_run(t);
	if (!expect(ctx, t, tfile_text_end(t), "the name as hex digits up to the end of the line"))
		return;
	if (digits % 2) {
		tl_report(ctx, RULE_TFILE_TSV_SYNTAX, &name_loc,
			  MSG_TFILE_TSV_SYNTAX, digits);
		return;
	}
	char *name = malloc(digits / 2 + 1);
	if (!name) {
		desc->out_of_memory = true;
		return;
	}
	bool printable = digits > 0;
	for (size_t i = 0; i < digits / 2; i++) {
		int c = tl_tfile_hex_value(t->p[start + 2 * i]) * 16 + tl_tfile_hex_value(t->p[start + 2 * i + 1]);
		name[i] = (char)c;
		if (c < 0x21 || c > 0x7e)
			printable = false;
	}
	name[digits / 2] = '\0';
	if (!printable) {
		char q[64];
		tl_report(ctx, RULE_TFILE_TSV_NAME, &name_loc,
			  MSG_TFILE_TSV_NAME,
			  digits == 0 ? "an empty name"
				      : tl_quote(q, sizeof q, (const uint8_t *)name, digits / 2));
	}
	if (!add_tsv(desc, (uint32_t)number, t->line, line_offset, name)) {
		free(name);
		desc->out_of_memory = true;
	}
}
