/* The blocks of a tfile frame, case by case: blocks cut by the end of their
 * frame inside their own header, repeated findings reported once per file,
 * and addresses past 2^32 on a 32-bit target. Each case validates a trace
 * with one or two frames and checks every diagnostic, rule and offset. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>

#include "tracelint.h"

struct seen {
	int count;
	char rules[8][48];
	uint64_t offsets[8];
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	if (s->count < 8) {
		snprintf(s->rules[s->count], sizeof s->rules[0], "%s", d->rule->id);
		s->offsets[s->count] = d->loc.offset;
	}
	s->count++;
}

struct trace {
	uint8_t p[1024];
	size_t n;
	size_t frame; /* where the frame being written starts */
};

static void put(struct trace *t, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		t->p[t->n++] = (uint8_t)(v >> (8 * i));
}

static void bytes(struct trace *t, const void *p, size_t n)
{
	memcpy(t->p + t->n, p, n);
	t->n += n;
}

/* The header and description of a trace of `frames` frames: registers of
 * 16 bytes, one tracepoint, one variable, and the tdesc of arch when it is
 * not NULL. */
static void begin(struct trace *t, const char *arch, int frames)
{
	char d[512];
	int n = snprintf(d, sizeof d,
			 "\x7fTRACE0\nR 10\nstatus 0;tstop::0;tframes:%d\ntsv 1:0:0:68697473\n"
			 "tp T1:401000:E:0:0\n%s%s%s\n",
			 frames, arch ? "tdesc <target><architecture>" : "", arch ? arch : "",
			 arch ? "</architecture></target>\n" : "");
	ATF_REQUIRE(n > 0 && (size_t)n < sizeof d);
	t->n = 0;
	bytes(t, d, (size_t)n);
}

static void frame_begin(struct trace *t)
{
	t->frame = t->n;
	put(t, 1, 2);
	put(t, 0, 4); /* size, set by frame_end */
}

static void frame_end(struct trace *t)
{
	uint64_t size = t->n - t->frame - 6;
	for (int i = 0; i < 4; i++)
		t->p[t->frame + 2 + (size_t)i] = (uint8_t)(size >> (8 * i));
}

static uint64_t block_m(struct trace *t, uint64_t address, uint16_t length)
{
	uint64_t at = t->n;
	t->p[t->n++] = 'M';
	put(t, address, 8);
	put(t, length, 2);
	memset(t->p + t->n, 0xab, length);
	t->n += length;
	return at;
}

static uint64_t block_r(struct trace *t)
{
	uint64_t at = t->n;
	t->p[t->n++] = 'R';
	memset(t->p + t->n, 0, 16);
	t->n += 16;
	return at;
}

/* Validates t (little-endian, so no guess is reported) into s. */
static void validate(struct trace *t, struct seen *s)
{
	put(t, 0, 2); /* end marker and tsave's padding */
	put(t, 0, 4);
	struct tl_options opts;
	tl_options_init(&opts);
	opts.format = TL_FORMAT_TFILE;
	opts.endian = TL_ENDIAN_LITTLE;
	opts.on_diag = collect;
	memset(s, 0, sizeof *s);
	opts.user = s;
	struct tl_result result;
	ATF_REQUIRE_EQ(tl_validate_buffer(t->p, t->n, "t.tf", &opts, &result, NULL, 0), TL_OK);
}

static void expect(const struct seen *s, int count, const char *const *rules, const uint64_t *offsets)
{
	ATF_REQUIRE_EQ_MSG(s->count, count, "%d diagnostics, first %s at %llu", s->count,
			   s->count ? s->rules[0] : "-", s->count ? (unsigned long long)s->offsets[0] : 0);
	for (int i = 0; i < count; i++) {
		ATF_CHECK_STREQ(s->rules[i], rules[i]);
		ATF_CHECK_EQ_MSG(s->offsets[i], offsets[i], "diagnostic %d", i);
	}
}

ATF_TC_WITHOUT_HEAD(block_header_cut_by_the_frame);
ATF_TC_BODY(block_header_cut_by_the_frame, tc)
{
	/* An M block whose frame ends inside its address, inside its length,
	 * a V block whose frame ends inside its number and inside its value, an R
	 * block longer than what is left: each one BLOCK-OVERRUN at the block. */
	static const uint8_t cuts[][8] = { { 'M', 1, 2, 3, 4, 5 },
					   { 'M', 0, 0x10, 0, 0, 0, 0, 0 },
					   { 'V', 1, 0 },
					   { 'V', 1, 0, 0, 0, 9, 9, 9 },
					   { 'R', 1, 2, 3, 4, 5, 6, 7 } };
	static const size_t lengths[] = { 6, 8, 3, 8, 8 };
	const char *const rules[] = { "TFILE-BLOCK-OVERRUN" };
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
		struct trace t;
		struct seen s;
		begin(&t, NULL, 1);
		frame_begin(&t);
		block_m(&t, 0x1000, 1);
		uint64_t cut = t.n;
		bytes(&t, cuts[i], lengths[i]);
		frame_end(&t);
		validate(&t, &s);
		expect(&s, 1, rules, &cut);
	}
}

ATF_TC_WITHOUT_HEAD(repeats_reported_once);
ATF_TC_BODY(repeats_reported_once, tc)
{
	/* Three R blocks in one frame and two in the next, two empty M blocks:
	 * BLOCK-R-REPEATED at the second R block only, BLOCK-M-EMPTY at the
	 * first empty M only. */
	struct trace t;
	struct seen s;
	begin(&t, NULL, 2);
	frame_begin(&t);
	block_r(&t);
	uint64_t second = block_r(&t);
	block_r(&t);
	uint64_t empty = block_m(&t, 0x2000, 0);
	frame_end(&t);
	frame_begin(&t);
	block_r(&t);
	block_r(&t);
	block_m(&t, 0x3000, 0);
	frame_end(&t);
	validate(&t, &s);
	const char *const rules[] = { "TFILE-BLOCK-R-REPEATED", "TFILE-BLOCK-M-EMPTY" };
	const uint64_t offsets[] = { second, empty };
	expect(&s, 2, rules, offsets);
}

ATF_TC_WITHOUT_HEAD(addresses_on_a_32bit_target);
ATF_TC_BODY(addresses_on_a_32bit_target, tc)
{
	/* i386: an M block starting below 2^32 and ending past it, then one
	 * starting past it (not reported again), and one ending exactly at
	 * 2^32 (no finding). */
	struct trace t;
	struct seen s;
	begin(&t, "i386", 1);
	frame_begin(&t);
	block_m(&t, 0xfffffff0u, 0x10);
	uint64_t across = block_m(&t, 0xfffffff8u, 0x10);
	block_m(&t, UINT64_C(0x100000000), 1);
	frame_end(&t);
	validate(&t, &s);
	const char *const rules[] = { "TFILE-BLOCK-M-ADDR32" };
	expect(&s, 1, rules, &across);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, block_header_cut_by_the_frame);
	ATF_TP_ADD_TC(tp, repeats_reported_once);
	ATF_TP_ADD_TC(tp, addresses_on_a_32bit_target);
	return 0;
}
