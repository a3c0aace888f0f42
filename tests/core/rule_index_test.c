/* Rule settings resolved through the rule index (settings applied in order,
 * exact IDs by binary search, globs only on IDs with their literal prefix)
 * give exactly what matching every setting against every rule gives
 * (tl_rule_effective, rule by rule): random lists of IDs, former IDs,
 * format names and globs, every action. And a long list costs what it
 * holds, not list x catalog. */
#define _POSIX_C_SOURCE 200809L
#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "validators/core/context.h"
#include "validators/core/rule_index.h"
#include "validators/core/rule_table.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static size_t rnd(size_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (size_t)((rng >> 11) % n) : 0;
}

/* A pattern: an ID, a former ID, a format, a glob cut from an ID, or junk. */
static void random_pattern(char *out, size_t len)
{
	const struct tl_rule_info *r = tl_rule_at(rnd(tl_rule_count()));
	const char *former = tl_rule_former_id(r);
	const char *id = former && rnd(3) == 0 ? former : r->id;
	size_t n = strlen(id), cut = 1 + rnd(n);
	switch (rnd(8)) {
	case 0: snprintf(out, len, "%s", r->format); break;
	case 1: snprintf(out, len, "%.*s*", (int)cut, id); break;
	case 2: snprintf(out, len, "*%s", id + cut - 1); break;
	case 3: snprintf(out, len, "%.*s?%s", (int)(cut - 1), id, id + cut); break;
	case 4: snprintf(out, len, "%s", rnd(4) ? "*" : "[A-X]*-TYPE"); break;
	case 5: snprintf(out, len, "%.*sZZ", (int)cut, id); break;
	default: snprintf(out, len, "%s", id); break;
	}
}

ATF_TC_WITHOUT_HEAD(index_agrees_with_rule_by_rule);
ATF_TC_BODY(index_agrees_with_rule_by_rule, tc)
{
	static char patterns[64][128];
	struct tl_rule_setting settings[64];
	unsigned differing = 0, changed = 0;
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + rnd(64);
		for (size_t i = 0; i < n; i++) {
			random_pattern(patterns[i], sizeof patterns[i]);
			settings[i] = (struct tl_rule_setting){ patterns[i], (enum tl_rule_action)rnd(5) };
		}
		struct tl_options opts;
		tl_options_init(&opts);
		opts.rule_settings = settings;
		opts.rule_setting_count = n;
		uint8_t sev[TL_RULE_COUNT];
		tl_rule_policy_resolve(&opts, sev);
		for (size_t id = 0; id < TL_RULE_COUNT; id++) {
			const struct tl_rule_info *r = tl_rule_by_id((enum tl_rule_id)id);
			enum tl_severity s;
			uint8_t want = tl_rule_effective(&opts, r, &s) ? (uint8_t)s : TL_SEVERITY_OFF;
			differing += sev[id] != want;
			changed += sev[id] != (uint8_t)r->severity;
		}
	}
	ATF_CHECK_EQ(differing, 0);
	ATF_CHECK_MSG(changed > 1500, "only %u severities changed: the settings prove little", changed);
	/* Each pattern counts what it matches, as rule by rule. */
	struct tl_rule_index x;
	ATF_REQUIRE(tl_rule_index_init(&x));
	for (int i = 0; i < 1000; i++) {
		char p[128];
		random_pattern(p, sizeof p);
		ATF_CHECK_EQ_MSG(tl_rule_index_match(&x, p, NULL, NULL), tl_rule_pattern_matches(p), "%s", p);
	}
	tl_rule_index_free(&x);
}

/* 50,000 settings (the whole catalog over and over, as a long config
 * list) resolve in a few catalog sweeps' time: rule by rule this is 50,000
 * x the catalog fnmatch calls for every file. */
ATF_TC_WITHOUT_HEAD(long_lists_are_linear);
ATF_TC_BODY(long_lists_are_linear, tc)
{
	size_t n = 50000;
	struct tl_rule_setting *settings = calloc(n, sizeof *settings);
	ATF_REQUIRE(settings);
	for (size_t i = 0; i < n; i++)
		settings[i] = (struct tl_rule_setting){ tl_rule_at(i % tl_rule_count())->id, i % 2 ? TL_RULE_WARNING : TL_RULE_NOTE };
	struct tl_options opts;
	tl_options_init(&opts);
	opts.rule_settings = settings;
	opts.rule_setting_count = n;
	uint8_t sev[TL_RULE_COUNT];
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int k = 0; k < 10; k++)
		tl_rule_policy_resolve(&opts, sev);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double each = ((double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9) / 10;
	/* About 5 ms under ASan; rule by rule, seconds. */
	ATF_CHECK_MSG(each < 0.5, "one resolution took %.3f s", each);
	size_t last = (n - 1) % tl_rule_count();
	ATF_CHECK_EQ(sev[last], (n - 1) % 2 ? TL_WARNING : TL_NOTE);
	free(settings);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, index_agrees_with_rule_by_rule);
	ATF_TP_ADD_TC(tp, long_lists_are_linear);
	return atf_no_error();
}
