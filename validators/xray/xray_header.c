/* The 32-byte XRay file header: byte order, type, version, flags, cycle
 * frequency and (FDR) buffer size. */
#include "xray.h"

#include <inttypes.h>

#define MIN_PLAUSIBLE_HZ 1000u
#define MAX_PLAUSIBLE_HZ UINT64_C(100000000000)
#define MIN_BUFFER_SIZE 64u

static bool fields_make_sense(uint16_t version, uint16_t type)
{
	if (type == XRAY_TYPE_FDR)
		return version >= 1 && version <= 5;
	return type == XRAY_TYPE_BASIC && version >= 1 && version <= 3;
}

static void read_fields(struct tl_cursor c, bool big, struct xray_header *hdr)
{
	hdr->big = big;
	/* The caller made sure 32 bytes are there, so these reads cannot fail. */
	(void)tl_cursor_u16(&c, big, &hdr->version);
	(void)tl_cursor_u16(&c, big, &hdr->type);
	(void)tl_cursor_u32(&c, big, &hdr->flags);
	(void)tl_cursor_u64(&c, big, &hdr->cycle_frequency);
	(void)tl_cursor_u64(&c, big, &hdr->buffer_size);
}

bool tl_xray_header_guess(struct tl_cursor c, struct xray_header *hdr)
{
	read_fields(c, false, hdr);
	if (fields_make_sense(hdr->version, hdr->type))
		return true;
	struct xray_header other;
	read_fields(c, true, &other);
	if (!fields_make_sense(other.version, other.type))
		return false;
	*hdr = other;
	return true;
}

/* true: the order was detected (a header that makes sense in neither order is
 * read little-endian, and reported by the checks that follow). */
static bool choose_order(struct tl_ctx *ctx, struct tl_cursor c, struct xray_header *hdr)
{
	enum tl_endian forced = ctx->opts->endian;
	if (forced != TL_ENDIAN_AUTO) {
		read_fields(c, forced == TL_ENDIAN_BIG, hdr);
		return false;
	}
	(void)tl_xray_header_guess(c, hdr);
	return true;
}

static bool check_type_and_version(struct tl_ctx *ctx, const struct xray_header *hdr)
{
	struct tl_location at_type = tl_at(2), at_version = tl_at(0);
	if (hdr->type != XRAY_TYPE_FDR && hdr->type != XRAY_TYPE_BASIC) {
		tl_report(ctx, RULE_XRAY_HEADER_TYPE, &at_type,
			  MSG_XRAY_HEADER_TYPE,
			  (unsigned)hdr->type, hdr->big ? "big" : "little");
		return false;
	}
	unsigned max = hdr->type == XRAY_TYPE_FDR ? 5 : 3;
	if (hdr->version < 1 || hdr->version > max) {
		tl_report(ctx, RULE_XRAY_HEADER_VERSION, &at_version,
			  MSG_XRAY_HEADER_VERSION, max,
			  hdr->type == XRAY_TYPE_FDR ? "an FDR" : "a basic-mode", (unsigned)hdr->version);
		return false;
	}
	return true;
}

static void check_frequency(struct tl_ctx *ctx, const struct xray_header *hdr)
{
	struct tl_location at = tl_at(8);
	if (hdr->cycle_frequency == 0)
		tl_report(ctx, RULE_XRAY_HEADER_CYCLE_FREQUENCY, &at,
			  MSG_XRAY_HEADER_CYCLE_FREQUENCY);
	else if (hdr->cycle_frequency < MIN_PLAUSIBLE_HZ || hdr->cycle_frequency > MAX_PLAUSIBLE_HZ)
		tl_report(ctx, RULE_XRAY_HEADER_CYCLE_RANGE, &at,
			  MSG_XRAY_HEADER_CYCLE_RANGE,
			  hdr->cycle_frequency);
}

bool tl_xray_header_read(struct tl_ctx *ctx, const struct tl_input *in, struct xray_header *hdr)
{
	/* read, not mapped: a stream's input has only a file to read from */
	uint8_t head[XRAY_HEADER_SIZE];
	struct tl_cursor c;
	tl_cursor_init(&c, head, tl_input_read_at(in, 0, head, sizeof head), 0);
	if (tl_cursor_left(&c) < XRAY_HEADER_SIZE) {
		struct tl_location at = tl_at(0);
		tl_report(ctx, RULE_XRAY_HEADER_SIZE, &at,
			  MSG_XRAY_HEADER_SIZE,
			  tl_cursor_left(&c));
		tl_set_detail(ctx, "records not read: no header");
		return false;
	}
	bool detected = choose_order(ctx, c, hdr);
	tl_set_detail(ctx, "%s-endian (%s)", hdr->big ? "big" : "little",
		      detected ? "detected" : "forced");
	if (!check_type_and_version(ctx, hdr))
		return false;
	tl_set_detail(ctx, "%s version %u, %s-endian (%s)",
		      hdr->type == XRAY_TYPE_FDR ? "FDR" : "basic mode", (unsigned)hdr->version,
		      hdr->big ? "big" : "little", detected ? "detected" : "forced");
	check_frequency(ctx, hdr);
	if (hdr->type != XRAY_TYPE_FDR)
		return true; /* basic writers leave flags and bytes 16..31 uninitialised */
	if (hdr->flags & ~UINT32_C(3)) {
		struct tl_location at = tl_at(4);
		tl_report(ctx, RULE_XRAY_HEADER_FLAGS, &at,
			  MSG_XRAY_HEADER_FLAGS,
			  hdr->flags);
	}
	if (hdr->buffer_size < MIN_BUFFER_SIZE) {
		struct tl_location at = tl_at(16);
		tl_report(ctx, RULE_XRAY_HEADER_BUFFER_SIZE, &at,
			  MSG_XRAY_HEADER_BUFFER_SIZE,
			  MIN_BUFFER_SIZE, hdr->buffer_size);
		return false;
	}
	return true;
}
