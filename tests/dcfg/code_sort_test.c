/* The transition table's code sort (tl_dcfg_sort_codes) gives the order the
 * code rules report in, (edge, code padded to 32 bits, length, row), the
 * same as a comparison sort on that order, for codes added in document
 * order (rows growing, as the reader adds them): on tables already in order, in
 * reverse, shuffled, with many codes that pad alike (0, 00, 000...), and
 * edges at the largest id. Every code is compared, field by field. */
#include <atf-c.h>
#include <stdlib.h>
#include <string.h>

#include "validators/dcfg/trace_decode.h"

static uint32_t padded(const struct tl_dcfg_tcode *c) { return c->len ? c->bits << (32 - c->len) : 0; }

static int reference_order(const void *a, const void *b)
{
	const struct tl_dcfg_tcode *x = a, *y = b;
	if (x->edge != y->edge)
		return x->edge < y->edge ? -1 : 1;
	if (padded(x) != padded(y))
		return padded(x) < padded(y) ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static uint64_t rng = 88172645463325252u;
static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Sorts a copy both ways; rows are distinct, so the order is total. */
static void check_sorts_alike(const struct tl_dcfg_tcode *codes, uint32_t n)
{
	struct tl_dcfg_tcode *mine = malloc((n + 1) * sizeof *mine), *ref = malloc((n + 1) * sizeof *ref);
	ATF_REQUIRE(mine && ref);
	memcpy(mine, codes, n * sizeof *mine);
	memcpy(ref, codes, n * sizeof *ref);
	ATF_REQUIRE(tl_dcfg_sort_codes(mine, n));
	qsort(ref, n, sizeof *ref, reference_order);
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < n; i++)
		wrong += mine[i].edge != ref[i].edge || mine[i].bits != ref[i].bits || mine[i].len != ref[i].len ||
			 mine[i].row != ref[i].row || mine[i].next_off != ref[i].next_off || mine[i].next_n != ref[i].next_n;
	ATF_CHECK_EQ_MSG(wrong, 0, "%u of %u codes out of place", wrong, n);
	free(mine);
	free(ref);
}

/* n codes in document order (row = index), fields from the generator. */
static struct tl_dcfg_tcode *table(uint32_t n, uint64_t edges, uint32_t maxlen)
{
	struct tl_dcfg_tcode *c = calloc(n + 1, sizeof *c);
	ATF_REQUIRE(c);
	for (uint32_t i = 0; i < n; i++) {
		c[i].edge = 1 + next_random() % edges;
		c[i].len = (uint8_t)(next_random() % (maxlen + 1));
		c[i].bits = c[i].len ? next_random() >> (32 - c[i].len) : 0;
		c[i].next_off = i;
		c[i].next_n = 1 + i % 3;
		c[i].row = 0x80000000u | i;
	}
	return c;
}

ATF_TC_WITHOUT_HEAD(shuffled_tables);
ATF_TC_BODY(shuffled_tables, tc)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 17, 1000, 100000 };
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		for (uint32_t maxlen = 0; maxlen <= 32; maxlen += 4) {
			struct tl_dcfg_tcode *c = table(sizes[s], 1 + sizes[s] / 8, maxlen);
			check_sorts_alike(c, sizes[s]);
			free(c);
		}
}

ATF_TC_WITHOUT_HEAD(tables_in_order_and_reversed);
ATF_TC_BODY(tables_in_order_and_reversed, tc)
{
	uint32_t n = 50000;
	struct tl_dcfg_tcode *c = table(n, 5000, 12);
	qsort(c, n, sizeof *c, reference_order);
	struct tl_dcfg_tcode *before = malloc(n * sizeof *before);
	ATF_REQUIRE(before);
	memcpy(before, c, n * sizeof *c);
	ATF_REQUIRE(tl_dcfg_sort_codes(c, n));
	ATF_CHECK(memcmp(before, c, n * sizeof *c) == 0); /* in order: left alone */
	for (uint32_t i = 0; i < n / 2; i++) {
		struct tl_dcfg_tcode t = c[i];
		c[i] = c[n - 1 - i];
		c[n - 1 - i] = t;
	}
	for (uint32_t i = 0; i < n; i++) /* a table written backwards: rows still in document order */
		c[i].row = 0x80000000u | i;
	check_sorts_alike(c, n);
	free(before);
	free(c);
}

/* Codes that pad to the same 32 bits (zeros of every length, "1" and
 * "10"), lengths alternating, on one edge and on the largest edge id. */
ATF_TC_WITHOUT_HEAD(codes_padding_alike);
ATF_TC_BODY(codes_padding_alike, tc)
{
	uint32_t n = 20000;
	struct tl_dcfg_tcode *c = calloc(n, sizeof *c);
	ATF_REQUIRE(c);
	for (uint32_t i = 0; i < n; i++) {
		c[i].edge = i % 3 == 0 ? 0x7fffffffu : 7;
		c[i].len = (uint8_t)(i % 2 ? 1 + i % 32 : 1 + (i * 7) % 5);
		c[i].bits = i % 4 < 2 ? 0 : 1u << (c[i].len - 1);
		c[i].row = 0x80000000u | i;
	}
	check_sorts_alike(c, n);
	free(c);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, shuffled_tables);
	ATF_TP_ADD_TC(tp, tables_in_order_and_reversed);
	ATF_TP_ADD_TC(tp, codes_padding_alike);
	return atf_no_error();
}
