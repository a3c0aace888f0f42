/* Hex lexers over a description line's payload. */
#include <stdio.h>

#include "tfile_text.h"

int tl_tfile_hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20; /* 'A'..'F' to 'a'..'f'; no other byte lands there */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t tl_tfile_text_hex_run(struct tfile_text *t)
{
	size_t start = t->pos;
	while (t->pos < t->len && tl_tfile_hex_value(t->p[t->pos]) >= 0)
		t->pos++;
	return t->pos - start;
}

bool tl_tfile_text_hex(struct tfile_text *t, unsigned max_digits, uint64_t *v)
{
	size_t start = t->pos;
	size_t n = tl_tfile_text_hex_run(t);
	if (n == 0 || n > max_digits) {
		t->pos = start;
		return false;
	}
	uint64_t value = 0;
	for (size_t i = start; i < t->pos; i++)
		value = (value << 4) | (uint64_t)tl_tfile_hex_value(t->p[i]);
	*v = value;
	return true;
}

const char *tl_tfile_text_found(const struct tfile_text *t, char *buf, size_t buflen)
{
	if (tfile_text_end(t)) {
		snprintf(buf, buflen, "the end of the line");
		return buf;
	}
	char quoted[48];
	size_t n = t->len - t->pos;
	tl_quote(quoted, sizeof quoted, t->p + t->pos, n > 16 ? 16 : n);
	snprintf(buf, buflen, "\"%s%s\"", quoted, n > 16 ? "..." : "");
	return buf;
}

bool tl_tfile_text_expected(struct tl_ctx *ctx, enum tl_rule_id rule, const struct tfile_text *t,
			    const char *what)
{
	char found[64];
	struct tl_location loc = tfile_text_loc(t);
	tl_report(ctx, rule, &loc, MSG_TFILE_TEXT_EXPECTED, what,
		  tl_tfile_text_found(t, found, sizeof found));
	return false;
}

bool tl_tfile_number_in_range(struct tl_ctx *ctx, enum tl_rule_id rule,
			      const struct tl_location *loc, uint64_t number, uint64_t max,
			      const char *what, const char *why)
{
	if (number != 0 && number <= max)
		return true;
	tl_report(ctx, rule, loc, MSG_TFILE_NUMBER_IN_RANGE, what,
		  (unsigned long long)max, why, (unsigned long long)number);
	return false;
}

struct tfile_text tl_tfile_text_until(struct tfile_text *t, uint8_t sep)
{
	struct tfile_text part = *t;
	size_t end = t->pos;
	while (end < t->len && t->p[end] != sep)
		end++;
	part.p = t->p + t->pos;
	part.len = end - t->pos;
	part.pos = 0;
	part.offset = t->offset + t->pos;
	part.column = t->column + (uint32_t)t->pos;
	t->pos = end;
	return part;
}
