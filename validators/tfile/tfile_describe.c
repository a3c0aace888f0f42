/* The text context of a tfile diagnostic about a frame or a block: the
 * field it is about (the marker spans the whole field) and the decoded
 * frame header or block. Reads the input as the diagnostic is reported
 * and reports nothing. The file records no byte order, so it is found again as
 * --endian=auto finds it: the order whose chain of frame headers reaches
 * the diagnostic, the one ending in an end marker when both do, else
 * little-endian (the tdesc tie-break is left out: a guess only names the
 * fields, it never changes a verdict). */
#include "format.h"
#include "tfile.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { FRAME_HEADER = 6, SCAN_CHUNK = 4096, MAX_FRAMES_WALKED = 1 << 20 };

/* Where the frames start: after the empty line that ends the description;
 * 0 when the description does not end. */
static uint64_t frames_start(tl_read_back_fn read, void *file)
{
	uint8_t buf[SCAN_CHUNK];
	uint8_t prev = '\n'; /* the header ends with 0a: an empty first line ends at once */
	for (uint64_t at = 8;;) {
		size_t n = read(file, at, buf, sizeof buf);
		if (n == 0)
			return 0;
		for (size_t i = 0; i < n; i++) {
			if (buf[i] == '\n' && prev == '\n')
				return at + i + 1;
			prev = buf[i];
		}
		at += n;
	}
}

static uint64_t get(const uint8_t *p, size_t width, bool big)
{
	uint64_t v = 0;
	for (size_t i = 0; i < width; i++)
		v |= (uint64_t)p[big ? i : width - 1 - i] << (8 * (width - 1 - i));
	return v;
}

struct chain {
	bool reaches;   /* a frame starts at the offset, or holds it in its data */
	bool clean;     /* the chain ends in a tracepoint number 0 */
};

static struct chain walk(tl_read_back_fn read, void *file, uint64_t at, bool big, uint64_t off,
			 bool block)
{
	struct chain c = { false, false };
	for (unsigned step = 0; step < MAX_FRAMES_WALKED; step++) {
		uint8_t h[FRAME_HEADER];
		size_t n = read(file, at, h, sizeof h);
		if (n < 2)
			return c;
		if (get(h, 2, big) == 0) {
			c.clean = true;
			return c;
		}
		if (n < sizeof h) {
			c.reaches |= !block && at == off;
			return c;
		}
		uint64_t next = at + FRAME_HEADER + get(h + 2, 4, big);
		c.reaches |= block ? off >= at + FRAME_HEADER && off < next : at == off;
		if (at > off && c.reaches == false)
			return c; /* walked past the offset without meeting it */
		at = next;
	}
	return c;
}

static bool choose_order(tl_read_back_fn read, void *file, uint64_t off, bool block, bool *big)
{
	uint64_t start = frames_start(read, file);
	if (start == 0 || off < start)
		return false;
	struct chain little = walk(read, file, start, false, off, block);
	struct chain bigc = walk(read, file, start, true, off, block);
	if (!little.reaches && !bigc.reaches)
		return false;
	*big = bigc.reaches && (!little.reaches || (bigc.clean && !little.clean));
	return true;
}

/* The field each rule's marker spans, from the frame's or block's start. */
static void field_of(const char *rule, uint8_t type, struct tl_field_view *v)
{
	static const struct tl_rule_field fields[] = {
		{ "TFILE-FRAME-TPNUM", 0, 2 },   { "TFILE-FRAME-TPNUM-UNDEFINED", 0, 2 },
		{ "TFILE-FRAME-SIZE", 2, 4 },    { "TFILE-FRAME-HEADER", 0, FRAME_HEADER },
		{ "TFILE-BLOCK-M-EMPTY", 9, 2 }, { "TFILE-BLOCK-M-WRAP", 1, 10 },
		{ "TFILE-BLOCK-M-ADDR32", 1, 8 }, { "TFILE-BLOCK-V-UNDEFINED", 1, 4 },
	};
	const struct tl_rule_field *f = tl_rule_field(fields, sizeof fields / sizeof fields[0], rule);
	if (f) {
		v->offset += f->at;
		v->width = f->width;
		return;
	}
	/* a block that overruns its frame: its header (type, and M's address
	 * and length or V's number and value) */
	if (strcmp(rule, "TFILE-BLOCK-OVERRUN") == 0)
		v->width = type == 'M' ? 11 : type == 'V' ? 13 : 1;
}

static void block_fields(const uint8_t *b, size_t n, bool big, char *out, size_t len)
{
	uint8_t type = b[0];
	if (type == 'M' && n >= 11)
		snprintf(out, len, "block: type=M address=0x%" PRIx64 " length=%" PRIu64,
			 get(b + 1, 8, big), get(b + 9, 2, big));
	else if (type == 'V' && n >= 13)
		snprintf(out, len, "block: type=V number=%" PRId32 " value=%" PRId64,
			 (int32_t)get(b + 1, 4, big), (int64_t)get(b + 5, 8, big));
	else if (type == 'R' || type == 'M' || type == 'V')
		snprintf(out, len, "block: type=%c", type);
	else if (type > 0x20 && type < 0x7f)
		snprintf(out, len, "block: type=0x%02x ('%c', not R, M or V)", type, type);
	else
		snprintf(out, len, "block: type=0x%02x (not R, M or V)", type);
}

void tl_tfile_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
		       struct tl_field_view *view)
{
	const char *rule = d->rule->id;
	bool frame = strncmp(rule, "TFILE-FRAME-", 12) == 0;
	bool block = strncmp(rule, "TFILE-BLOCK-", 12) == 0;
	if (!frame && !block)
		return;
	uint8_t b[13];
	size_t n = read(file, d->loc.offset, b, sizeof b);
	if (n == 0)
		return;
	field_of(rule, b[0], view);
	/* never mark past what the file holds */
	if (view->offset - d->loc.offset + view->width > n && view->offset - d->loc.offset < n)
		view->width = n - (view->offset - d->loc.offset);
	bool big;
	if (!choose_order(read, file, d->loc.offset, block, &big))
		return;
	if (block)
		block_fields(b, n, big, view->fields, sizeof view->fields);
	else if (n >= FRAME_HEADER)
		snprintf(view->fields, sizeof view->fields, "frame: tpnum=%" PRIu64 " size=%" PRIu64,
			 get(b, 2, big), get(b + 2, 4, big));
	else
		snprintf(view->fields, sizeof view->fields, "frame: tpnum=%" PRIu64 " (header cut)",
			 n >= 2 ? get(b, 2, big) : 0);
}
