/* tfile dump: the header; every description line with what the description
 * reader (tl_tfile_read_description) made of it; then every frame and its
 * blocks: registers (R), memory (M, address and length and bytes), trace
 * state variable values (V). Frames are read in the byte order validation
 * chooses (tl_tfile_choose_endian); the walk stops where a frame or block no
 * longer fits, or at the end marker. */
#include "dump.h"
#include "cursor.h"
#include "quiet_ctx.h"
#include "tfile.h"
#include "tfile_decode.h"

#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

/* Bytes as lowercase hex, written in pieces. */
static void hex_field(struct jl *j, const char *key, const uint8_t *p, size_t n)
{
	char buf[256];
	jl_bytes_open(j, key);
	for (size_t i = 0; i < n;) {
		size_t k = 0;
		for (; i < n && k + 2 <= sizeof buf; i++) {
			buf[k++] = hex_digits[p[i] >> 4];
			buf[k++] = hex_digits[p[i] & 15];
		}
		jl_bytes_part(j, (const uint8_t *)buf, k);
	}
	jl_bytes_close(j);
}

static const char *piece_name(enum tfile_piece kind)
{
	static const char *const names[] = { "T", "A", "S", "Z-at", "Z-cond", "Z-cmd", "V" };
	return (unsigned)kind < sizeof names / sizeof *names ? names[kind] : "?";
}

/* Where the description lines are in the reader's tables, which hold their
 * entries in line order: each line's are found by moving forward. */
struct desc_cursor {
	size_t tsv, piece;
};

/* Bytes before the first space of a line (its prefix). */
static size_t prefix_length(const uint8_t *line, size_t len)
{
	const uint8_t *sp = memchr(line, ' ', len);
	return sp ? (size_t)(sp - line) : len;
}

/* The decoded fields of description line lineno, from the reader's tables. */
static void decoded_fields(struct jl *j, const struct tfile_desc *d, struct desc_cursor *at,
			   uint32_t lineno, const char *prefix)
{
	if (strcmp(prefix, "R") == 0 && d->r_valid && d->r.line == lineno) {
		jl_u64(j, "register-size", d->r_size);
	} else if (strcmp(prefix, "status") == 0 && d->status.line == lineno) {
		if (d->has_tframes)
			jl_u64(j, "tframes", d->tframes);
		if (d->has_tcreated)
			jl_u64(j, "tcreated", d->tcreated);
		if (d->has_tfree)
			jl_u64(j, "tfree", d->tfree);
		if (d->has_tsize)
			jl_u64(j, "tsize", d->tsize);
	} else if (strcmp(prefix, "tsv") == 0) {
		while (at->tsv < d->tsv_count && d->tsvs[at->tsv].line < lineno)
			at->tsv++;
		if (at->tsv < d->tsv_count && d->tsvs[at->tsv].line == lineno) {
			jl_u64(j, "number", d->tsvs[at->tsv].number);
			if (d->tsvs[at->tsv].name)
				jl_str(j, "name", d->tsvs[at->tsv].name);
		}
	} else if (strcmp(prefix, "tp") == 0) {
		while (at->piece < d->piece_count && d->pieces[at->piece].line < lineno)
			at->piece++;
		if (at->piece < d->piece_count && d->pieces[at->piece].line == lineno) {
			const struct tfile_piece_rec *p = &d->pieces[at->piece];
			jl_str(j, "piece", piece_name(p->kind));
			jl_u64(j, "number", p->number);
			jl_u64(j, "address", p->address);
			if (p->kind == TFILE_PIECE_T) {
				jl_u64(j, "step-count", p->step_count);
				jl_bool(j, "condition", p->has_condition);
			}
		}
	}
}

/* The description lines from offset 8 to the empty line; returns the offset
 * of the first frame byte, or 0 when the section does not end. */
static uint64_t description(struct dump_run *r, const struct tfile_desc *d)
{
	const struct tl_input *in = r->in;
	uint64_t pos = TFILE_HEADER_SIZE;
	uint32_t lineno = 1;
	struct desc_cursor at = { 0, 0 };
	while (pos < in->size) {
		struct tl_cursor rest;
		const uint8_t *line;
		size_t avail = (size_t)(in->size - pos);
		if (!tl_cursor_at(&rest, in->data, in->size, pos, avail) ||
		    !tl_cursor_bytes(&rest, avail, &line))
			return 0;
		const uint8_t *nl = memchr(line, '\n', avail);
		if (!nl)
			return 0;
		size_t len = (size_t)(nl - line);
		if (len == 0)
			return pos + 1;
		size_t plen = prefix_length(line, len);
		char prefix[8] = "";
		if (plen < sizeof prefix)
			memcpy(prefix, line, plen);
		if (dump_take(r)) {
			struct jl *j = &r->jl;
			jl_begin(j, "description");
			jl_u64(j, "line", lineno);
			jl_bytes(j, "prefix", line, plen);
			jl_bytes(j, "text", line + (plen < len ? plen + 1 : len),
				 plen < len ? len - plen - 1 : 0);
			decoded_fields(j, d, &at, lineno, prefix);
			jl_end(j);
		}
		pos += len + 1;
		lineno++;
	}
	return 0;
}

/* The blocks of the frame data [start, end); false when one does not fit. */
static bool blocks(struct dump_run *r, uint64_t start, uint64_t end, uint64_t index, bool big,
		   const struct tfile_desc *d)
{
	const struct tl_input *in = r->in;
	struct jl *j = &r->jl;
	for (uint64_t at = start; at < end;) {
		struct tfile_block b;
		struct tl_cursor data;
		const uint8_t *bytes = NULL;
		if (tl_tfile_block_read(tl_tfile_head_in(in->data, in->size, at, end, TFILE_BLOCK_HEAD), end,
					big, d->r_valid, d->r_size, &b) != TFILE_BLOCK_OK ||
		    !tl_cursor_at(&data, in->data, in->size, b.payload, b.payload_size) ||
		    !tl_cursor_bytes(&data, (size_t)b.payload_size, &bytes))
			return false;
		at = b.next;
		if (!dump_take(r))
			continue;
		if (b.type == 'R') {
			jl_begin(j, "registers");
			jl_u64(j, "frame", index);
			jl_u64(j, "size", b.payload_size);
			hex_field(j, "data", bytes, (size_t)b.payload_size);
		} else if (b.type == 'M') {
			jl_begin(j, "memory");
			jl_u64(j, "frame", index);
			jl_u64(j, "address", b.address);
			jl_u64(j, "length", b.length);
			hex_field(j, "data", bytes, (size_t)b.payload_size);
		} else {
			jl_begin(j, "tsv-value");
			jl_u64(j, "frame", index);
			jl_i64(j, "number", (int32_t)b.number);
			jl_i64(j, "value", (int64_t)b.value);
		}
		jl_u64(j, "offset", b.at);
		jl_end(j);
	}
	return true;
}

static void frames(struct dump_run *r, const struct tfile_desc *d, uint64_t start, bool big)
{
	const struct tl_input *in = r->in;
	struct jl *j = &r->jl;
	if (!in->data || start > in->size) {
		dump_stop(r, "no frame section");
		return;
	}
	uint64_t at = start;
	for (uint64_t index = 0;; index++) {
		struct tfile_frame f;
		enum tfile_frame_end end = tl_tfile_frame_read(
			tl_tfile_head_in(in->data, in->size, at, in->size, TFILE_FRAME_HEAD), in->size, big, &f);
		if (end == TFILE_FRAME_NONE) {
			dump_stop(r, "no end marker after %llu frames", (unsigned long long)index);
			return;
		}
		if (end == TFILE_FRAME_MARKER)
			return;
		if (end != TFILE_FRAME_READ) {
			dump_stop(r, "frame %llu at offset %llu does not fit in the file",
				  (unsigned long long)index, (unsigned long long)f.at);
			return;
		}
		if (dump_take(r)) {
			jl_begin(j, "frame");
			jl_u64(j, "index", index);
			jl_u64(j, "tracepoint", f.tpnum);
			jl_u64(j, "size", f.size);
			jl_u64(j, "offset", f.at);
			jl_end(j);
		}
		if (!blocks(r, f.body, f.end, index, big, d)) {
			dump_stop(r, "a block of frame %llu does not fit in it or has an unknown type",
				  (unsigned long long)index);
			return;
		}
		at = f.end;
		tl_input_release(in, at);
	}
}

void tl_dump_tfile(struct dump_run *r)
{
	const struct tl_input *in = r->in;
	if (in->size < TFILE_HEADER_SIZE || !in->data) {
		dump_stop(r, "the file is shorter than the 8-byte header");
		return;
	}
	/* The byte order needs the finished description, whose tables are then
	 * sorted by name and number; the lines are dumped from a second reading
	 * in line order. */
	struct quiet_ctx q;
	quiet_ctx_init(&q, r->opts, r->path);
	struct tfile_desc desc;
	memset(&desc, 0, sizeof desc);
	uint64_t start = tl_tfile_read_description(&q.ctx, in, &desc);
	tl_tfile_finish_description(&q.ctx, &desc);
	bool big = false;
	const char *how = start ? tl_tfile_choose_endian(&q.ctx, in, start, &desc, &big) : "assumed";
	struct jl *j = &r->jl;
	jl_begin(j, "header");
	jl_str(j, "format", "tfile");
	struct tl_cursor version_at;
	uint8_t version = '0';
	if (tl_cursor_at(&version_at, in->data, in->size, 6, 1))
		tl_cursor_u8(&version_at, &version);
	jl_u64(j, "version", (uint64_t)(version - '0'));
	jl_str(j, "byte-order", big ? "big" : "little");
	jl_str(j, "byte-order-from", how);
	if (desc.r_valid)
		jl_u64(j, "register-size", desc.r_size);
	else
		jl_null(j, "register-size");
	jl_end(j);
	struct tfile_desc lines;
	memset(&lines, 0, sizeof lines);
	quiet_ctx_init(&q, r->opts, r->path);
	(void)tl_tfile_read_description(&q.ctx, in, &lines);
	uint64_t frames_at = description(r, &lines);
	tl_tfile_desc_free(&lines);
	if (!start || !frames_at)
		dump_stop(r, "the description section does not end with an empty line");
	else
		frames(r, &desc, frames_at, big);
	tl_tfile_desc_free(&desc);
}
