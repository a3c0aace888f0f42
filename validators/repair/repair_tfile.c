/* Salvage of GDB trace files (specs/tfile.md; man page, REPAIR).
 *
 * The header and the description must validate (with no frame after them):
 * a line the validator objects to is dropped, all tdesc lines when the
 * damage is in the target description; the header and the R line cannot go. Frames are walked by their
 * headers (u16 tracepoint number, u32 size, in the target's byte order).
 * Frames before the input's first error are kept as they are; from there
 * each frame is validated alone. A frame cut by the end of the file is
 * dropped. A frame the validator refuses is dropped and the walk
 * resynchronises on the nearest later offset from which frames chain
 * plausibly (frame_plausible) for 4 frames or up to an end marker. The
 * output ends with tsave's end marker (4 zero bytes). */
#include "repair.h"
#include "cursor.h"
#include "validators/tfile/tfile_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_HEADER 6u
#define END_MARKER 4u
#define RESYNC_FRAMES 4
#define REPROBES 8

struct tf {
	struct tl_repair_job *job;
	const uint8_t *d;
	uint64_t n;
	uint64_t frames;       /* where the frame section starts */
	char *desc;            /* header and description as written (lines may be dropped) */
	size_t desc_len;
	uint64_t r_size;       /* the description's R size */
	bool big;
	uint8_t defined[0x8000 / 8]; /* tracepoint numbers the description's tp T lines define */
	uint64_t sound_until;
	unsigned reprobes;
	uint64_t kept, dropped;
	const char *rule;      /* the rule the last refused frame broke */
};

static const uint8_t zeros[END_MARKER];

static uint64_t read_uint(const struct tf *t, uint64_t off, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++) {
		unsigned shift = 8 * (t->big ? width - 1 - i : i);
		v |= (uint64_t)t->d[off + i] << shift;
	}
	return v;
}

/* The frame at off: its tracepoint number and total length; false when
 * its header or blocks do not fit or do not parse. A tracepoint number of
 * 0 is the end marker (length 0). */
static bool frame_plausible(const struct tf *t, uint64_t off, unsigned *tp, uint64_t *len)
{
	struct tfile_frame f;
	enum tfile_frame_end end =
		tl_tfile_frame_read(tl_tfile_head_in(t->d, t->n, off, t->n, TFILE_FRAME_HEAD), t->n, t->big, &f);
	*tp = f.tpnum;
	if (end == TFILE_FRAME_MARKER) {
		*len = 0;
		return true;
	}
	if (end != TFILE_FRAME_READ || f.tpnum > 0x7fff || !(t->defined[f.tpnum / 8] & (1u << (f.tpnum % 8))))
		return false;
	for (uint64_t at = f.body; at < f.end;) {
		struct tfile_block b;
		if (tl_tfile_block_read(tl_tfile_head_in(t->d, t->n, at, f.end, TFILE_BLOCK_HEAD), f.end, t->big,
					true, t->r_size, &b) != TFILE_BLOCK_OK)
			return false;
		at = b.next;
	}
	*len = FRAME_HEADER + f.size;
	return true;
}

/* An end marker found by a resynchronisation: zero bytes up to the end of
 * the file, and not many (two zero bytes are common inside frames). */
#define END_SCAN 4096u

static bool end_plausible(const struct tf *t, uint64_t off)
{
	if (t->n - off > END_SCAN)
		return false;
	for (uint64_t p = off; p < t->n; p++)
		if (t->d[p])
			return false;
	return true;
}

static bool chain_plausible(const struct tf *t, uint64_t off)
{
	for (unsigned i = 0; i < RESYNC_FRAMES; i++) {
		unsigned tp;
		uint64_t len;
		if (!frame_plausible(t, off, &tp, &len) || (tp == 0 && !end_plausible(t, off)))
			return false;
		if (tp == 0 || off + len == t->n)
			return true;
		off += len;
	}
	return true;
}

/* Does the frame [off, off + len) validate after the description? */
static bool frame_sound(struct tf *t, uint64_t off, uint64_t len)
{
	if (off + len < t->sound_until)
		return true;
	struct tl_repair_probe probe = { 0 };
	if (off >= t->sound_until && t->reprobes < REPROBES) {
		/* past the damage: where does the rest of the file first fail? */
		struct tl_repair_piece rest[2] = { { (const uint8_t *)t->desc, t->desc_len },
						   { t->d + off, (size_t)(t->n - off) } };
		t->reprobes++;
		if (tl_repair_probe_pieces(t->job, rest, 2, &probe))
			t->sound_until = UINT64_MAX;
		else if (probe.ran && probe.first_error >= t->desc_len && probe.first_error != UINT64_MAX)
			t->sound_until = off + (probe.first_error - t->desc_len);
		if (off + len < t->sound_until)
			return true;
	}
	struct tl_repair_piece one[3] = { { (const uint8_t *)t->desc, t->desc_len }, { t->d + off, (size_t)len },
					  { zeros, END_MARKER } };
	bool sound = tl_repair_probe_pieces(t->job, one, 3, &probe);
	t->rule = probe.first_rule;
	return sound;
}

/* The description's R size (the last R line wins, as in GDB); 0 if none. */
static uint64_t r_size(const uint8_t *d, uint64_t end)
{
	uint64_t size = 0;
	for (uint64_t p = 8; p + 2 < end; p++) {
		if ((p == 8 || d[p - 1] == '\n') && d[p] == 'R' && d[p + 1] == ' ') {
			uint64_t v = 0;
			for (uint64_t q = p + 2; q < end && d[q] != '\n'; q++) {
				unsigned c = d[q];
				unsigned digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
					: c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
				if (digit == 16 || v > (UINT64_C(1) << 40))
					break;
				v = v * 16 + digit;
			}
			size = v;
		}
	}
	return size;
}

/* The numbers of the description's "tp T<hex>:" lines. */
static void define_tracepoints(struct tf *t)
{
	for (uint64_t p = 8; p + 5 < t->frames; p++) {
		if (t->d[p - 1] != '\n' || memcmp(t->d + p, "tp T", 4) != 0)
			continue;
		unsigned v = 0;
		for (uint64_t q = p + 4; q < t->frames && v <= 0x7fff; q++) {
			unsigned c = t->d[q];
			unsigned digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
			if (digit == 16)
				break;
			v = v * 16 + digit;
		}
		if (v >= 1 && v <= 0x7fff)
			t->defined[v / 8] |= (uint8_t)(1u << (v % 8));
	}
}

/* Frames chain from the section's start further in this byte order? */
static uint64_t frames_chained(struct tf *t, bool big)
{
	t->big = big;
	uint64_t off = t->frames, count = 0;
	unsigned tp;
	uint64_t len;
	while (off < t->n && count < 64 && frame_plausible(t, off, &tp, &len) && tp != 0) {
		off += len;
		count++;
	}
	return count;
}

/* Drops the description line holding offset e of t->desc; all tdesc lines
 * when it is one of them (GDB then takes the executable's or the default
 * architecture). False for the header and the R line, which cannot go. */
static bool drop_line(struct tf *t, size_t e, const char *rule)
{
	size_t start = e, end = e, line_end = e;
	while (start > 8 && t->desc[start - 1] != '\n')
		start--;
	if (start < 8 || e >= t->desc_len - 1 || memcmp(t->desc + start, "R ", 2) == 0)
		return false;
	while (line_end < t->desc_len && t->desc[line_end] != '\n')
		line_end++;
	bool tdesc = memcmp(t->desc + start, "tdesc ", 6) == 0;
	size_t w = 8, dropped = 0;
	for (size_t p = 8; p < t->desc_len - 1; p = end) {
		end = p;
		while (end < t->desc_len && t->desc[end] != '\n')
			end++;
		end++;
		bool go = tdesc ? memcmp(t->desc + p, "tdesc ", 6) == 0 : p == start;
		if (go) {
			dropped += end - p;
			continue;
		}
		memmove(t->desc + w, t->desc + p, end - p);
		w += end - p;
	}
	t->desc[w++] = '\n';
	tl_repair_change(t->job, tdesc ? TL_REPAIR_REWRITTEN : TL_REPAIR_DROPPED, 8, tdesc ? t->frames - 8 : line_end + 1 - start,
			 rule, tdesc ? "the target description (tdesc lines, %zu bytes) is damaged and dropped: "
				       "GDB falls back to the executable's or its default architecture"
				     : "a description line that does not validate (%zu bytes)", dropped);
	t->desc_len = w;
	return true;
}

/* The header and the description, as they are or with the lines the
 * validator objects to dropped (8 rounds at most). */
static bool description(struct tf *t)
{
	struct tl_repair_report *rep = t->job->report;
	t->desc = malloc((size_t)t->frames);
	if (!t->desc) {
		rep->out_of_memory = true;
		return false;
	}
	memcpy(t->desc, t->d, (size_t)t->frames);
	t->desc_len = (size_t)t->frames;
	struct tl_repair_probe probe = { 0 };
	for (unsigned round = 0; round < 8; round++) {
		struct tl_repair_piece head[2] = { { (const uint8_t *)t->desc, t->desc_len }, { zeros, END_MARKER } };
		if (tl_repair_probe_pieces(t->job, head, 2, &probe))
			return true;
		if (!probe.ran || probe.first_error >= t->desc_len ||
		    !drop_line(t, (size_t)probe.first_error, probe.first_rule))
			break;
	}
	snprintf(rep->reason, sizeof rep->reason, "the header or the description is damaged (%s)",
		 probe.first_rule ? probe.first_rule : "TFILE-HEADER-MAGIC");
	return false;
}

/* The first "\n\n" of [p, p + n): where the description ends. */
static const uint8_t *blank_line(const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || nl + 1 >= end)
			return NULL;
		if (nl[1] == '\n')
			return nl;
		p = nl + 1;
	}
	return NULL;
}

enum tl_repair_outcome tl_repair_tfile(struct tl_repair_job *job)
{
	struct tl_repair_report *rep = job->report;
	struct tf t = { .job = job, .d = job->data, .n = job->size };
	/* the description ends at the first empty line */
	struct tl_cursor after_header;
	const uint8_t *rest = NULL, *end = NULL;
	if (t.n > 7 && tl_cursor_at(&after_header, t.d, t.n, 7, t.n - 7) &&
	    tl_cursor_bytes(&after_header, (size_t)(t.n - 7), &rest))
		end = blank_line(rest, (size_t)(t.n - 7));
	uint64_t p = end ? 7 + (uint64_t)(end - rest) + 1 : t.n;
	if (p >= t.n) {
		snprintf(rep->reason, sizeof rep->reason, "the header or the description is cut short (TFILE-DESC-UNTERMINATED)");
		return TL_REPAIR_NONE_LEFT;
	}
	t.frames = p + 1;
	if (!description(&t)) {
		free(t.desc);
		return TL_REPAIR_NONE_LEFT;
	}
	t.r_size = r_size(t.d, t.frames);
	define_tracepoints(&t);
	t.sound_until = t.desc_len == t.frames ? job->first_error : t.frames;
	if (job->base->endian != TL_ENDIAN_AUTO)
		t.big = job->base->endian == TL_ENDIAN_BIG;
	else
		t.big = frames_chained(&t, true) > frames_chained(&t, false);
	snprintf(rep->detail, sizeof rep->detail, "%s-endian frames", t.big ? "big" : "little");
	tl_repair_emit(job, t.desc, t.desc_len);
	uint64_t off = t.frames, index = 0;
	bool ended = false;
	while (off < t.n && !job->failed) {
		unsigned tp;
		uint64_t len;
		tl_repair_release(job, off);
		if (frame_plausible(&t, off, &tp, &len) && tp == 0) {
			ended = true;
			break;
		}
		struct tl_cursor frame;
		const uint8_t *bytes;
		if (frame_plausible(&t, off, &tp, &len) && frame_sound(&t, off, len) &&
		    tl_cursor_at(&frame, t.d, t.n, off, len) && tl_cursor_bytes(&frame, (size_t)len, &bytes)) {
			tl_repair_emit(job, bytes, (size_t)len);
			t.kept++;
			off += len;
			index++;
			continue;
		}
		uint64_t size = t.n - off >= FRAME_HEADER ? read_uint(&t, off + 2, 4) : 0;
		if (t.n - off < FRAME_HEADER || size > t.n - off - FRAME_HEADER) {
			if (t.n - off < FRAME_HEADER || read_uint(&t, off, 2) <= 0x7fff) {
				tl_repair_change(job, TL_REPAIR_DROPPED, off, t.n - off, "TFILE-FRAME-SIZE",
						 "frame %llu: the file ends inside it (cut)", (unsigned long long)index);
				t.dropped++;
				break;
			}
		}
		/* damaged: resynchronise on the next plausible chain of frames */
		if (!frame_plausible(&t, off, &tp, &len))
			t.rule = "TFILE-FRAME-SIZE";
		uint64_t q = off + 1;
		while (q < t.n && !chain_plausible(&t, q))
			if ((++q & 0xfffff) == 0) /* a long damaged stretch: its pages go back */
				tl_repair_release(job, q);
		tl_repair_change(job, TL_REPAIR_DROPPED, off, q - off, t.rule ? t.rule : "TFILE-FRAME-SIZE",
				 "frame %llu does not validate; %s", (unsigned long long)index,
				 q < t.n ? "resynchronised on the next frames that chain" : "no later frame chains");
		t.dropped++;
		index++;
		off = q;
		/* the validator framed what follows differently: nothing there is known sound */
		if (t.sound_until > q)
			t.sound_until = q;
	}
	tl_repair_emit(job, zeros, END_MARKER);
	if (!ended || off + END_MARKER != t.n)
		tl_repair_change(job, TL_REPAIR_ADDED, off, 0, "TFILE-END-MISSING",
				 "the end marker (4 zero bytes), after the last frame kept");
	tl_repair_unit(job, "frames", t.kept, t.dropped);
	free(t.desc);
	if (t.kept == 0) {
		snprintf(rep->reason, sizeof rep->reason, "no whole frame could be kept");
		return TL_REPAIR_NONE_LEFT;
	}
	return TL_REPAIR_REPAIRED;
}

static uint64_t tfile_records(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in);

uint64_t tl_repair_tfile_records(const uint8_t *data, size_t size, uint64_t before)
{
	return tfile_records(data, size, before, NULL);
}

uint64_t tl_repair_tfile_records_in(const struct tl_input *in)
{
	return tfile_records(in->data, in->size, UINT64_MAX, in);
}

/* in (when not NULL) gets the pages counted handed back. */
static uint64_t tfile_records(const uint8_t *data, size_t size, uint64_t before, const struct tl_input *in)
{
	struct tf t = { .d = data, .n = size };
	uint64_t p = 8;
	while (p < t.n && !(t.d[p] == '\n' && t.d[p - 1] == '\n'))
		p++;
	if (p >= t.n)
		return 0;
	t.frames = p + 1;
	t.r_size = r_size(t.d, t.frames);
	define_tracepoints(&t);
	t.big = frames_chained(&t, true) > frames_chained(&t, false);
	uint64_t off = t.frames, count = 0;
	unsigned tp;
	uint64_t len;
	while (off < t.n && frame_plausible(&t, off, &tp, &len) && tp != 0) {
		off += len;
		count += off <= before;
		if (in)
			tl_input_release(in, off);
	}
	return count;
}
