/* Former rule IDs: matched by patterns, found by tl_rule_find, and used in
 * fingerprints so that baselines recorded before a rename still match. */
#include <atf-c.h>

#include <string.h>

#include "tracelint.h"

ATF_TC_WITHOUT_HEAD(former_ids_find_and_match);
ATF_TC_BODY(former_ids_find_and_match, tc)
{
	const struct tl_rule_info *prev = tl_rule_find("UMT-LINK-PREV");
	ATF_REQUIRE(prev != NULL);
	ATF_CHECK(tl_rule_find("UMT-U261") == prev);
	ATF_CHECK(tl_rule_matches("UMT-U261", prev));
	ATF_CHECK(tl_rule_matches("UMT-U26?", prev));
	ATF_CHECK(!tl_rule_matches("UMT-U262", prev));
	ATF_CHECK_EQ(tl_rule_pattern_matches("UMT-U261"), 1);
	ATF_CHECK_EQ(tl_rule_pattern_matches("UMT-U26*"), 7);
	/* UMT-U404 and UMT-U404-SKIPPED are two rules */
	ATF_CHECK(tl_rule_find("UMT-U404") != tl_rule_find("UMT-U404-SKIPPED"));
	ATF_CHECK_STREQ(tl_rule_find("UMT-U404-SKIPPED")->id, "UMT-SYSCALL-BLOCK-OVERLAP-SKIPPED");
	ATF_CHECK(tl_rule_find("UMT-U999") == NULL);
}

ATF_TC_WITHOUT_HEAD(fingerprints_survive_the_rename);
ATF_TC_BODY(fingerprints_survive_the_rename, tc)
{
	/* the fingerprint a baseline recorded when the rule was called UMT-U261 */
	struct tl_rule_info before = *tl_rule_find("UMT-LINK-PREV");
	before.id = "UMT-U261";
	struct tl_diagnostic d;
	memset(&d, 0, sizeof d);
	d.rule = &before;
	d.severity = TL_ERROR;
	d.loc.offset = 544;
	d.loc.record = -1;
	d.loc.member = "exec.prev_next.column";
	d.message = "expected Prev of record 34 = 27 (previous record of thread 0), found 30";
	char old[32], now[32], other[32];
	tl_diagnostic_fingerprint(old, sizeof old, "t", &d);
	d.rule = tl_rule_find("UMT-LINK-PREV");
	tl_diagnostic_fingerprint(now, sizeof now, "t", &d);
	ATF_CHECK_STREQ(old, now);
	d.rule = tl_rule_find("UMT-LINK-NEXT");
	tl_diagnostic_fingerprint(other, sizeof other, "t", &d);
	ATF_CHECK(strcmp(now, other) != 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, former_ids_find_and_match);
	ATF_TP_ADD_TC(tp, fingerprints_survive_the_rename);
	return atf_no_error();
}
