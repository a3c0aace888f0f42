/* tl_jv_int's inline path (JSON integers of up to 8 digits inside their
 * range) gives what the full reader tl_jv_int_read gives: the same answer,
 * the same value and the same error, for numbers of every length from 1 to
 * 20 digits, signs, fractions, exponents, "0x" and decimal strings and
 * other types, against ranges that hold the value, end at it or miss it
 * by one, and for numbers whose last digit is the document's last byte
 * but one (fewer than 8 bytes readable: the full reader's path). */
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_check.h"

struct outcome {
	bool ok, failed;
	uint64_t x;
};

static struct outcome read_int(struct tl_json_check *v, uint32_t cell, uint64_t lo, uint64_t hi, bool inline_path)
{
	struct outcome o = { false, false, 12345 };
	v->failed = false;
	o.ok = inline_path ? tl_jv_int(v, cell, lo, hi, "cell", &o.x) : tl_jv_int_read(v, cell, lo, hi, "cell", &o.x);
	o.failed = v->failed;
	if (!o.ok)
		o.x = 12345; /* not written on failure: either way, not compared */
	return o;
}

/* Every cell of the top-level array, against ranges around its value. */
static unsigned compare_cells(const char *text, unsigned *fast_ones)
{
	struct tl_json_check v;
	memset(&v, 0, sizeof v);
	ATF_REQUIRE_MSG(tl_jv_parse(&v, (const uint8_t *)text, strlen(text), NULL, 0), "%s", text);
	unsigned differ = 0;
	for (uint32_t c = jn(&v.doc, 0)->first; c != JNONE; c = jsibling(&v.doc, c)) {
		struct outcome any = read_int(&v, c, 0, UINT64_MAX, false);
		uint64_t x = any.ok ? any.x : 1000;
		const uint64_t ranges[][2] = {
			{ 0, UINT64_MAX }, { x, x }, { x + 1, UINT64_MAX }, { 0, x ? x - 1 : 0 }, { 1, 0x7fffffff },
		};
		for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
			struct outcome a = read_int(&v, c, ranges[r][0], ranges[r][1], true);
			struct outcome b = read_int(&v, c, ranges[r][0], ranges[r][1], false);
			if (a.ok != b.ok || a.failed != b.failed || a.x != b.x) {
				differ++;
				fprintf(stderr, "cell at %llu, range [%llu, %llu]: inline %d/%d/%llu, full %d/%d/%llu\n",
					(unsigned long long)tl_json_off(&v.doc, c), (unsigned long long)ranges[r][0],
					(unsigned long long)ranges[r][1], a.ok, a.failed, (unsigned long long)a.x, b.ok,
					b.failed, (unsigned long long)b.x);
			}
			*fast_ones += a.ok && jn(&v.doc, c)->type == J_NUM && jn(&v.doc, c)->count <= 8;
		}
	}
	tl_json_free(&v.doc);
	return differ;
}

ATF_TC_WITHOUT_HEAD(inline_path_reads_as_the_full_reader);
ATF_TC_BODY(inline_path_reads_as_the_full_reader, tc)
{
	static const char *const others[] = {
		"0", "-0", "-12", "1.5", "12e3", "1E2", "0.0", "-1.5e-3", "\"0x1f\"", "\"0xFFFFFFFFFFFFFFFF\"",
		"\"0x\"", "\"12\"", "\"012\"", "\"\"", "\"abc\"", "true", "false", "null", "[]", "[1]", "{}",
	};
	char text[8192];
	unsigned fast = 0;
	uint32_t seed = 7;
	for (int round = 0; round < 50; round++) {
		char *p = text;
		p += sprintf(p, "[");
		for (int len = 1; len <= 20; len++) {
			*p++ = (char)('1' + (seed = seed * 1103515245u + 12345u) % 9);
			for (int i = 1; i < len; i++)
				*p++ = (char)('0' + (seed = seed * 1103515245u + 12345u) % 10);
			p += sprintf(p, ", ");
		}
		p += sprintf(p, "99999999, 18446744073709551615, 18446744073709551616, ");
		for (size_t i = 0; i < sizeof others / sizeof *others; i++)
			p += sprintf(p, "%s,%s", others[i], round % 2 ? " " : "\n");
		sprintf(p, "%d]", round);
		ATF_CHECK_EQ(compare_cells(text, &fast), 0);
	}
	/* numbers near the end: fewer than 8 bytes after them */
	static const char *const tails[] = { "[7]", "[12345678]", "[1,22]", "[0,333 ]" };
	for (size_t i = 0; i < sizeof tails / sizeof *tails; i++)
		ATF_CHECK_EQ(compare_cells(tails[i], &fast), 0);
	ATF_CHECK_MSG(fast > 1000, "the inline path read only %u values", fast);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, inline_path_reads_as_the_full_reader);
	return atf_no_error();
}
