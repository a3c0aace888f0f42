/* The description section: line framing (length, NUL, CR, charset), the
 * dispatch on line prefixes, and the checks that need all lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "grow.h"
#include "tfile.h"

struct prefix {
	const char *text;
	size_t len;
	void (*check)(struct tl_ctx *, struct tfile_desc *, struct tfile_text *);
};

static const struct prefix prefixes[] = {
	{ "R ", 2, tl_tfile_check_r },
	{ "status ", 7, tl_tfile_check_status },
	{ "tp ", 3, tl_tfile_check_tp },
	{ "tsv ", 4, tl_tfile_check_tsv },
	{ "tdesc ", 6, NULL }, /* fed to the XML checker */
};

static bool is_printable(uint8_t c) { return c >= 0x20 && c <= 0x7e; }

/* Framing checks of one line; returns how many bytes the payload grammars
 * may read (GDB's own reader stops at a NUL; a CR is never part of a field). */
static size_t check_framing(struct tl_ctx *ctx, const uint8_t *line, size_t len,
			    uint64_t offset, uint32_t lineno, bool is_tdesc)
{
	char q[64];
	if (len > TFILE_MAX_LINE) {
		struct tl_location loc = tl_at_text(offset + TFILE_MAX_LINE, lineno, TFILE_MAX_LINE + 1);
		tl_report(ctx, RULE_TFILE_LINE_TOO_LONG, &loc,
			  MSG_TFILE_LINE_TOO_LONG,
			  TFILE_MAX_LINE, len);
	}
	size_t usable = len;
	bool charset_reported = false, nonascii_reported = false;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = line[i];
		struct tl_location loc = tl_at_text(offset + i, lineno, (uint32_t)i + 1);
		if (c == 0 && usable == len) {
			tl_report(ctx, RULE_TFILE_LINE_NUL, &loc,
				  MSG_TFILE_LINE_NUL,
				  i + 1);
			usable = i;
		} else if (c == '\r' && usable == len) {
			tl_report(ctx, RULE_TFILE_LINE_CR, &loc,
				  MSG_TFILE_LINE_CR,
				  i + 1 == len ? " before it" : " inside it");
			usable = i;
		} else if (c == 0 || c == '\r') {
			continue;
		} else if (c >= 0x80 && is_tdesc) {
			if (!nonascii_reported)
				tl_report(ctx, RULE_TFILE_TDESC_NONASCII, &loc,
					  MSG_TFILE_TDESC_NONASCII, c);
			nonascii_reported = true;
		} else if (!is_printable(c) && !(is_tdesc && c == '\t') && !charset_reported) {
			tl_report(ctx, RULE_TFILE_LINE_CHARSET, &loc,
				  MSG_TFILE_LINE_CHARSET, c,
				  tl_quote(q, sizeof q, line, len < 24 ? len : 24));
			charset_reported = true;
		}
	}
	return usable;
}

static void dispatch(struct tl_ctx *ctx, struct tfile_desc *desc, const uint8_t *line,
		     size_t len, size_t usable, uint64_t offset, uint32_t lineno)
{
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		const struct prefix *px = &prefixes[i];
		if (len < px->len || memcmp(line, px->text, px->len) != 0)
			continue;
		size_t plen = usable > px->len ? usable - px->len : 0;
		struct tfile_text t = { line + px->len, plen, 0, offset + px->len, lineno,
					(uint32_t)px->len + 1 };
		if (px->check) {
			px->check(ctx, desc, &t);
		} else {
			if (!desc->tdesc)
				desc->tdesc = tl_tfile_tdesc_new();
			if (desc->tdesc)
				tl_tfile_tdesc_line(ctx, desc->tdesc, &t);
			else
				desc->out_of_memory = true;
		}
		return;
	}
	char q[64];
	struct tl_location loc = tl_at_text(offset, lineno, 1);
	tl_report(ctx, RULE_TFILE_LINE_PREFIX, &loc,
		  MSG_TFILE_LINE_PREFIX, tl_quote(q, sizeof q, line, len < 24 ? len : 24));
}

uint64_t tl_tfile_read_description(struct tl_ctx *ctx, const struct tl_input *in,
				struct tfile_desc *desc)
{
	uint64_t pos = TFILE_HEADER_SIZE;
	uint32_t lineno = 1;
	while (pos < in->size) {
		struct tl_cursor rest;
		const uint8_t *line;
		size_t avail = (size_t)(in->size - pos);
		if (!tl_cursor_at(&rest, in->data, in->size, pos, avail) ||
		    !tl_cursor_bytes(&rest, avail, &line))
			break;
		const uint8_t *nl = memchr(line, '\n', avail);
		if (!nl)
			break;
		size_t len = (size_t)(nl - line);
		if (len == 0)
			return pos + 1;
		if (!tl_stopped(ctx)) {
			bool is_tdesc = len >= 6 && memcmp(line, "tdesc ", 6) == 0;
			size_t usable = check_framing(ctx, line, len, pos, lineno, is_tdesc);
			dispatch(ctx, desc, line, len, usable, pos, lineno);
		}
		pos += len + 1;
		if (lineno < UINT32_MAX)
			lineno++;
	}
	struct tl_location loc = tl_at_text(in->size, lineno, 1);
	tl_report(ctx, RULE_TFILE_DESC_UNTERMINATED, &loc,
		  MSG_TFILE_DESC_UNTERMINATED, lineno - 1, lineno == 2 ? "" : "s");
	return 0;
}

void tl_tfile_desc_free(struct tfile_desc *desc)
{
	tl_free_array(desc->tsvs, desc->tsv_count, sizeof *desc->tsvs, offsetof(struct tfile_tsv, name));
	free(desc->tsv_numbers);
	free(desc->pieces);
	free(desc->tp_numbers);
	if (desc->tdesc)
		tl_tfile_tdesc_free(desc->tdesc);
	memset(desc, 0, sizeof *desc);
}
