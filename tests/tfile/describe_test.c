/* The tfile describe hook (the text context's marked field and decoded frame
 * or block) on what the corpus does not show: both byte orders chosen from
 * the frame chain, every block kind under a block diagnostic, frames and
 * blocks cut by the end of the file, and offsets it cannot place. */
#include <atf-c.h>

#include <string.h>

#include "validators/tfile/tfile.h"

#include "tests/support/read_back.h"

#define START 13 /* frames start after "\x7fTRACE0\n" "R 8\n" "\n" */

struct trace {
	uint8_t p[256];
	size_t n;
	bool big;
};

static void put(struct trace *t, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		t->p[t->n++] = (uint8_t)(v >> (8 * (t->big ? width - 1 - i : i)));
}

static void begin(struct trace *t, bool big)
{
	memset(t, 0, sizeof *t);
	t->big = big;
	memcpy(t->p, "\x7fTRACE0\nR 8\n\n", START);
	t->n = START;
}

/* One frame of tracepoint 1 holding an M block of address 0x1000 and no
 * bytes, then a V block of variable 7 and value -2, then the end marker. */
static void one_frame(struct trace *t, bool big)
{
	begin(t, big);
	put(t, 1, 2);
	put(t, 11 + 13, 4);
	t->p[t->n++] = 'M';
	put(t, 0x1000, 8);
	put(t, 0, 2);
	t->p[t->n++] = 'V';
	put(t, 7, 4);
	put(t, (uint64_t)-2, 8);
	put(t, 0, 2);
	put(t, 0, 4);
}

static struct tl_field_view describe(const struct trace *t, size_t n, const char *id, uint64_t off)
{
	return describe_with(tl_tfile_describe, t->p, n, id, NULL, off, -1);
}

ATF_TC_WITHOUT_HEAD(frame_fields_both_orders);
ATF_TC_BODY(frame_fields_both_orders, tc)
{
	struct trace t;
	for (int big = 0; big <= 1; big++) {
		one_frame(&t, big);
		struct tl_field_view v = describe(&t, t.n, "TFILE-FRAME-SIZE", START);
		ATF_CHECK_EQ(v.offset, START + 2u);
		ATF_CHECK_EQ(v.width, 4u);
		ATF_CHECK_STREQ_MSG(v.fields, "frame: tpnum=1 size=24", "big %d", big);
	}
}

ATF_TC_WITHOUT_HEAD(block_overrun_spans_the_block_header);
ATF_TC_BODY(block_overrun_spans_the_block_header, tc)
{
	struct trace t;
	one_frame(&t, true);
	struct tl_field_view v = describe(&t, t.n, "TFILE-BLOCK-OVERRUN", START + 6);
	ATF_CHECK_EQ(v.width, 11u);
	ATF_CHECK_STREQ(v.fields, "block: type=M address=0x1000 length=0");
	v = describe(&t, t.n, "TFILE-BLOCK-OVERRUN", START + 17);
	ATF_CHECK_EQ(v.width, 13u);
	ATF_CHECK_STREQ(v.fields, "block: type=V number=7 value=-2");
	/* other block types: the type byte only, named with or without its
	 * character */
	t.p[START + 17] = 'X';
	v = describe(&t, t.n, "TFILE-BLOCK-OVERRUN", START + 17);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK_STREQ(v.fields, "block: type=0x58 ('X', not R, M or V)");
	t.p[START + 17] = 0x01;
	v = describe(&t, t.n, "TFILE-BLOCK-TYPE", START + 17);
	ATF_CHECK_STREQ(v.fields, "block: type=0x01 (not R, M or V)");
	t.p[START + 17] = 'R';
	v = describe(&t, t.n, "TFILE-BLOCK-R-REPEATED", START + 17);
	ATF_CHECK_STREQ(v.fields, "block: type=R");
}

ATF_TC_WITHOUT_HEAD(cut_by_the_end_of_the_file);
ATF_TC_BODY(cut_by_the_end_of_the_file, tc)
{
	/* An M block whose address is cut: the marker stops at the end of the
	 * file and only the type is named. */
	struct trace t;
	one_frame(&t, false);
	size_t n = START + 6 + 5;
	struct tl_field_view v = describe(&t, n, "TFILE-BLOCK-M-WRAP", START + 6);
	ATF_CHECK_EQ(v.offset, START + 7u);
	ATF_CHECK_EQ(v.width, 4u);
	ATF_CHECK_STREQ(v.fields, "block: type=M");

	/* A frame header of 3 bytes at the end: the tracepoint number, cut */
	begin(&t, false);
	put(&t, 5, 2);
	t.p[t.n++] = 0;
	v = describe(&t, t.n, "TFILE-FRAME-HEADER", START);
	ATF_CHECK_EQ(v.width, 3u);
	ATF_CHECK_STREQ(v.fields, "frame: tpnum=5 (header cut)");
	/* and of 1 byte: no number at all */
	v = describe(&t, START + 1, "TFILE-FRAME-HEADER", START);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK_STREQ(v.fields, "");
}

ATF_TC_WITHOUT_HEAD(offsets_it_cannot_place);
ATF_TC_BODY(offsets_it_cannot_place, tc)
{
	struct trace t;
	one_frame(&t, false);
	/* not the start of a frame in either order */
	struct tl_field_view v = describe(&t, t.n, "TFILE-FRAME-TPNUM", START + 1);
	ATF_CHECK_EQ(v.offset, START + 1u);
	ATF_CHECK_EQ(v.width, 2u);
	ATF_CHECK_STREQ(v.fields, "");
	/* inside the description */
	v = describe(&t, t.n, "TFILE-FRAME-TPNUM", 9);
	ATF_CHECK_STREQ(v.fields, "");
	/* a description that never ends: no frames to find */
	memset(t.p + 11, 'x', 2);
	v = describe(&t, t.n, "TFILE-FRAME-TPNUM", START);
	ATF_CHECK_STREQ(v.fields, "");
	/* rules about neither frames nor blocks keep the writer's view */
	v = describe(&t, t.n, "TFILE-END-TRAILING", START);
	ATF_CHECK_EQ(v.width, 1u);
	ATF_CHECK_STREQ(v.fields, "");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, frame_fields_both_orders);
	ATF_TP_ADD_TC(tp, block_overrun_spans_the_block_header);
	ATF_TP_ADD_TC(tp, cut_by_the_end_of_the_file);
	ATF_TP_ADD_TC(tp, offsets_it_cannot_place);
	return 0;
}
