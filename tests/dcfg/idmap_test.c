/* The DCFG id map: a direct array while ids are dense (ascending,
 * descending, strided within the bound, a DCFG's executed subset), the move
 * to the hashed layout when they are not, and there ids placed at their
 * low bits while they spread, with the permanent switch to the multiplicative
 * hash when they do not (ids that share their low bits, a lookup that runs
 * along a dense run). Every case checks the map's answers, not only that it
 * finishes. */
#include <atf-c.h>

#include "validators/dcfg/idmap.h"

static void check_all(const struct tl_dcfg_idmap *m, uint64_t first, uint64_t step, uint32_t n)
{
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < n; i++)
		wrong += tl_dcfg_idmap_get(m, first + i * step) != i;
	ATF_CHECK_EQ_MSG(wrong, 0, "%u of %u ids not found with their index", wrong, n);
}

ATF_TC_WITHOUT_HEAD(dense_ids_keep_their_layout);
ATF_TC_BODY(dense_ids_keep_their_layout, tc)
{
	struct tl_dcfg_idmap m = { 0 };
	for (uint32_t i = 0; i < 100000; i++)
		ATF_REQUIRE_EQ(tl_dcfg_idmap_put(&m, 10 + i, i, NULL), IDMAP_NONE);
	check_all(&m, 10, 1, 100000);
	ATF_CHECK(m.direct != NULL);
	ATF_CHECK(!m.hashed && !m.mixed);
	ATF_CHECK_EQ(tl_dcfg_idmap_put(&m, 10 + 77, 5, NULL), 77); /* repeated: the first index */
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 9), IDMAP_NONE);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 100010), IDMAP_NONE);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, UINT64_MAX), IDMAP_NONE);
	tl_dcfg_idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(shared_low_bits_switch_to_hash);
ATF_TC_BODY(shared_low_bits_switch_to_hash, tc)
{
	struct tl_dcfg_idmap m = { 0 };
	for (uint32_t i = 0; i < 50000; i++)
		ATF_REQUIRE_EQ(tl_dcfg_idmap_put(&m, (uint64_t)(i + 1) << 32, i, NULL), IDMAP_NONE);
	ATF_CHECK(m.hashed && m.direct == NULL);
	ATF_CHECK(m.mixed);
	check_all(&m, 1ull << 32, 1ull << 32, 50000);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 0), IDMAP_NONE);
	tl_dcfg_idmap_free(&m);
}

/* One far id first: too sparse for the direct array, so the map is hashed. */
static void leave_direct(struct tl_dcfg_idmap *m)
{
	ATF_REQUIRE_EQ(tl_dcfg_idmap_put(m, 1ull << 40, 4000000000u, NULL), IDMAP_NONE);
	ATF_REQUIRE_EQ(tl_dcfg_idmap_put(m, 1, 4000000001u, NULL), IDMAP_NONE);
	ATF_REQUIRE(m->hashed && m->direct == NULL);
}

ATF_TC_WITHOUT_HEAD(absent_id_inside_a_dense_run);
ATF_TC_BODY(absent_id_inside_a_dense_run, tc)
{
	struct tl_dcfg_idmap m = { 0 };
	leave_direct(&m);
	for (uint32_t i = 2; i < 100000; i++)
		tl_dcfg_idmap_put(&m, i, i, NULL);
	ATF_REQUIRE(!m.mixed);
	/* Same low bits as id 5, so its probe would walk the whole run. */
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, (uint64_t)m.cap + 5), IDMAP_NONE);
	ATF_CHECK(m.mixed);
	uint32_t wrong = 0;
	for (uint32_t i = 2; i < 100000; i++)
		wrong += tl_dcfg_idmap_get(&m, i) != i;
	ATF_CHECK_EQ(wrong, 0);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 1ull << 40), 4000000000u);
	tl_dcfg_idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(reserve_then_fill);
ATF_TC_BODY(reserve_then_fill, tc)
{
	struct tl_dcfg_idmap m = { 0 };
	leave_direct(&m);
	ATF_REQUIRE(tl_dcfg_idmap_reserve(&m, 70000));
	uint32_t cap = m.cap;
	ATF_CHECK(cap >= 140000);
	for (uint32_t i = 0; i < 70000; i++)
		tl_dcfg_idmap_put(&m, 3 * (uint64_t)i + 2, i, NULL);
	ATF_CHECK_EQ(m.cap, cap); /* no growth while filling */
	check_all(&m, 2, 3, 70000);
	tl_dcfg_idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(direct_for_executed_subsets_and_any_order);
ATF_TC_BODY(direct_for_executed_subsets_and_any_order, tc)
{
	/* every third id (a DCFG lists the executed blocks of a program) */
	struct tl_dcfg_idmap m = { 0 };
	tl_dcfg_idmap_reserve(&m, 50000);
	for (uint32_t i = 0; i < 50000; i++)
		ATF_REQUIRE_EQ(tl_dcfg_idmap_put(&m, 1000 + 3 * (uint64_t)i, i, NULL), IDMAP_NONE);
	ATF_CHECK(m.direct != NULL);
	check_all(&m, 1000, 3, 50000);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 1001), IDMAP_NONE);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 999), IDMAP_NONE);
	tl_dcfg_idmap_free(&m);
	/* descending ids: the array grows downwards */
	for (uint32_t i = 0; i < 60000; i++)
		ATF_REQUIRE_EQ(tl_dcfg_idmap_put(&m, 70000 - (uint64_t)i, i, NULL), IDMAP_NONE);
	ATF_CHECK(m.direct != NULL);
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < 60000; i++)
		wrong += tl_dcfg_idmap_get(&m, 70000 - (uint64_t)i) != i;
	ATF_CHECK_EQ(wrong, 0);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&m, 10000), IDMAP_NONE);
	tl_dcfg_idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(sparse_ids_move_to_the_hashed_layout);
ATF_TC_BODY(sparse_ids_move_to_the_hashed_layout, tc)
{
	/* stride 1000, nothing announced: 1000 slots an id is over the bound */
	struct tl_dcfg_idmap m = { 0 };
	for (uint32_t i = 0; i < 20000; i++)
		ATF_REQUIRE_EQ(tl_dcfg_idmap_put(&m, 5 + 1000 * (uint64_t)i, i, NULL), IDMAP_NONE);
	ATF_CHECK(m.hashed && m.direct == NULL);
	ATF_CHECK_EQ(m.n, 20000u);
	check_all(&m, 5, 1000, 20000);
	ATF_CHECK_EQ(tl_dcfg_idmap_put(&m, 5 + 1000 * 7, 1, NULL), 7u); /* repeated after the move */
	/* ids next to the top of the range go to the hashed layout too */
	struct tl_dcfg_idmap h = { 0 };
	ATF_CHECK_EQ(tl_dcfg_idmap_put(&h, UINT64_MAX - 5, 9, NULL), IDMAP_NONE);
	ATF_CHECK(h.hashed);
	ATF_CHECK_EQ(tl_dcfg_idmap_get(&h, UINT64_MAX - 5), 9u);
	tl_dcfg_idmap_free(&m);
	tl_dcfg_idmap_free(&h);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dense_ids_keep_their_layout);
	ATF_TP_ADD_TC(tp, shared_low_bits_switch_to_hash);
	ATF_TP_ADD_TC(tp, absent_id_inside_a_dense_run);
	ATF_TP_ADD_TC(tp, reserve_then_fill);
	ATF_TP_ADD_TC(tp, direct_for_executed_subsets_and_any_order);
	ATF_TP_ADD_TC(tp, sparse_ids_move_to_the_hashed_layout);
	return atf_no_error();
}
