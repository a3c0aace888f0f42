/* tfile mutator: edits the description lines, whole frames and the R/M/V
 * blocks inside a frame, and rewrites the frame's size after a block edit so
 * the validator walks on into the next frame. Layout: the gdb tfile seed and
 * format (frames are u16 tpnum, u32 size, blocks; end marker u16 0,
 * target byte order; R SIZE in hex). */
#include "mutator.h"

#include <string.h>

enum { MAGIC = 8, FRAME_HEAD = 6, MAX_FRAMES = 512, MAX_BLOCKS = 256, MAX_LINES = 256 };

static const char tfile_magic[MAGIC] = "\x7fTRACE0\n";

/* Lines gdb writes or reads in the description section, and a few it must reject. */
static const char *const tfile_lines[] = {
	"R 10", "R 970", "R 0", "R ffffffff", "R", "status 0;tstop::0;tframes:1",
	"status 1;tnotrun:0;tframes:0;tcreated:0;tfree:ffff;tsize:10000;circular:0;disconn:0",
	"status 0;terror:4572726f72:1", "status 0;tfull:0;tframes:ffffffff",
	"tp T1:401000:E:0:0", "tp T1:401000:E:0:0:FZ", "tp A1:401000:R1", "tp A1:401000:M-1,601040,8",
	"tp Z1:401000:at:0:5:6d61696e", "tp T2:401010:D:1:3:X03,220127", "tsv 1:0:0:636f756e74",
	"tsv 2:ffffffffffffffff:1:", "tdesc <target><architecture>i386:x86-64</architecture></target>",
	"tdesc <?xml version=\"1.0\"?>", "unknown line", "tp", "status",
};

struct tfile_span {
	size_t off, len;
};

struct tfile_view {
	struct tlm_buf b;
	bool big;
	size_t text_end;            /* offset of the first frame */
	size_t regs;                /* R SIZE, 0 when unknown */
	struct tfile_span line[MAX_LINES];
	size_t nlines;
	struct tfile_span frame[MAX_FRAMES];
	size_t nframes;
	size_t end_marker;          /* offset of the u16 0, or size when absent */
};

static size_t hex_value(const uint8_t *p, size_t n)
{
	size_t v = 0;
	for (size_t i = 0; i < n && v < 0x1000000; i++) {
		uint8_t c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + (size_t)d;
	}
	return v;
}

static void tfile_scan(struct tfile_view *v)
{
	v->nlines = v->nframes = 0;
	v->regs = 0;
	size_t off = MAGIC;
	v->text_end = v->b.size;
	while (off < v->b.size) {
		const uint8_t *nl = memchr(v->b.data + off, '\n', v->b.size - off);
		size_t len = nl ? (size_t)(nl - (v->b.data + off)) : v->b.size - off;
		if (len == 0) {
			v->text_end = off + 1;
			break;
		}
		if (v->nlines < MAX_LINES)
			v->line[v->nlines++] = (struct tfile_span){ off, len + (nl != NULL) };
		if (len > 2 && v->b.data[off] == 'R' && v->b.data[off + 1] == ' ')
			v->regs = hex_value(v->b.data + off + 2, len - 2);
		off += len + 1;
	}
	/* Frames in the byte order that frames the first one within the file. */
	if (v->text_end + FRAME_HEAD <= v->b.size) {
		uint64_t le = tlm_get(v->b.data + v->text_end + 2, 4, false);
		uint64_t be = tlm_get(v->b.data + v->text_end + 2, 4, true);
		size_t room = v->b.size - v->text_end - FRAME_HEAD;
		v->big = le > room && be <= room;
	}
	off = v->text_end;
	v->end_marker = v->b.size;
	while (off + 2 <= v->b.size && v->nframes < MAX_FRAMES) {
		if (tlm_get(v->b.data + off, 2, v->big) == 0) {
			v->end_marker = off;
			break;
		}
		size_t len = v->b.size - off;
		if (off + FRAME_HEAD <= v->b.size) {
			uint64_t body = tlm_get(v->b.data + off + 2, 4, v->big);
			if (body <= len - FRAME_HEAD)
				len = FRAME_HEAD + (size_t)body;
		}
		v->frame[v->nframes++] = (struct tfile_span){ off, len };
		off += len;
	}
}

/* The blocks of one frame, as far as they can be framed. */
static size_t scan_blocks(const struct tfile_view *v, const struct tfile_span *f, struct tfile_span *out)
{
	size_t n = 0, off = f->off + FRAME_HEAD, end = f->off + f->len;
	while (off < end && n < MAX_BLOCKS) {
		size_t left = end - off, len;
		switch (v->b.data[off]) {
		case 'R': len = 1 + v->regs; break;
		case 'M': len = left >= 11 ? 11 + (size_t)tlm_get(v->b.data + off + 9, 2, v->big) : left; break;
		case 'V': len = 13; break;
		default: len = left; break;
		}
		if (len > left)
			len = left;
		out[n++] = (struct tfile_span){ off, len };
		off += len;
	}
	return n;
}

static void set_frame_size(struct tfile_view *v, size_t frame_off, size_t body)
{
	tlm_put(v->b.data + frame_off + 2, 4, v->big, body);
}

static bool insert_line(struct tfile_view *v)
{
	const char *s = tfile_lines[tlm_rng_below(&v->b.rng, sizeof tfile_lines / sizeof tfile_lines[0])];
	size_t n = strlen(s);
	size_t at = v->nlines ? v->line[tlm_rng_below(&v->b.rng, v->nlines)].off : MAGIC;
	if (at > v->b.size || !tlm_insert(v->b.data, &v->b.size, v->b.max, at, n + 1))
		return false;
	memcpy(v->b.data + at, s, n);
	v->b.data[at + n] = '\n';
	return true;
}

static bool insert_block(struct tfile_view *v, size_t fi)
{
	struct tfile_span f = v->frame[fi];
	if (f.len < FRAME_HEAD)
		return false;
	struct tfile_span blocks[MAX_BLOCKS];
	size_t nb = scan_blocks(v, &f, blocks);
	size_t bi = tlm_rng_below(&v->b.rng, nb + 1);
	size_t at = bi < nb ? blocks[bi].off : f.off + f.len;
	unsigned kind = (unsigned)tlm_rng_below(&v->b.rng, 8);
	size_t mlen = (size_t)tlm_rng_below(&v->b.rng, 24);
	size_t len = kind < 2 ? 1 + (v->regs ? v->regs : 16) : kind < 5 ? 11 + mlen : kind < 7 ? 13 : 1;
	if (len > 4096 || !tlm_insert(v->b.data, &v->b.size, v->b.max, at, len))
		return false;
	uint8_t *p = v->b.data + at;
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)tlm_rng_next(&v->b.rng);
	if (kind < 2) {
		p[0] = 'R';
	} else if (kind < 5) {
		p[0] = 'M';
		tlm_put(p + 1, 8, v->big, 0x601000 + tlm_rng_below(&v->b.rng, 256));
		tlm_put(p + 9, 2, v->big, mlen);
	} else if (kind < 7) {
		p[0] = 'V';
		tlm_put(p + 1, 4, v->big, tlm_rng_below(&v->b.rng, 4));
	} /* else: an unknown block letter */
	set_frame_size(v, f.off, f.len - FRAME_HEAD + len);
	return true;
}

/* Picks one of frame fi's blocks at random; false when it has none. */
static bool pick_block(struct tfile_view *v, size_t fi, struct tfile_span *b)
{
	struct tfile_span f = v->frame[fi];
	struct tfile_span blocks[MAX_BLOCKS];
	size_t nb = f.len >= FRAME_HEAD ? scan_blocks(v, &f, blocks) : 0;
	if (!nb)
		return false;
	*b = blocks[tlm_rng_below(&v->b.rng, nb)];
	return true;
}

static bool drop_block(struct tfile_view *v, size_t fi)
{
	struct tfile_span f = v->frame[fi];
	struct tfile_span b;
	if (!pick_block(v, fi, &b))
		return false;
	tlm_erase(v->b.data, &v->b.size, b.off, b.len);
	set_frame_size(v, f.off, f.len - FRAME_HEAD - b.len);
	return true;
}

static bool mutate_block_field(struct tfile_view *v, size_t fi)
{
	struct tfile_span b;
	if (!pick_block(v, fi, &b))
		return false;
	uint8_t *p = v->b.data + b.off;
	if (p[0] == 'M' && b.len >= 11) {
		unsigned pos = tlm_rng_below(&v->b.rng, 2) ? 9 : 1, width = pos == 9 ? 2 : 8;
		tlm_put(p + pos, width, v->big, tlm_interesting(&v->b.rng, tlm_get(p + pos, width, v->big)));
	} else if (p[0] == 'V' && b.len >= 13) {
		unsigned pos = tlm_rng_below(&v->b.rng, 2) ? 1 : 5, width = pos == 1 ? 4 : 8;
		tlm_put(p + pos, width, v->big, tlm_interesting(&v->b.rng, tlm_get(p + pos, width, v->big)));
	} else {
		p[0] = "RMVX\0"[tlm_rng_below(&v->b.rng, 5)];
	}
	return true;
}

static size_t tfile_synthesize(struct tfile_view *v)
{
	static const char text[] = "\x7fTRACE0\nR 10\nstatus 0;tstop::0;tframes:1\n"
				   "tp T1:401000:E:0:0\ntsv 1:0:0:636f756e74\n\n";
	size_t tlen = sizeof text - 1, body = 17 + 13 + 13;
	size_t need = tlen + FRAME_HEAD + body + 4;
	if (v->b.max < need)
		return v->b.size;
	memcpy(v->b.data, text, tlen);
	uint8_t *p = v->b.data + tlen;
	memset(p, 0, need - tlen);
	tlm_put(p, 2, false, 1);
	tlm_put(p + 2, 4, false, body);
	p += FRAME_HEAD;
	p[0] = 'R';
	p[17] = 'M';
	tlm_put(p + 18, 8, false, 0x601040);
	tlm_put(p + 26, 2, false, 2);
	p[30] = 'V';
	tlm_put(p + 31, 4, false, 1);
	tlm_put(p + 35, 8, false, 42);
	/* The end marker: four zero bytes, already there. */
	return need;
}

size_t tlm_tfile_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const struct tlm_bytes *bytes)
{
	static struct tfile_view v;
	size = tlm_buf_open(&v.b, data, size, max_size, seed);
	if (size < MAGIC || memcmp(data, tfile_magic, MAGIC) != 0) {
		if (!bytes || tlm_rng_below(&v.b.rng, 2))
			return tfile_synthesize(&v);
		return tlm_buf_bytes(&v.b, bytes);
	}
	tfile_scan(&v);
	size_t fi = tlm_rng_below(&v.b.rng, v.nframes), fj = tlm_rng_below(&v.b.rng, v.nframes);
	bool done = false;
	switch (tlm_rng_below(&v.b.rng, bytes ? 12 : 11)) {
	case 0:
		done = insert_line(&v);
		break;
	case 1: /* drop or blank a description line */
		if (v.nlines) {
			struct tfile_span l = v.line[tlm_rng_below(&v.b.rng, v.nlines)];
			tlm_erase(data, &v.b.size, l.off, l.len);
			done = true;
		}
		break;
	case 2: /* drop a frame */
		if (v.nframes) {
			tlm_erase(data, &v.b.size, v.frame[fi].off, v.frame[fi].len);
			done = true;
		}
		break;
	case 3: /* repeat a frame */
		if (v.nframes)
			done = tlm_duplicate(data, &v.b.size, max_size, v.frame[fi].off, v.frame[fi].len,
					     v.frame[fj].off);
		break;
	case 4: /* reorder two frames */
		if (v.nframes > 1 && fi != fj) {
			tlm_swap(data, v.b.size, v.frame[fi].off, v.frame[fi].len, v.frame[fj].off, v.frame[fj].len);
			done = true;
		}
		break;
	case 5: /* break a frame's size or tracepoint number */
		if (v.nframes && v.frame[fi].len >= FRAME_HEAD) {
			uint8_t *p = data + v.frame[fi].off;
			if (tlm_rng_below(&v.b.rng, 2))
				tlm_put(p + 2, 4, v.big, tlm_interesting(&v.b.rng, tlm_get(p + 2, 4, v.big)));
			else
				tlm_put(p, 2, v.big, tlm_interesting(&v.b.rng, tlm_get(p, 2, v.big)));
			done = true;
		}
		break;
	case 6: case 7:
		done = v.nframes && insert_block(&v, fi);
		break;
	case 8:
		done = v.nframes && drop_block(&v, fi);
		break;
	case 9:
		done = v.nframes && mutate_block_field(&v, fi);
		break;
	case 10: /* the end marker: cut it, or put bytes after it */
		if (v.end_marker < v.b.size) {
			if (tlm_rng_below(&v.b.rng, 2))
				tlm_erase(data, &v.b.size, v.end_marker, v.b.size - v.end_marker);
			else if (tlm_insert(data, &v.b.size, max_size, v.b.size, 7))
				memcpy(data + v.b.size - 7, "garbage", 7);
			done = true;
		}
		break;
	default:
		return tlm_buf_bytes(&v.b, bytes);
	}
	if (!done)
		insert_line(&v);
	return v.b.size;
}
