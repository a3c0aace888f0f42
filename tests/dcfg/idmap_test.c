/* The DCFG id map: ids placed at their low bits while they spread, and the
 * permanent switch to the hashed layout when they do not (strides, ids that
 * share their low bits, a lookup that runs along a dense run). Every case
 * checks the map's answers, not only that it finishes. */
#include <atf-c.h>

#include "validators/dcfg/idmap.h"

static void check_all(const struct idmap *m, uint64_t first, uint64_t step, uint32_t n)
{
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < n; i++)
		wrong += idmap_get(m, first + i * step) != i;
	ATF_CHECK_EQ_MSG(wrong, 0, "%u of %u ids not found with their index", wrong, n);
}

ATF_TC_WITHOUT_HEAD(dense_ids_keep_their_layout);
ATF_TC_BODY(dense_ids_keep_their_layout, tc)
{
	struct idmap m = { 0 };
	for (uint32_t i = 0; i < 100000; i++)
		ATF_REQUIRE_EQ(idmap_put(&m, 10 + i, i, NULL), IDMAP_NONE);
	check_all(&m, 10, 1, 100000);
	ATF_CHECK(!m.mixed);
	ATF_CHECK_EQ(idmap_put(&m, 10 + 77, 5, NULL), 77); /* repeated: the first index */
	ATF_CHECK_EQ(idmap_get(&m, 9), IDMAP_NONE);
	ATF_CHECK_EQ(idmap_get(&m, 100010), IDMAP_NONE);
	ATF_CHECK_EQ(idmap_get(&m, UINT64_MAX), IDMAP_NONE);
	idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(shared_low_bits_switch_to_hash);
ATF_TC_BODY(shared_low_bits_switch_to_hash, tc)
{
	struct idmap m = { 0 };
	for (uint32_t i = 0; i < 50000; i++)
		ATF_REQUIRE_EQ(idmap_put(&m, (uint64_t)(i + 1) << 32, i, NULL), IDMAP_NONE);
	ATF_CHECK(m.mixed);
	check_all(&m, 1ull << 32, 1ull << 32, 50000);
	ATF_CHECK_EQ(idmap_get(&m, 0), IDMAP_NONE);
	idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(absent_id_inside_a_dense_run);
ATF_TC_BODY(absent_id_inside_a_dense_run, tc)
{
	struct idmap m = { 0 };
	for (uint32_t i = 0; i < 100000; i++)
		idmap_put(&m, i, i, NULL);
	ATF_REQUIRE(!m.mixed);
	/* Same low bits as id 5, so its probe would walk the whole run. */
	ATF_CHECK_EQ(idmap_get(&m, (uint64_t)m.cap + 5), IDMAP_NONE);
	ATF_CHECK(m.mixed);
	check_all(&m, 0, 1, 100000);
	idmap_free(&m);
}

ATF_TC_WITHOUT_HEAD(reserve_then_fill);
ATF_TC_BODY(reserve_then_fill, tc)
{
	struct idmap m = { 0 };
	ATF_REQUIRE(idmap_reserve(&m, 70000));
	uint32_t cap = m.cap;
	ATF_CHECK(cap >= 140000);
	for (uint32_t i = 0; i < 70000; i++)
		idmap_put(&m, 3 * (uint64_t)i, i, NULL);
	ATF_CHECK_EQ(m.cap, cap); /* no growth while filling */
	check_all(&m, 0, 3, 70000);
	idmap_free(&m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dense_ids_keep_their_layout);
	ATF_TP_ADD_TC(tp, shared_low_bits_switch_to_hash);
	ATF_TP_ADD_TC(tp, absent_id_inside_a_dense_run);
	ATF_TP_ADD_TC(tp, reserve_then_fill);
	return atf_no_error();
}
