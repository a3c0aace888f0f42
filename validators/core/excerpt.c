/* See excerpt.h. The dump shows the 16-byte row holding the offset and the
 * next one (a third when the field runs on); ^~~ marks the whole field the
 * rule is about, as the format's describe hook finds it (the one byte at the
 * offset otherwise), and a line below names the record's decoded fields.
 * A text line is shown whole up to 100 columns, else 80 columns around the
 * caret with "..." where it was cut. */
#include "excerpt.h"
#include "decompress.h"
#include "format.h"
#include "safe_text.h"

#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ROW = 16, ROWS = 2, MAX_ROWS = 3, LINE_MAX_SHOWN = 100, LINE_AROUND = 40, LINE_READ = 4096 };

#define GREEN "\033[01;32m"
#define RESET "\033[m"

/* The file's bytes [off, off + n) into buf; how many could be read. */
static size_t read_back(int fd, uint64_t off, uint8_t *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static size_t read_fd(void *file, uint64_t off, uint8_t *buf, size_t n)
{
	return read_back(*(int *)file, off, buf, n);
}

/* The field d is about: its format's describe hook when it has one (the
 * writer runs after validation, so the hook only reads), else d's byte. */
static void describe(int fd, const struct tl_diagnostic *d, struct tl_field_view *view)
{
	memset(view, 0, sizeof *view);
	view->offset = d->loc.offset;
	view->width = 1;
	const struct tl_format *f = d->rule ? tl_format_get(tl_format_from_name(d->rule->format)) : NULL;
	if (f && f->describe)
		f->describe(d, read_fd, &fd, view);
	if (view->width == 0)
		view->width = 1;
}

/* Under one row of the dump: ^ under the field's first byte, ~ across the
 * rest of it (clang-style), when the field has bytes in that row. */
static void mark_row(FILE *out, uint64_t row_start, size_t shown, const struct tl_field_view *v,
		     bool color)
{
	uint64_t end = v->offset + v->width; /* describe keeps this below 2^64 */
	uint64_t from = v->offset > row_start ? v->offset : row_start;
	uint64_t to = end < row_start + shown ? end : row_start + shown;
	if (from >= to)
		return;
	size_t a = (size_t)(from - row_start), b = (size_t)(to - row_start) - 1;
	/* "  00000000: " is 12 columns, each byte 3, one more after the 8th */
	int col = 12 + (int)(3 * a) + (a >= 8);
	int last = 12 + (int)(3 * b) + (b >= 8) + 1;
	fprintf(out, "%*s%s%c", col, "", color ? GREEN : "", from == v->offset ? '^' : '~');
	for (int c = col + 1; c <= last; c++)
		fputc('~', out);
	fprintf(out, "%s\n", color ? RESET : "");
}

static void dump(FILE *out, int fd, const struct tl_diagnostic *d, bool color)
{
	struct tl_field_view v;
	describe(fd, d, &v);
	uint64_t offset = d->loc.offset;
	uint64_t first = v.offset < offset ? v.offset : offset;
	uint64_t start = first - first % ROW;
	/* the rows of the offset and the field, at least two */
	uint64_t last = v.offset + v.width - 1 > offset ? v.offset + v.width - 1 : offset;
	size_t rows = (size_t)((last - start) / ROW) + 1;
	if (rows < ROWS)
		rows = ROWS;
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	uint8_t bytes[ROW * MAX_ROWS];
	size_t n = read_back(fd, start, bytes, rows * ROW);
	if (n == 0 || offset >= start + n)
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
		mark_row(out, start + row * ROW, shown, &v, color);
	}
	/* the record's fields, decoded, below the rows (a format's own text, but
	 * escaped all the same: it may quote file bytes) */
	if (v.fields[0]) {
		char safe[4 * sizeof v.fields];
		tl_text_escape(safe, sizeof safe, v.fields);
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

static void line_excerpt(FILE *out, int fd, const struct tl_diagnostic *d, bool color)
{
	if (d->loc.column == 0 || d->loc.offset < (uint64_t)(d->loc.column - 1))
		return;
	uint64_t line_start = d->loc.offset - (d->loc.column - 1);
	uint8_t buf[LINE_READ];
	size_t n = read_back(fd, line_start, buf, sizeof buf);
	size_t len = 0;
	while (len < n && buf[len] != '\n' && buf[len] != '\r')
		len++;
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

void tl_write_excerpt(FILE *out, const char *path, const struct tl_diagnostic *d, bool color)
{
	if (strcmp(path, "-") == 0)
		return;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	struct stat st;
	uint8_t magic[10];
	size_t m = 0;
	/* a regular file, and not compressed: its offsets are the diagnostic's */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    ((m = read_back(fd, 0, magic, sizeof magic)), tl_compression_sniff(magic, m) == TL_COMPRESSION_NONE)) {
		if (d->loc.line)
			line_excerpt(out, fd, d, color);
		else
			dump(out, fd, d, color);
	}
	close(fd);
}
