/* See excerpt.h. The dump shows the 16-byte row holding the offset and the
 * next one (a third when the field runs on); ^~~ marks the whole field the
 * rule is about, as the format's describe hook found it when the diagnostic
 * was reported (the one byte at the offset otherwise), and a line below
 * names the record's decoded fields. A text line is shown whole up to 100
 * columns, else 80 columns around the caret with "..." where it was cut. */
#include "excerpt.h"
#include "diag_context.h"
#include "safe_text.h"

#include <inttypes.h>
#include <string.h>

enum { ROW = TL_EXCERPT_ROW, LINE_MAX_SHOWN = 100, LINE_AROUND = 40 };

#define GREEN "\033[01;32m"
#define RESET "\033[m"

/* Under one row of the dump: ^ under the field's first byte, ~ across the
 * rest of it (clang-style), when the field has bytes in that row. */
static void mark_row(FILE *out, uint64_t row_start, size_t shown, const struct tl_diag_context *v,
		     bool color)
{
	uint64_t end = v->field_offset + v->field_size; /* describe keeps this below 2^64 */
	uint64_t from = v->field_offset > row_start ? v->field_offset : row_start;
	uint64_t to = end < row_start + shown ? end : row_start + shown;
	if (from >= to)
		return;
	size_t a = (size_t)(from - row_start), b = (size_t)(to - row_start) - 1;
	/* "  00000000: " is 12 columns, each byte 3, one more after the 8th */
	int col = 12 + (int)(3 * a) + (a >= 8);
	int last = 12 + (int)(3 * b) + (b >= 8) + 1;
	fprintf(out, "%*s%s%c", col, "", color ? GREEN : "", from == v->field_offset ? '^' : '~');
	for (int c = col + 1; c <= last; c++)
		fputc('~', out);
	fprintf(out, "%s\n", color ? RESET : "");
}

static void dump(FILE *out, const struct tl_diagnostic *d, bool color)
{
	const struct tl_diag_context *v = d->context;
	uint64_t start = v->bytes_offset;
	const uint8_t *bytes = v->bytes;
	size_t n = v->byte_count;
	if (n == 0 || d->loc.offset >= start + n)
		return;
	for (size_t row = 0; row * ROW < n; row++) {
		fprintf(out, "  %08" PRIx64 ": ", start + row * ROW);
		for (size_t i = 0; i < ROW; i++) {
			size_t k = row * ROW + i;
			if (k < n)
				fprintf(out, "%02x ", bytes[k]);
			else
				fputs("   ", out);
			if (i == 7)
				fputc(' ', out);
		}
		fputs(" |", out);
		size_t shown = 0;
		for (size_t i = 0; i < ROW && row * ROW + i < n; i++, shown++) {
			uint8_t b = bytes[row * ROW + i];
			fputc(b >= 0x20 && b < 0x7f ? b : '.', out);
		}
		fputs("|\n", out);
		mark_row(out, start + row * ROW, shown, v, color);
	}
	/* the record's fields, decoded, below the rows (a format's own text, but
	 * escaped all the same: it may quote file bytes) */
	if (v->record && v->record[0]) {
		char safe[4 * sizeof ((struct tl_diag_context_buf *)0)->record];
		tl_text_escape(safe, sizeof safe, v->record);
		fprintf(out, "  %s\n", safe);
	}
}

/* A byte of the line as shown: control characters as one space, so that the
 * caret's column stays the byte column. */
static char shown(uint8_t b)
{
	return b < 0x20 || b == 0x7f ? ' ' : (char)b;
}

/* UTF-8 continuation bytes take no column. */
static int columns(const uint8_t *p, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += (p[i] & 0xc0) != 0x80;
	return c;
}

static void line_excerpt(FILE *out, const struct tl_diagnostic *d, bool color)
{
	const struct tl_diag_context *c = d->context;
	if (d->loc.column == 0 || d->loc.offset - (d->loc.column - 1) != c->bytes_offset)
		return;
	const uint8_t *buf = c->bytes;
	size_t len = c->byte_count;
	size_t caret = d->loc.column - 1; /* bytes before the column */
	if (caret > len)
		return;
	size_t from = 0, to = len;
	if (len > LINE_MAX_SHOWN) {
		from = caret > LINE_AROUND ? caret - LINE_AROUND : 0;
		to = caret + LINE_AROUND < len ? caret + LINE_AROUND : len;
		/* never cut inside a UTF-8 sequence */
		while (from > 0 && (buf[from] & 0xc0) == 0x80)
			from--;
		while (to < len && (buf[to] & 0xc0) == 0x80)
			to++;
	}
	char number[16];
	int width = snprintf(number, sizeof number, "%" PRIu32, d->loc.line);
	fprintf(out, "  %s | %s", number, from > 0 ? "..." : "");
	for (size_t i = from; i < to; i++)
		fputc(shown(buf[i]), out);
	fprintf(out, "%s\n", to < len ? "..." : "");
	int pad = (from > 0 ? 3 : 0) + columns(buf + from, caret - from);
	fprintf(out, "  %*s | %*s%s^%s\n", width, "", pad, "", color ? GREEN : "", color ? RESET : "");
}

void tl_write_excerpt(FILE *out, const struct tl_diagnostic *d, bool color)
{
	if (!d->context || !d->context->bytes)
		return;
	if (d->loc.line)
		line_excerpt(out, d, color);
	else
		dump(out, d, color);
}
