/* A library callback with tl_options.context sees what the diagnostic is
 * about: the field's offset and size, the decoded record and the bytes
 * around it, taken from the input as validated, so the same for the file,
 * a gzip copy of it, a stream and a buffer; members of a trace directory
 * get their own bytes; without the option there is no context. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tracelint.h"

/* The first diagnostic's context, copied out of the callback. */
struct seen {
	unsigned count;
	const char *rule;        /* only this rule's diagnostics, or NULL for all */
	bool had_context;
	struct tl_diag_context context;
	uint64_t offset;
	char member[64];
	char record[256];
	uint8_t bytes[4096];
};

static void on_diag(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	if ((s->rule && strcmp(d->rule->id, s->rule) != 0) || s->count++)
		return;
	s->offset = d->loc.offset;
	snprintf(s->member, sizeof s->member, "%s", d->loc.member ? d->loc.member : "");
	s->had_context = d->context != NULL;
	if (!d->context)
		return;
	s->context = *d->context;
	ATF_REQUIRE(d->context->byte_count <= sizeof s->bytes);
	memcpy(s->bytes, d->context->bytes, d->context->byte_count);
	snprintf(s->record, sizeof s->record, "%s", d->context->record);
}

static void options(struct tl_options *o, struct seen *s, bool context)
{
	memset(s, 0, sizeof *s);
	tl_options_init(o);
	o->on_diag = on_diag;
	o->user = s;
	o->context = context;
}

static void validate(const char *path, struct seen *s, bool context)
{
	struct tl_options o;
	struct tl_result r;
	char err[512] = "";
	const char *rule = s->rule;
	options(&o, s, context);
	s->rule = rule;
	ATF_REQUIRE_EQ_MSG(tl_validate_path(path, &o, &r, err, sizeof err), TL_OK, "%s: %s", path, err);
	ATF_REQUIRE_MSG(s->count > 0, "%s: no diagnostic", path);
}

static char *corpus(const char *rel)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/corpus/%s", TL_SOURCE_DIR, rel);
	return path;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE_MSG(f != NULL, "%s", path);
	uint8_t *buf = malloc(1 << 20);
	ATF_REQUIRE(buf != NULL);
	*size = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void gzip_copy(const char *from, const char *to)
{
	size_t n;
	uint8_t *data = slurp(from, &n);
	gzFile z = gzopen(to, "wb");
	ATF_REQUIRE(z != NULL);
	ATF_REQUIRE_EQ(gzwrite(z, data, (unsigned)n), (int)n);
	ATF_REQUIRE_EQ(gzclose(z), Z_OK);
	free(data);
}

static void same_context(const struct seen *a, const struct seen *b)
{
	ATF_REQUIRE(a->had_context && b->had_context);
	ATF_CHECK_EQ(a->offset, b->offset);
	ATF_CHECK_EQ(a->context.field_offset, b->context.field_offset);
	ATF_CHECK_EQ(a->context.field_size, b->context.field_size);
	ATF_CHECK_EQ(a->context.bytes_offset, b->context.bytes_offset);
	ATF_CHECK_EQ(a->context.byte_count, b->context.byte_count);
	ATF_CHECK(memcmp(a->bytes, b->bytes, a->context.byte_count) == 0);
	ATF_CHECK_STREQ(a->record, b->record);
}

ATF_TC_WITHOUT_HEAD(xray_field_and_record);
ATF_TC_BODY(xray_field_and_record, tc)
{
	/* a CustomEventMarker at 112 whose size (4 bytes at 113) is -8 */
	const char *path = corpus("xray/invalid/event-size.xray");
	struct seen s = { .rule = "XRAY-FDR-EVENT-SIZE" };
	validate(path, &s, true);
	ATF_REQUIRE(s.had_context);
	ATF_CHECK_EQ(s.context.struct_size, sizeof(struct tl_diag_context));
	ATF_CHECK_EQ(s.offset, 113);
	ATF_CHECK_EQ(s.context.field_offset, 113);
	ATF_CHECK_EQ(s.context.field_size, 4);
	ATF_CHECK_STREQ(s.record, "record: kind=custom-event size=-8 tsc_delta=3");
	/* the 16-byte rows of the field: the file's bytes 112..143 */
	size_t n;
	uint8_t *file = slurp(path, &n);
	ATF_CHECK_EQ(s.context.bytes_offset, 112);
	ATF_CHECK_EQ(s.context.byte_count, 32);
	ATF_CHECK(memcmp(s.bytes, file + 112, 32) == 0);
	ATF_CHECK_EQ(s.bytes[1], 0xf8);
	free(file);
}

ATF_TC_WITHOUT_HEAD(compressed_stream_and_buffer_alike);
ATF_TC_BODY(compressed_stream_and_buffer_alike, tc)
{
	const char *path = corpus("xray/invalid/event-size.xray");
	struct seen plain = { .rule = "XRAY-FDR-EVENT-SIZE" }, other = plain;
	validate(path, &plain, true);
	gzip_copy(path, "t.xray.gz");
	validate("t.xray.gz", &other, true);
	same_context(&plain, &other);

	size_t n;
	uint8_t *data = slurp(path, &n);
	struct tl_options o;
	struct tl_result r;
	options(&o, &other, true);
	other.rule = "XRAY-FDR-EVENT-SIZE";
	ATF_REQUIRE_EQ(tl_validate_buffer(data, n, "t.xray", &o, &r, NULL, 0), TL_OK);
	same_context(&plain, &other);

	/* a stream of the format given validates in steps, reading its spool:
	 * the bytes are those that had arrived when the record was complete */
	options(&o, &other, true);
	other.rule = "XRAY-FDR-EVENT-SIZE";
	struct tl_stream *st = tl_stream_new(TL_FORMAT_XRAY, "t.xray", &o, NULL, 0);
	ATF_REQUIRE(st != NULL);
	for (size_t at = 0; at < n; at += 7)
		ATF_REQUIRE_EQ(tl_stream_feed(st, data + at, n - at < 7 ? n - at : 7), TL_OK);
	ATF_REQUIRE_EQ(tl_stream_finish(st, &r, NULL, 0), TL_OK);
	ATF_REQUIRE(other.had_context);
	ATF_CHECK_EQ(other.context.field_offset, plain.context.field_offset);
	ATF_CHECK_EQ(other.context.field_size, plain.context.field_size);
	ATF_CHECK_STREQ(other.record, plain.record);
	ATF_CHECK_EQ(other.context.bytes_offset, plain.context.bytes_offset);
	ATF_CHECK(other.context.byte_count > other.context.field_offset + other.context.field_size -
						   other.context.bytes_offset);
	ATF_CHECK(other.context.byte_count <= plain.context.byte_count);
	ATF_CHECK(memcmp(other.bytes, plain.bytes, other.context.byte_count) == 0);
	free(data);
}

ATF_TC_WITHOUT_HEAD(tfile_block);
ATF_TC_BODY(tfile_block, tc)
{
	struct seen plain = { .rule = "TFILE-BLOCK-M-WRAP" }, gz = plain;
	validate(corpus("tfile/invalid/block-m-wrap.tf"), &plain, true);
	ATF_REQUIRE(plain.had_context);
	ATF_CHECK_MSG(strncmp(plain.record, "block: type=M address=0x", 24) == 0, "%s", plain.record);
	/* the marker spans M's address and length, 10 bytes after its type */
	ATF_CHECK_EQ(plain.context.field_offset, plain.offset + 1);
	ATF_CHECK_EQ(plain.context.field_size, 10);
	gzip_copy(corpus("tfile/invalid/block-m-wrap.tf"), "t.tf.gz");
	validate("t.tf.gz", &gz, true);
	same_context(&plain, &gz);
}

ATF_TC_WITHOUT_HEAD(member_bytes);
ATF_TC_BODY(member_bytes, tc)
{
	/* a row of ins.itable in a trace directory: that member's bytes */
	const char *dir = corpus("umtrace/invalid/ins-address-32bit");
	struct seen s = { .rule = "UMT-INS-ADDR32" };
	validate(dir, &s, true);
	ATF_REQUIRE(s.had_context);
	ATF_CHECK_STREQ(s.member, "ins.itable");
	ATF_CHECK_MSG(strncmp(s.record, "insRec ", 7) == 0, "%s", s.record);
	char member[4200];
	snprintf(member, sizeof member, "%s/ins.itable", dir);
	size_t n;
	uint8_t *file = slurp(member, &n);
	ATF_REQUIRE(s.context.bytes_offset + s.context.byte_count <= n);
	ATF_CHECK(s.context.byte_count > 0);
	ATF_CHECK(memcmp(s.bytes, file + s.context.bytes_offset, s.context.byte_count) == 0);
	free(file);
}

ATF_TC_WITHOUT_HEAD(text_line);
ATF_TC_BODY(text_line, tc)
{
	/* a JSON diagnostic: its line, from its first byte to its end */
	const char *path = corpus("dcfg/invalid/dcfg_block_cells.dcfg.json");
	struct seen s = { .rule = NULL };
	validate(path, &s, true);
	ATF_REQUIRE(s.had_context);
	size_t n;
	uint8_t *file = slurp(path, &n);
	ATF_REQUIRE(s.context.byte_count > 0);
	ATF_CHECK(s.context.bytes_offset == 0 || file[s.context.bytes_offset - 1] == '\n');
	ATF_CHECK(s.context.bytes_offset <= s.offset);
	ATF_CHECK(memcmp(s.bytes, file + s.context.bytes_offset, s.context.byte_count) == 0);
	ATF_CHECK(memchr(s.bytes, '\n', s.context.byte_count) == NULL);
	uint64_t end = s.context.bytes_offset + s.context.byte_count;
	ATF_CHECK(end == n || file[end] == '\n' || file[end] == '\r');
	ATF_CHECK_STREQ(s.record, "");
	ATF_CHECK_EQ(s.context.field_offset, s.offset);
	ATF_CHECK_EQ(s.context.field_size, 1);
	free(file);
}

ATF_TC_WITHOUT_HEAD(none_unless_asked);
ATF_TC_BODY(none_unless_asked, tc)
{
	struct seen s = { .rule = NULL };
	validate(corpus("xray/invalid/event-size.xray"), &s, false);
	ATF_CHECK(!s.had_context);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, xray_field_and_record);
	ATF_TP_ADD_TC(tp, compressed_stream_and_buffer_alike);
	ATF_TP_ADD_TC(tp, tfile_block);
	ATF_TP_ADD_TC(tp, member_bytes);
	ATF_TP_ADD_TC(tp, text_line);
	ATF_TP_ADD_TC(tp, none_unless_asked);
	return atf_no_error();
}
