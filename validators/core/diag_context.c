/* See diag_context.h. The field is the describe hook's for a binary
 * location (the one byte at the offset when the format has no hook or the
 * hook finds nothing); a text location's field is its byte. */
#include "diag_context.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The input a location is in: the member it names when that member is open,
 * else the file being validated. */
static const struct tl_input *input_of(const struct tl_ctx *ctx, const struct tl_location *loc)
{
	for (size_t i = 0; loc->member && i < TL_OPEN_MEMBERS_MAX; i++) {
		const struct tl_input *m = ctx->open_members[i];
		if (m && m->name && strcmp(m->name, loc->member) == 0)
			return m;
	}
	if (ctx->input && !ctx->input->is_directory)
		return ctx->input;
	return NULL;
}

/* The describe hook's reader over an input it must not change. */
struct reader {
	const struct tl_input *in;
};

/* Read through the descriptor where there is one: a describe hook may
 * walk far back (a tfile's frame chain), and pages of the mapping the
 * validator has handed back must not pile up in memory again. */
static size_t read_at(const struct tl_input *in, uint64_t off, uint8_t *buf, size_t n)
{
	if (!in->has_fd || off >= in->size)
		return tl_input_read_at(in, off, buf, n);
	if (n > in->size - off)
		n = (size_t)(in->size - off);
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(in->fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static size_t read_input(void *file, uint64_t off, uint8_t *buf, size_t n)
{
	const struct reader *r = file;
	return read_at(r->in, off, buf, n);
}

/* The field and record, then the rows that hold the offset and the field. */
static void take_binary(const struct tl_ctx *ctx, const struct tl_input *in, const struct tl_diagnostic *d,
			struct tl_diag_context_buf *buf)
{
	struct tl_diag_context *c = &buf->context;
	struct tl_field_view v;
	memset(&v, 0, sizeof v);
	v.offset = d->loc.offset;
	v.width = 1;
	/* a rule of the format validating: its hook knows the record */
	const struct tl_format *f = ctx->format && d->rule && strcmp(ctx->format->name, d->rule->format) == 0
					    ? ctx->format : NULL;
	struct reader r = { in };
	if (f && f->describe)
		f->describe(d, read_input, &r, &v);
	if (v.width == 0)
		v.width = 1;
	c->field_offset = v.offset;
	c->field_size = v.width;
	memcpy(buf->record, v.fields, sizeof buf->record);
	buf->record[sizeof buf->record - 1] = '\0';
	uint64_t offset = d->loc.offset;
	uint64_t first = v.offset < offset ? v.offset : offset;
	uint64_t start = first - first % TL_EXCERPT_ROW;
	uint64_t last = v.offset + v.width - 1 > offset ? v.offset + v.width - 1 : offset;
	size_t rows = (size_t)((last - start) / TL_EXCERPT_ROW) + 1;
	if (rows < TL_EXCERPT_ROWS)
		rows = TL_EXCERPT_ROWS;
	if (rows > TL_EXCERPT_MAX_ROWS)
		rows = TL_EXCERPT_MAX_ROWS;
	c->bytes_offset = start;
	c->byte_count = read_at(in, start, buf->bytes, rows * TL_EXCERPT_ROW);
}

/* The line from its first byte to its end (or TL_EXCERPT_LINE bytes). */
static void take_line(const struct tl_input *in, const struct tl_diagnostic *d,
		      struct tl_diag_context_buf *buf)
{
	uint32_t column = d->loc.column;
	if (column == 0 || d->loc.offset < (uint64_t)(column - 1))
		return;
	struct tl_diag_context *c = &buf->context;
	c->bytes_offset = d->loc.offset - (column - 1);
	size_t n = read_at(in, c->bytes_offset, buf->bytes, sizeof buf->bytes);
	size_t len = 0;
	while (len < n && buf->bytes[len] != '\n' && buf->bytes[len] != '\r')
		len++;
	c->byte_count = len;
}

void tl_diag_context_take(const struct tl_ctx *ctx, const struct tl_diagnostic *d,
			  struct tl_diag_context_buf *buf)
{
	struct tl_diag_context *c = &buf->context;
	memset(c, 0, sizeof *c);
	c->struct_size = sizeof *c;
	c->field_offset = d->loc.offset;
	c->field_size = 1;
	buf->record[0] = '\0';
	c->record = buf->record;
	c->bytes = buf->bytes;
	const struct tl_input *in = input_of(ctx, &d->loc);
	if (!in)
		return;
	if (d->loc.line)
		take_line(in, d, buf);
	else
		take_binary(ctx, in, d, buf);
}
