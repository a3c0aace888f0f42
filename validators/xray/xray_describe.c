/* The text context of an XRay diagnostic: the field it is about (the whole
 * field, so the marker spans e.g. the 8 bytes of a TSC) and the decoded
 * fields of its header or record. Reads the input as the diagnostic is reported and
 * reports nothing; the byte order is chosen from the header as
 * --endian=auto does. */
#include "format.h"
#include "xray.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Where the checkers put the location of a rule about a record (bytes past
 * the record's start) and how wide the field they mean is; 0 = the whole
 * record. Rules not listed point at the record's start and mean all of it.
 * Grouped by field: kind bytes, function ID, TSC delta, then the metadata
 * payloads (thread ID and event sizes, extents, wallclock micros). */
static const struct tl_rule_field fdr_fields[] = {
	{ "XRAY-FDR-METADATA-KIND", 0, 1 }, { "XRAY-FDR-KIND-VERSION", 0, 1 },
	{ "XRAY-FDR-FUNCTION-ACTION", 0, 1 },
	{ "XRAY-FUNCTION-ID-ZERO", 0, 4 }, { "XRAY-FUNCTION-ID-UNDEFINED", 0, 4 },
	{ "XRAY-FDR-TSC-DELTA-RANGE", 4, 4 },
	{ "XRAY-FDR-THREAD-ID", 1, 4 }, { "XRAY-FDR-EVENT-SIZE", 1, 4 }, { "XRAY-FDR-EVENT-EMPTY", 1, 4 },
	{ "XRAY-FDR-EXTENTS-CAPACITY", 1, 8 }, { "XRAY-FDR-EXTENTS-EOF", 1, 8 },
	{ "XRAY-FDR-EXTENTS-EMPTY", 1, 8 },
	{ "XRAY-FDR-WALLCLOCK-MICROS", 9, 4 },
};

static const char *const kind_words[XRAY_KIND_COUNT] = {
	"new-buffer", "end-of-buffer", "new-cpu-id", "tsc-wrap", "wallclock-time",
	"custom-event", "call-argument", "buffer-extents", "typed-event", "pid",
};

static const char *const action_words[8] = {
	"function-entry", "function-exit", "function-tail-exit", "function-entry-args",
	"function-action-4", "function-action-5", "function-action-6", "function-action-7",
};

static const char *const entry_words[4] = { "entry", "exit", "tail-exit", "entry-args" };

static bool header_of(tl_read_back_fn read, void *file, struct xray_header *hdr)
{
	uint8_t h[XRAY_HEADER_SIZE];
	if (read(file, 0, h, sizeof h) < sizeof h)
		return false;
	struct tl_cursor c;
	tl_cursor_init(&c, h, sizeof h, 0);
	return tl_xray_header_guess(c, hdr);
}

static void describe_header(const struct xray_header *hdr, uint64_t off,
			    struct tl_field_view *view)
{
	static const uint8_t starts[] = { 0, 2, 4, 8, 16 }, widths[] = { 2, 2, 4, 8, 8 };
	for (size_t i = sizeof starts; i-- > 0;) {
		if (off >= starts[i]) {
			view->offset = starts[i];
			view->width = widths[i];
			break;
		}
	}
	int n = snprintf(view->fields, sizeof view->fields,
			 "header: version=%u type=%s flags=0x%" PRIx32 " cycle_frequency=%" PRIu64,
			 hdr->version, hdr->type == XRAY_TYPE_FDR ? "fdr" : "basic", hdr->flags,
			 hdr->cycle_frequency);
	/* basic-mode writers leave the last 16 bytes uninitialised */
	if (hdr->type == XRAY_TYPE_FDR && n > 0 && (size_t)n < sizeof view->fields)
		snprintf(view->fields + n, sizeof view->fields - (size_t)n, " buffer_size=%" PRIu64,
			 hdr->buffer_size);
}

static void fdr_fields_line(const struct xray_header *hdr, const struct xray_record *r,
			    char *out, size_t len)
{
	if (!r->metadata) {
		snprintf(out, len, "record: kind=%s func=%" PRIu32 " tsc_delta=%" PRIu32,
			 action_words[r->action & 7], r->function_id, r->tsc_delta);
		return;
	}
	if (r->kind >= XRAY_KIND_COUNT) {
		snprintf(out, len, "record: kind=metadata-%u (undefined)", r->kind);
		return;
	}
	int n = snprintf(out, len, "record: kind=%s", kind_words[r->kind]);
	if (n < 0 || (size_t)n >= len)
		return;
	out += n;
	len -= (size_t)n;
	switch (r->kind) {
	case XRAY_NEW_BUFFER: snprintf(out, len, " tid=%" PRId64, r->value); break;
	case XRAY_PID: snprintf(out, len, " pid=%" PRId64, r->value); break;
	case XRAY_NEW_CPU:
		snprintf(out, len, " cpu=%" PRId64 " tsc=%" PRIu64, r->value, r->tsc);
		break;
	case XRAY_TSC_WRAP: snprintf(out, len, " tsc=%" PRIu64, r->tsc); break;
	case XRAY_WALLCLOCK:
		snprintf(out, len, " seconds=%" PRId64 " micros=%" PRId64, r->value, r->micros);
		break;
	case XRAY_CALL_ARGUMENT: snprintf(out, len, " arg=%" PRIu64, r->word); break;
	case XRAY_BUFFER_EXTENTS: snprintf(out, len, " bytes=%" PRIu64, r->word); break;
	case XRAY_CUSTOM_EVENT:
	case XRAY_TYPED_EVENT:
		if (hdr->version >= 5)
			snprintf(out, len, " size=%" PRId64 " tsc_delta=%" PRId32, r->value,
				 r->event_delta);
		else
			snprintf(out, len, " size=%" PRId64, r->value);
		break;
	default: break;
	}
}

/* The TSC a rule about time means: NewCPUId's and TSCWrap's absolute one,
 * a function record's delta. */
static void tsc_field(const struct xray_record *r, struct tl_field_view *view)
{
	if (!r->metadata) {
		view->offset = r->offset + 4;
		view->width = 4;
	} else if (r->kind == XRAY_NEW_CPU || r->kind == XRAY_TSC_WRAP) {
		view->offset = r->offset + (r->kind == XRAY_NEW_CPU ? 3 : 1);
		view->width = 8;
	}
}

static void describe_fdr(const struct tl_diagnostic *d, const struct xray_header *hdr,
			 tl_read_back_fn read, void *file, struct tl_field_view *view)
{
	const struct tl_rule_field *f =
		tl_rule_field(fdr_fields, sizeof fdr_fields / sizeof fdr_fields[0], d->rule->id);
	uint64_t off = d->loc.offset;
	if (f && off < XRAY_HEADER_SIZE + f->at)
		return;
	uint64_t start = f ? off - f->at : off;
	uint8_t bytes[XRAY_METADATA_SIZE];
	size_t n = read(file, start, bytes, sizeof bytes);
	struct tl_cursor c;
	tl_cursor_init(&c, bytes, n, start);
	struct xray_record r = { .index = d->loc.record };
	uint64_t size = XRAY_FUNCTION_SIZE;
	if (n > 0) {
		bool metadata = xray_first_is_metadata(bytes[0], hdr->big);
		size = metadata ? XRAY_METADATA_SIZE : XRAY_FUNCTION_SIZE;
	}
	if (n < size)
		return; /* a cut record: only its byte is marked */
	(void)tl_xray_decode(&c, hdr, &r); /* fields are filled even for short events */
	view->offset = f ? start + f->at : start;
	view->width = f && f->width ? f->width : size;
	if (strcmp(d->rule->id, "XRAY-FDR-TSC-BACKWARDS") == 0)
		tsc_field(&r, view);
	fdr_fields_line(hdr, &r, view->fields, sizeof view->fields);
}

/* Basic mode: 32-byte records, so the field follows from the offset. */
static void describe_basic(const struct tl_diagnostic *d, const struct xray_header *hdr,
			   tl_read_back_fn read, void *file, struct tl_field_view *view)
{
	uint64_t off = d->loc.offset;
	uint64_t start = off - (off - XRAY_HEADER_SIZE) % XRAY_BASIC_RECORD_SIZE;
	uint8_t b[XRAY_BASIC_RECORD_SIZE];
	if (read(file, start, b, sizeof b) < sizeof b)
		return;
	bool big = hdr->big;
	struct tl_cursor c;
	uint16_t type = 0;
	tl_cursor_init(&c, b, sizeof b, start);
	(void)tl_cursor_u16(&c, big, &type);
	static const uint8_t fn_at[] = { 0, 2, 3, 4, 8, 16, 20, 24 }, fn_w[] = { 2, 1, 1, 4, 8, 4, 4, 8 };
	static const uint8_t arg_at[] = { 0, 2, 4, 8, 12, 16, 24 }, arg_w[] = { 2, 2, 4, 4, 4, 8, 8 };
	bool fn = type == 0;
	const uint8_t *at = fn ? fn_at : arg_at, *w = fn ? fn_w : arg_w;
	size_t count = fn ? sizeof fn_at : sizeof arg_at;
	uint64_t rel = off - start;
	for (size_t i = count; i-- > 0;) {
		if (rel >= at[i]) {
			view->offset = start + at[i];
			view->width = rel == 0 && at[i] == 0 && strcmp(d->rule->id, "XRAY-BASIC-RECORD-TYPE")
					      ? XRAY_BASIC_RECORD_SIZE : w[i];
			break;
		}
	}
	uint64_t v[1] = { 0 };
	if (fn) {
		uint8_t cpu = b[2], entry = b[3];
		tl_cursor_init(&c, b + 4, 20, start + 4);
		uint32_t id = 0, tid = 0, pid = 0;
		/* 20 bytes are there: these reads cannot fail */
		(void)tl_cursor_u32(&c, big, &id);
		(void)tl_cursor_u64(&c, big, &v[0]);
		(void)tl_cursor_u32(&c, big, &tid);
		(void)tl_cursor_u32(&c, big, &pid);
		snprintf(view->fields, sizeof view->fields,
			 "record: type=function cpu=%u entry=%s func=%" PRId32 " tsc=%" PRIu64
			 " tid=%" PRIu32 " pid=%" PRIu32, cpu,
			 entry < 4 ? entry_words[entry] : "undefined", (int32_t)id, v[0], tid, pid);
	} else if (type == 1) {
		uint32_t id = 0, tid = 0, pid = 0;
		tl_cursor_init(&c, b + 4, 20, start + 4);
		(void)tl_cursor_u32(&c, big, &id);
		(void)tl_cursor_u32(&c, big, &tid);
		(void)tl_cursor_u32(&c, big, &pid);
		(void)tl_cursor_u64(&c, big, &v[0]);
		snprintf(view->fields, sizeof view->fields,
			 "record: type=argument func=%" PRId32 " tid=%" PRIu32 " pid=%" PRIu32
			 " arg=%" PRIu64, (int32_t)id, tid, pid, v[0]);
	} else {
		snprintf(view->fields, sizeof view->fields, "record: type=%u (undefined)", type);
	}
}

void tl_xray_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
		      struct tl_field_view *view)
{
	struct xray_header hdr;
	if (!header_of(read, file, &hdr))
		return;
	if (d->loc.offset < XRAY_HEADER_SIZE) {
		describe_header(&hdr, d->loc.offset, view);
		return;
	}
	/* past the header only records have a record index; EOF fragments and
	 * strides do not, and are marked as they are */
	if (d->loc.record < 0)
		return;
	/* a buffer that does not start with its extents: the offset is not known
	 * to start a record, so only its byte is marked */
	if (strcmp(d->rule->id, "XRAY-FDR-EXTENTS-MISSING") == 0)
		return;
	if (hdr.type == XRAY_TYPE_FDR)
		describe_fdr(d, &hdr, read, file, view);
	else
		describe_basic(d, &hdr, read, file, view);
}
