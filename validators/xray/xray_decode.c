/* The FDR record decoder: turns the bytes at a cursor into one typed record
 * (after LLVM's record producer). It judges nothing but the framing; the
 * rule-group checkers judge the fields. */
#include "xray.h"

#include <string.h>

/* The field of width bytes at byte pos of a 16-byte metadata record, as it
 * is or sign-extended. */
static uint64_t field(const uint8_t *p, size_t pos, size_t width, bool big)
{
	uint64_t v = 0;
	(void)tl_read_uint_at(p, XRAY_METADATA_SIZE, pos, width, big, &v);
	return v;
}

static int64_t field_s(const uint8_t *p, size_t pos, size_t width, bool big)
{
	int64_t v = 0;
	(void)tl_read_int_at(p, XRAY_METADATA_SIZE, pos, width, big, &v);
	return v;
}

static void decode_function(const struct tl_cursor *c, bool big, struct xray_record *rec)
{
	struct tl_cursor r = *c;
	uint32_t word = 0, delta = 0;
	/* the caller checked the 8 bytes are there */
	(void)tl_cursor_u32(&r, big, &word);
	(void)tl_cursor_u32(&r, big, &delta);
	rec->action = (uint8_t)xray_word_action(word, big);
	rec->function_id = xray_word_function_id(word, big);
	rec->tsc_delta = delta;
}

/* Fills the fields of a metadata record whose 16 bytes are at p; returns the
 * event payload size (0 for other kinds, -1 for a negative size). */
static int64_t decode_metadata(const uint8_t *p, const struct xray_header *hdr,
			       struct xray_record *rec)
{
	bool big = hdr->big;
	switch (rec->kind) {
	case XRAY_NEW_BUFFER:
	case XRAY_PID:
		rec->value = field_s(p, 1, 4, big);
		return 0;
	case XRAY_NEW_CPU:
		rec->value = (int64_t)field(p, 1, 2, big);
		rec->tsc = field(p, 3, 8, big);
		return 0;
	case XRAY_TSC_WRAP:
		rec->tsc = field(p, 1, 8, big);
		return 0;
	case XRAY_WALLCLOCK:
		rec->value = field_s(p, 1, 8, big);
		rec->micros = field_s(p, 9, 4, big);
		return 0;
	case XRAY_CALL_ARGUMENT:
	case XRAY_BUFFER_EXTENTS:
		rec->word = field(p, 1, 8, big);
		return 0;
	case XRAY_CUSTOM_EVENT:
	case XRAY_TYPED_EVENT:
		rec->value = field_s(p, 1, 4, big);
		/* Version 5 events carry a delta; earlier ones an absolute TSC that
		 * the LLVM 7 (v3) writer stored through a wrong pointer, so it is garbage. */
		if (hdr->version >= 5) {
			rec->event_delta = (int32_t)field_s(p, 5, 4, big);
			rec->has_event_delta = true;
		}
		return rec->value < 0 ? -1 : rec->value;
	default:
		return 0;
	}
}

enum xray_decode_status tl_xray_decode(const struct tl_cursor *c, const struct xray_header *hdr,
				    struct xray_record *rec)
{
	int64_t index = rec->index;
	memset(rec, 0, sizeof *rec);
	rec->index = index;
	rec->offset = tl_cursor_offset(c);
	uint8_t first = 0;
	(void)tl_cursor_peek_u8(c, &first);
	rec->metadata = xray_first_is_metadata(first, hdr->big);
	if (!rec->metadata) {
		rec->size = XRAY_FUNCTION_SIZE;
		if (tl_cursor_left(c) < XRAY_FUNCTION_SIZE)
			return XRAY_SHORT;
		decode_function(c, hdr->big, rec);
		return XRAY_DECODED;
	}
	rec->kind = (uint8_t)xray_first_kind(first, hdr->big);
	rec->size = XRAY_METADATA_SIZE;
	struct tl_cursor r = *c;
	const uint8_t *p;
	if (!tl_cursor_bytes(&r, XRAY_METADATA_SIZE, &p))
		return XRAY_SHORT;
	int64_t payload = decode_metadata(p, hdr, rec);
	if (payload < 0)
		return XRAY_NEGATIVE_EVENT;
	rec->size += (uint64_t)payload;
	return tl_cursor_left(&r) < (uint64_t)payload ? XRAY_SHORT : XRAY_DECODED;
}
