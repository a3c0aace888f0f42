/* tl_radix_sort (radix_sort.h) against a reference: the result is ordered
 * by key, equal keys keep their input order, and it is a permutation of
 * the input; keys that differ only in high bytes, only in low bytes, all
 * equal, and none at all are covered. */
#include <atf-c.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "radix_sort.h"

/* A small deterministic generator, so a failure reproduces. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void check_sorted(const struct tl_keyed *in, const struct tl_keyed *out, size_t n)
{
	bool *seen = calloc(n + 1, sizeof *seen);
	ATF_REQUIRE(seen != NULL);
	for (size_t i = 0; i < n; i++) {
		ATF_REQUIRE(out[i].val < n);
		ATF_REQUIRE_MSG(!seen[out[i].val], "value %u twice", out[i].val);
		seen[out[i].val] = true;
		ATF_REQUIRE_EQ(out[i].key, in[out[i].val].key);
		if (i > 0) {
			ATF_REQUIRE_MSG(out[i - 1].key <= out[i].key, "keys out of order at %zu", i);
			if (out[i - 1].key == out[i].key)
				ATF_REQUIRE_MSG(out[i - 1].val < out[i].val, "equal keys reordered at %zu", i);
		}
	}
	free(seen);
}

/* Sorts n items whose keys are (random & mask) | fixed and checks them. */
static void sort_case(size_t n, uint64_t mask, uint64_t fixed, uint64_t seed)
{
	struct tl_keyed *items = malloc((n + 1) * sizeof *items), *tmp = malloc((n + 1) * sizeof *tmp);
	struct tl_keyed *copy = malloc((n + 1) * sizeof *copy);
	ATF_REQUIRE(items && tmp && copy);
	for (size_t i = 0; i < n; i++)
		items[i] = (struct tl_keyed){ (next_random(&seed) & mask) | fixed, (uint32_t)i };
	memcpy(copy, items, n * sizeof *items);
	const struct tl_keyed *out = tl_radix_sort(items, tmp, n);
	ATF_REQUIRE(out == items || out == tmp);
	check_sorted(copy, out, n);
	free(items);
	free(tmp);
	free(copy);
}

ATF_TC_WITHOUT_HEAD(random_keys);
ATF_TC_BODY(random_keys, tc)
{
	sort_case(100000, UINT64_MAX, 0, 1);
}

ATF_TC_WITHOUT_HEAD(many_equal_keys_stay_in_order);
ATF_TC_BODY(many_equal_keys_stay_in_order, tc)
{
	sort_case(50000, 0x7, 0, 2);                      /* eight distinct keys */
	sort_case(50000, 0x0300000000000000ull, 5, 3);    /* only a high byte differs */
}

ATF_TC_WITHOUT_HEAD(shared_bytes_and_edges);
ATF_TC_BODY(shared_bytes_and_edges, tc)
{
	sort_case(1000, 0, 0xdeadbeef, 4);                /* every key equal: no pass */
	sort_case(1000, 0xff00ff, 0xab00000000000000ull, 5);
	sort_case(1, UINT64_MAX, 0, 6);
	sort_case(0, UINT64_MAX, 0, 7);
	/* keys already in order, and in reverse */
	struct tl_keyed items[300], tmp[300], copy[300];
	for (uint32_t i = 0; i < 300; i++)
		items[i] = (struct tl_keyed){ (uint64_t)(299 - i) << 40 | i, i };
	memcpy(copy, items, sizeof items);
	const struct tl_keyed *out = tl_radix_sort(items, tmp, 300);
	check_sorted(copy, out, 300);
	ATF_REQUIRE_EQ(out[0].val, 299u);
	ATF_REQUIRE_EQ(out[299].val, 0u);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Bare keys: the same order as qsort, for random, narrow and equal keys, and none. */
ATF_TC_WITHOUT_HEAD(bare_keys);
ATF_TC_BODY(bare_keys, tc)
{
	static const uint64_t masks[] = { UINT64_MAX, 0x7, 0xff00000000ull, 0 };
	uint64_t seed = 8;
	for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
		size_t n = 20000;
		uint64_t *keys = malloc(n * sizeof *keys), *tmp = malloc(n * sizeof *tmp), *want = malloc(n * sizeof *want);
		ATF_REQUIRE(keys && tmp && want);
		for (size_t i = 0; i < n; i++)
			keys[i] = want[i] = (next_random(&seed) & masks[m]) | 0x100;
		qsort(want, n, sizeof *want, cmp_u64);
		const uint64_t *out = tl_radix_sort_keys(keys, tmp, n);
		ATF_REQUIRE(out == keys || out == tmp);
		ATF_CHECK(memcmp(out, want, n * sizeof *want) == 0);
		free(keys);
		free(tmp);
		free(want);
	}
	/* No keys: nothing is read, the input comes back. */
	uint64_t none[1] = { 42 }, spare[1] = { 7 };
	ATF_CHECK(tl_radix_sort_keys(none, spare, 0) == none);
	ATF_CHECK_EQ(none[0], 42);
	ATF_CHECK_EQ(spare[0], 7);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, bare_keys);
	ATF_TP_ADD_TC(tp, random_keys);
	ATF_TP_ADD_TC(tp, many_equal_keys_stay_in_order);
	ATF_TP_ADD_TC(tp, shared_bytes_and_edges);
	return atf_no_error();
}
