/* Reporting: counts, severities from the catalog, the error limit, werror. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>

#include "context.h"

struct seen {
	int count;
	char last_message[256];
	char last_rule[64];
	struct tl_location last_loc;
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	s->count++;
	snprintf(s->last_message, sizeof s->last_message, "%s", d->message);
	snprintf(s->last_rule, sizeof s->last_rule, "%s", d->rule->id);
	s->last_loc = d->loc;
}

/* Rule IDs are the catalog's indices; find one of a severity, whatever the formats. */
static enum tl_rule_id rule_of(enum tl_severity sev)
{
	for (size_t i = 0; i < tl_rule_count(); i++)
		if (tl_rule_at(i)->severity == sev && strcmp(tl_rule_at(i)->format, "core") != 0)
			return (enum tl_rule_id)i;
	atf_tc_skip("the catalog has no %s rule outside the core", tl_severity_name(sev));
	return TL_RULE_COUNT;
}

static void setup(struct tl_ctx *ctx, struct tl_options *o, struct tl_result *r, struct seen *s)
{
	tl_options_init(o);
	memset(r, 0, sizeof *r);
	memset(s, 0, sizeof *s);
	o->on_diag = collect;
	o->user = s;
	memset(ctx, 0, sizeof *ctx);
	ctx->opts = o;
	ctx->result = r;
	ctx->path = "x";
	tl_rule_policy_resolve(o, ctx->severity);
}

ATF_TC_WITHOUT_HEAD(counts_and_delivers);
ATF_TC_BODY(counts_and_delivers, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	enum tl_rule_id e = rule_of(TL_ERROR), w = rule_of(TL_WARNING);
	struct tl_location loc = tl_at_record(42, 7);
	tl_report(&ctx, e, &loc, "expected %d, found %d", 1, 2);
	tl_report(&ctx, w, &loc, "expected a, found b");
	ATF_CHECK_EQ(r.errors, 1u);
	ATF_CHECK_EQ(r.warnings, 1u);
	ATF_CHECK_EQ(s.count, 2);
	ATF_CHECK_STREQ(s.last_message, "expected a, found b");
	ATF_CHECK_STREQ(s.last_rule, tl_rule_at(w)->id);
	ATF_CHECK_EQ(s.last_loc.offset, 42u);
	ATF_CHECK_EQ(s.last_loc.record, 7);
	ATF_CHECK(!tl_stopped(&ctx));
}

ATF_TC_WITHOUT_HEAD(error_limit_stops_reporting);
ATF_TC_BODY(error_limit_stops_reporting, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	o.max_errors = 2;
	enum tl_rule_id e = rule_of(TL_ERROR);
	struct tl_location loc = tl_at(0);
	for (int i = 0; i < 5; i++)
		tl_report(&ctx, e, &loc, "expected nothing, found %d", i);
	/* Two errors and the TL-MAX-ERRORS note reach the callback; all five count. */
	ATF_CHECK_EQ(s.count, 3);
	ATF_CHECK_STREQ(s.last_rule, "TL-MAX-ERRORS");
	ATF_CHECK_EQ(r.errors, 5u);
	ATF_CHECK(r.truncated);
	ATF_CHECK(tl_stopped(&ctx));
}

ATF_TC_WITHOUT_HEAD(no_limit_when_zero);
ATF_TC_BODY(no_limit_when_zero, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	o.max_errors = 0;
	enum tl_rule_id e = rule_of(TL_ERROR);
	struct tl_location loc = tl_at(0);
	for (int i = 0; i < 500; i++)
		tl_report(&ctx, e, &loc, "expected nothing, found %d", i);
	ATF_CHECK_EQ(s.count, 500);
	ATF_CHECK(!r.truncated);
}

ATF_TC_WITHOUT_HEAD(warnings_share_the_limit);
ATF_TC_BODY(warnings_share_the_limit, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	o.max_errors = 3;
	enum tl_rule_id w = rule_of(TL_WARNING);
	struct tl_location loc = tl_at(0);
	for (int i = 0; i < 10; i++)
		tl_report(&ctx, w, &loc, "expected nothing, found %d", i);
	/* Three warnings, then one note saying the rest were left out. */
	ATF_CHECK_EQ(s.count, 4);
	ATF_CHECK_STREQ(s.last_rule, "TL-MAX-ERRORS");
	ATF_CHECK(strstr(s.last_message, "warnings") != NULL);
	ATF_CHECK_EQ(r.warnings, 10u);
	ATF_CHECK_EQ(r.notes, 1u);
	ATF_CHECK(r.truncated);
	ATF_CHECK(!tl_stopped(&ctx)); /* warnings never stop validation */
}

ATF_TC_WITHOUT_HEAD(long_messages_are_cut_safely);
ATF_TC_BODY(long_messages_are_cut_safely, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	char big[4000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct tl_location loc = tl_at(0);
	tl_report(&ctx, rule_of(TL_ERROR), &loc, "expected y, found %s", big);
	ATF_CHECK_EQ(s.count, 1);
	ATF_CHECK(strncmp(s.last_message, "expected y, found xxx", 21) == 0);
}

ATF_TC_WITHOUT_HEAD(quote_escapes_bytes);
ATF_TC_BODY(quote_escapes_bytes, tc)
{
	char buf[32];
	const uint8_t raw[] = { 'a', 0x00, '"', 0x7f, 'b' };
	ATF_CHECK_STREQ(tl_quote(buf, sizeof buf, raw, sizeof raw), "a\\x00\\\"\\x7fb");
	const uint8_t many[64] = { 0 };
	const char *q = tl_quote(buf, sizeof buf, many, sizeof many);
	ATF_CHECK(strlen(q) < sizeof buf);
	ATF_CHECK(strstr(q, "...") != NULL);
}

/* Rule settings: off is neither delivered nor counted; a changed severity is
 * what the callback sees and what the counts use; the last match wins. */
ATF_TC_WITHOUT_HEAD(rule_settings_apply);
ATF_TC_BODY(rule_settings_apply, tc)
{
	struct tl_ctx ctx;
	struct tl_options o;
	struct tl_result r;
	struct seen s;
	setup(&ctx, &o, &r, &s);
	const struct tl_rule_setting settings[] = {
		{ "TFILE-*", TL_RULE_OFF },
		{ "TFILE-HEADER-MAGIC", TL_RULE_WARNING },
	};
	o.rule_settings = settings;
	o.rule_setting_count = 2;
	tl_rule_policy_resolve(&o, ctx.severity);
	struct tl_location loc = tl_at(4);
	tl_report(&ctx, RULE_TFILE_HEADER_MAGIC, &loc, "magic");
	tl_report(&ctx, RULE_TFILE_HEADER_VERSION, &loc, "version");
	ATF_CHECK_EQ(r.errors, 0);
	ATF_CHECK_EQ(r.warnings, 1);
	const struct tl_rule_info *magic = tl_rule_find("TFILE-HEADER-MAGIC");
	enum tl_severity sev = TL_NOTE;
	ATF_CHECK(tl_rule_effective(&o, magic, &sev));
	ATF_CHECK_EQ(sev, TL_WARNING);
	ATF_CHECK(!tl_rule_effective(&o, tl_rule_find("TFILE-HEADER-VERSION"), &sev));
	ATF_CHECK(tl_rule_matches("xray", tl_rule_find("XRAY-HEADER-FLAGS")));
	ATF_CHECK(!tl_rule_matches("XRAY-FDR-*", tl_rule_find("XRAY-HEADER-FLAGS")));
	ATF_CHECK_EQ(tl_rule_pattern_matches("NO-SUCH-*"), 0);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, rule_settings_apply);
	ATF_TP_ADD_TC(tp, counts_and_delivers);
	ATF_TP_ADD_TC(tp, error_limit_stops_reporting);
	ATF_TP_ADD_TC(tp, no_limit_when_zero);
	ATF_TP_ADD_TC(tp, warnings_share_the_limit);
	ATF_TP_ADD_TC(tp, long_messages_are_cut_safely);
	ATF_TP_ADD_TC(tp, quote_escapes_bytes);
	return atf_no_error();
}
