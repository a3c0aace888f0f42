/* XRay dump: the header, then every record in file order in the vocabulary
 * of `llvm-xray convert -f yaml` (func-id, kind, tsc, cpu, thread, process,
 * args, data), with absolute TSCs reconstructed as LLVM's trace expander
 * does. FDR records come from the FDR decoder (tl_xray_decode) over the
 * buffers framed as the validator frames them; basic-mode records are fixed
 * 32-byte structs. Memory is the read window and one pending record. */
#include "dump.h"
#include "window.h"
#include "xray.h"

#include <string.h>

#define MAX_ARGS 8

static const char *const kind_names[4] = {
	"function-enter", "function-exit", "function-tail-exit", "function-enter-arg",
};

/* A function record is written once the records after it show whether
 * arguments follow (CallArgument in FDR, argument payloads in basic mode). */
struct pending {
	bool open;
	uint8_t action;
	uint32_t func_id;
	uint64_t tsc, offset;
	uint16_t cpu;
	int64_t thread, process;
	uint64_t args[MAX_ARGS];
	uint32_t nargs;
	uint64_t args_omitted;
};

struct fdr_state {
	struct dump_run *r;
	const struct xray_header *hdr;
	struct tl_window win;
	uint64_t base;          /* TSC reached: NewCPUId, TSCWrap, then deltas */
	uint16_t cpu;
	int64_t thread, process;
	struct pending p;
};

static void flush(struct dump_run *r, struct pending *p)
{
	if (!p->open)
		return;
	p->open = false;
	if (!dump_take(r))
		return;
	struct jl *j = &r->jl;
	/* An Entry followed by arguments is how versions 1-4 log them: LLVM reads
	 * it as an entry with arguments, and so does the dump. */
	unsigned action = p->action == XRAY_ENTRY && p->nargs ? XRAY_ENTRY_ARGS : p->action;
	jl_begin(j, action < 4 ? kind_names[action] : "function-action-unknown");
	jl_u64(j, "func-id", p->func_id);
	if (action >= 4)
		jl_u64(j, "action", action);
	if (p->nargs || action == XRAY_ENTRY_ARGS) {
		jl_array_begin(j, "args");
		for (uint32_t i = 0; i < p->nargs; i++)
			jl_u64(j, NULL, p->args[i]);
		jl_array_end(j);
	}
	if (p->args_omitted)
		jl_u64(j, "args-omitted", p->args_omitted);
	jl_u64(j, "cpu", p->cpu);
	jl_i64(j, "thread", p->thread);
	jl_i64(j, "process", p->process);
	jl_u64(j, "tsc", p->tsc);
	jl_u64(j, "offset", p->offset);
	jl_end(j);
}

static void add_arg(struct pending *p, uint64_t arg)
{
	if (p->nargs < MAX_ARGS)
		p->args[p->nargs++] = arg;
	else
		p->args_omitted++;
}

static void header_line(struct dump_run *r, const struct xray_header *hdr)
{
	struct jl *j = &r->jl;
	jl_begin(j, "header");
	jl_str(j, "format", "xray");
	jl_u64(j, "version", hdr->version);
	jl_u64(j, "type", hdr->type);
	jl_str(j, "mode", hdr->type == XRAY_TYPE_FDR ? "fdr" : "basic");
	jl_str(j, "byte-order", hdr->big ? "big" : "little");
	jl_bool(j, "constant-tsc", (hdr->flags & 1u) != 0);
	jl_bool(j, "nonstop-tsc", (hdr->flags & 2u) != 0);
	jl_u64(j, "cycle-frequency", hdr->cycle_frequency);
	if (hdr->type == XRAY_TYPE_FDR)
		jl_u64(j, "buffer-size", hdr->buffer_size);
	jl_end(j);
}

/* The payload of an event: size bytes after its 16-byte record, read
 * through the window in pieces. */
static void payload(struct fdr_state *s, uint64_t at, uint64_t size)
{
	struct jl *j = &s->r->jl;
	jl_bytes_open(j, "data");
	while (size) {
		size_t avail;
		const uint8_t *p = tl_window_at(&s->win, at, 1, &avail);
		if (!avail)
			break;
		size_t n = avail < size ? avail : (size_t)size;
		jl_bytes_part(j, p, n);
		at += n;
		size -= n;
	}
	jl_bytes_close(j);
}

/* The absolute TSC of a v1-v4 event (bytes 5..12 of its record). */
static uint64_t event_tsc(const uint8_t *p, bool big)
{
	uint64_t v = 0;
	(void)tl_read_uint_at(p, XRAY_METADATA_SIZE, 5, 8, big, &v);
	return v;
}

static void event(struct fdr_state *s, const struct xray_record *rec, const uint8_t *raw)
{
	struct dump_run *r = s->r;
	uint64_t tsc;
	if (rec->has_event_delta) {
		s->base += (uint64_t)(int64_t)rec->event_delta;
		tsc = s->base;
	} else {
		tsc = event_tsc(raw, s->hdr->big);
	}
	if (!dump_take(r))
		return;
	struct jl *j = &r->jl;
	bool typed = rec->kind == XRAY_TYPED_EVENT;
	jl_begin(j, typed ? "typed-event" : "custom-event");
	if (typed) {
		uint64_t type = 0;
		(void)tl_read_uint_at(raw, XRAY_METADATA_SIZE, 9, 2, s->hdr->big, &type);
		jl_u64(j, "type", type);
	}
	/* Version 4 events carry their CPU (bytes 13-14); the others run on the current one. */
	uint64_t cpu = s->cpu;
	if (!rec->has_event_delta && s->hdr->version == 4)
		(void)tl_read_uint_at(raw, XRAY_METADATA_SIZE, 13, 2, s->hdr->big, &cpu);
	jl_u64(j, "cpu", cpu);
	jl_i64(j, "thread", s->thread);
	jl_i64(j, "process", s->process);
	jl_u64(j, "tsc", tsc);
	payload(s, rec->offset + XRAY_METADATA_SIZE, rec->size - XRAY_METADATA_SIZE);
	jl_u64(j, "offset", rec->offset);
	jl_end(j);
}

static void record(struct fdr_state *s, const struct xray_record *rec, const uint8_t *raw)
{
	if (!rec->metadata) {
		flush(s->r, &s->p);
		s->base += rec->tsc_delta;
		s->p = (struct pending){ true, rec->action, rec->function_id, s->base, rec->offset,
					 s->cpu, s->thread, s->process, { 0 }, 0, 0 };
		return;
	}
	if (rec->kind == XRAY_CALL_ARGUMENT) {
		if (s->p.open)
			add_arg(&s->p, rec->word);
		return;
	}
	flush(s->r, &s->p);
	switch (rec->kind) {
	case XRAY_NEW_BUFFER:
		s->thread = rec->value;
		s->process = 0;
		break;
	case XRAY_PID:
		s->process = rec->value;
		break;
	case XRAY_NEW_CPU:
		s->cpu = (uint16_t)rec->value;
		s->base = rec->tsc;
		break;
	case XRAY_TSC_WRAP:
		s->base = rec->tsc;
		break;
	case XRAY_CUSTOM_EVENT:
	case XRAY_TYPED_EVENT:
		event(s, rec, raw);
		break;
	default:
		break;
	}
}

/* Decodes the records of [start, end); false when framing is lost. stop_at_end:
 * version 1, where EndOfBuffer closes the buffer and the rest is leftover. */
static bool walk_buffer(struct fdr_state *s, uint64_t start, uint64_t end, bool stop_at_end)
{
	uint64_t off = start;
	int64_t index = 0;
	while (off < end) {
		size_t avail;
		const uint8_t *p = tl_window_at(&s->win, off, XRAY_METADATA_SIZE, &avail);
		uint64_t left = end - off;
		size_t n = avail < left ? avail : (size_t)left;
		struct tl_cursor c;
		struct xray_record rec;
		rec.index = index++;
		tl_cursor_init(&c, p, n, off);
		enum xray_decode_status st = tl_xray_decode(&c, s->hdr, &rec);
		if (st == XRAY_SHORT && rec.size <= left)
			st = XRAY_DECODED;
		if (st != XRAY_DECODED) {
			flush(s->r, &s->p);
			dump_stop(s->r, "the record at offset %llu cannot be framed",
				  (unsigned long long)off);
			return false;
		}
		uint8_t raw[XRAY_METADATA_SIZE] = { 0 };
		memcpy(raw, p, n < sizeof raw ? n : sizeof raw);
		record(s, &rec, raw);
		off += rec.size;
		if (stop_at_end && rec.metadata && rec.kind == XRAY_END_OF_BUFFER)
			break;
	}
	return true;
}

static void walk_fdr(struct fdr_state *s)
{
	uint64_t size = s->r->in->size, off = XRAY_HEADER_SIZE;
	if (s->hdr->version == 1) {
		uint64_t stride = s->hdr->buffer_size;
		if (!stride) {
			if (off < size)
				dump_stop(s->r, "buffer_size is 0: the buffers cannot be framed");
			return;
		}
		for (; off < size; off = size - off > stride ? off + stride : size)
			if (!walk_buffer(s, off, size - off > stride ? off + stride : size, true))
				return;
		return;
	}
	while (off < size) {
		size_t avail;
		const uint8_t *p = tl_window_at(&s->win, off, XRAY_METADATA_SIZE, &avail);
		struct tl_cursor c;
		struct xray_record ext;
		ext.index = 0;
		tl_cursor_init(&c, p, avail < XRAY_METADATA_SIZE ? avail : XRAY_METADATA_SIZE, off);
		if (tl_xray_decode(&c, s->hdr, &ext) != XRAY_DECODED || !ext.metadata ||
		    ext.kind != XRAY_BUFFER_EXTENTS) {
			dump_stop(s->r, "no BufferExtents record at offset %llu: the rest cannot be framed",
				  (unsigned long long)off);
			return;
		}
		uint64_t body = off + XRAY_METADATA_SIZE;
		uint64_t end = ext.word > size - body ? size : body + ext.word;
		if (!walk_buffer(s, body, end, false))
			return;
		off = end;
	}
	flush(s->r, &s->p);
}

static void walk_basic(struct fdr_state *s)
{
	const bool big = s->hdr->big;
	uint64_t size = s->r->in->size;
	for (uint64_t off = XRAY_HEADER_SIZE; size - off >= XRAY_BASIC_RECORD_SIZE;
	     off += XRAY_BASIC_RECORD_SIZE) {
		size_t avail;
		const uint8_t *p = tl_window_at(&s->win, off, XRAY_BASIC_RECORD_SIZE, &avail);
		if (avail < XRAY_BASIC_RECORD_SIZE)
			break;
		uint64_t type = 0, cpu = 0, entry = 0, id = 0, tsc = 0, tid = 0, pid = 0, arg = 0;
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 0, 2, big, &type);
		if (type == 1) {
			/* an argument payload: the argument at byte 16, for the record before */
			(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 16, 8, big, &arg);
			if (s->p.open)
				add_arg(&s->p, arg);
			continue;
		}
		flush(s->r, &s->p);
		if (type != 0)
			continue;
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 2, 1, big, &cpu);
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 3, 1, big, &entry);
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 4, 4, big, &id);
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 8, 8, big, &tsc);
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 16, 4, big, &tid);
		(void)tl_read_uint_at(p, XRAY_BASIC_RECORD_SIZE, 20, 4, big, &pid);
		s->p = (struct pending){ true, (uint8_t)entry, (uint32_t)id, tsc, off, (uint16_t)cpu,
					 (int64_t)tid, (int64_t)pid, { 0 }, 0, 0 };
	}
	flush(s->r, &s->p);
	if ((size - XRAY_HEADER_SIZE) % XRAY_BASIC_RECORD_SIZE)
		dump_stop(s->r, "%llu bytes after the last whole record",
			  (unsigned long long)((size - XRAY_HEADER_SIZE) % XRAY_BASIC_RECORD_SIZE));
}

void tl_dump_xray(struct dump_run *r)
{
	struct xray_header hdr;
	struct tl_cursor c;
	if (r->in->size < XRAY_HEADER_SIZE) {
		dump_stop(r, "the file is shorter than the 32-byte header");
		return;
	}
	uint8_t h[XRAY_HEADER_SIZE];
	if (tl_input_read_at(r->in, 0, h, sizeof h) < sizeof h) {
		dump_stop(r, "the header cannot be read");
		return;
	}
	tl_cursor_init(&c, h, sizeof h, 0);
	if (!tl_xray_header_guess(c, &hdr)) {
		dump_stop(r, "the header names no known type and version in either byte order");
		return;
	}
	if (r->opts->endian == TL_ENDIAN_BIG || r->opts->endian == TL_ENDIAN_LITTLE) {
		bool big = r->opts->endian == TL_ENDIAN_BIG;
		if (big != hdr.big) {
			tl_cursor_init(&c, h, sizeof h, 0);
			uint16_t v = 0, t = 0;
			(void)tl_cursor_u16(&c, big, &v);
			(void)tl_cursor_u16(&c, big, &t);
			hdr.big = big;
			hdr.version = v;
			hdr.type = t;
		}
	}
	header_line(r, &hdr);
	struct fdr_state s;
	memset(&s, 0, sizeof s);
	s.r = r;
	s.hdr = &hdr;
	tl_window_open(&s.win, r->in, 0);
	if (hdr.type == XRAY_TYPE_FDR)
		walk_fdr(&s);
	else
		walk_basic(&s);
	flush(r, &s.p);
	tl_window_close(&s.win);
}
