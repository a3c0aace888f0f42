/* The library's argument checks: no error buffer or a zero-length one, a
 * caller's options struct of an older (shorter) or uninitialised size,
 * unknown format ids and names, out-of-range catalog indexes, a format that
 * cannot read what it is given. Each call must give the documented status
 * and never write past what the caller gave it. */
#include <atf-c.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracelint.h"
#include "context.h"
#include "knob.h"

static const char *corpus(const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/corpus/%s", TL_SOURCE_DIR, rel);
	return buf;
}

ATF_TC_WITHOUT_HEAD(names_and_catalog_bounds);
ATF_TC_BODY(names_and_catalog_bounds, tc)
{
	ATF_CHECK_STREQ(tl_format_name(TL_FORMAT_AUTO), "auto");
	ATF_CHECK_STREQ(tl_format_name(TL_FORMAT_COUNT), "unknown");
	ATF_CHECK_EQ(tl_format_from_name("auto"), TL_FORMAT_AUTO);
	ATF_CHECK_EQ(tl_format_from_name("nonesuch"), TL_FORMAT_COUNT);
	ATF_CHECK(tl_rule_at(tl_rule_count()) == NULL);
	ATF_CHECK(tl_rule_at(0) != NULL);
	ATF_CHECK_STREQ(tl_severity_name(TL_ERROR), "error");
	ATF_CHECK_STREQ(tl_severity_name(TL_WARNING), "warning");
	ATF_CHECK_STREQ(tl_severity_name(TL_NOTE), "note");
	ATF_CHECK(tl_severity_name((enum tl_severity)99) != NULL);
}

ATF_TC_WITHOUT_HEAD(no_error_buffer);
ATF_TC_BODY(no_error_buffer, tc)
{
	struct tl_options o;
	struct tl_result r;
	char p[4096];
	tl_options_init(&o);
	/* A missing file, with and without room for the reason. */
	ATF_CHECK_EQ(tl_validate_path("/nonexistent/x.xray", &o, &r, NULL, 0), TL_E_IO);
	char err[8] = "unset";
	ATF_CHECK_EQ(tl_validate_path("/nonexistent/x.xray", &o, &r, err, 0), TL_E_IO);
	ATF_CHECK_STREQ(err, "unset");
	enum tl_format_id id = TL_FORMAT_COUNT;
	ATF_CHECK_EQ(tl_detect_path("/nonexistent/x.xray", &id, NULL, 0), TL_E_IO);
	ATF_CHECK_EQ(id, TL_FORMAT_COUNT);
	/* Bytes no format claims. */
	ATF_CHECK_EQ(tl_validate_buffer("zzzz", 4, "z", &o, &r, NULL, 0), TL_E_UNKNOWN_FORMAT);
	ATF_CHECK_EQ(tl_detect_path(corpus("README.md", p, sizeof p), &id, NULL, 0), TL_E_UNKNOWN_FORMAT);
	/* An unknown format id is a usage error. */
	o.format = TL_FORMAT_COUNT;
	ATF_CHECK_EQ(tl_validate_buffer("zzzz", 4, "z", &o, &r, NULL, 0), TL_E_USAGE);
	char big[64];
	ATF_CHECK_EQ(tl_validate_buffer("zzzz", 4, "z", &o, &r, big, sizeof big), TL_E_USAGE);
	ATF_CHECK_STREQ(big, "unknown format");
}

ATF_TC_WITHOUT_HEAD(empty_input_named);
ATF_TC_BODY(empty_input_named, tc)
{
	struct tl_options o;
	struct tl_result r;
	char err[256] = "";
	tl_options_init(&o);
	ATF_CHECK_EQ(tl_validate_buffer("", 0, "empty", &o, &r, err, sizeof err), TL_E_UNKNOWN_FORMAT);
	ATF_CHECK_MSG(strstr(err, "empty") != NULL, "%s", err);
}

ATF_TC_WITHOUT_HEAD(directory_for_a_file_format);
ATF_TC_BODY(directory_for_a_file_format, tc)
{
	struct tl_options o;
	struct tl_result r;
	char err[256] = "", p[4096];
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	ATF_CHECK_EQ(tl_validate_path(corpus("umtrace/valid/aborted-not-last", p, sizeof p), &o, &r, err,
				      sizeof err),
		     TL_E_IO);
	ATF_CHECK_MSG(strstr(err, "directory") != NULL, "%s", err);
	ATF_CHECK(!r.valid);
}

/* A caller's struct of another size: too small to hold struct_size (never
 * initialised by tl_options_init), or larger than ours, is taken whole. */
ATF_TC_WITHOUT_HEAD(options_struct_sizes);
ATF_TC_BODY(options_struct_sizes, tc)
{
	char p[4096];
	const char *bad = corpus("xray/invalid/header-version.xray", p, sizeof p);
	struct tl_options o;
	struct tl_result r;
	for (size_t size = 0; size <= 2; size++) {
		tl_options_init(&o);
		o.format = TL_FORMAT_XRAY;
		o.struct_size = size == 0 ? 0 : size == 1 ? sizeof o + 64 : sizeof o;
		memset(&r, 0xa5, sizeof r);
		ATF_CHECK_EQ(tl_validate_path(bad, &o, &r, NULL, 0), TL_OK);
		ATF_CHECK(!r.valid);
		ATF_CHECK_EQ(r.format, TL_FORMAT_XRAY);
		ATF_CHECK(r.errors > 0);
	}
	/* A result struct shorter than ours gets only its own bytes. */
	unsigned char small[sizeof r + 8];
	memset(small, 0x5a, sizeof small);
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	ATF_CHECK_EQ(tl_validate_path_sized(bad, &o, (struct tl_result *)small, 4, NULL, 0), TL_OK);
	for (size_t i = 4; i < sizeof small; i++)
		ATF_CHECK_EQ(small[i], 0x5a);
}

/* --werror turns a run with warnings and no error into a rejection. */
ATF_TC_WITHOUT_HEAD(werror_verdict);
ATF_TC_BODY(werror_verdict, tc)
{
	struct tl_options o;
	struct tl_result r;
	char p[4096];
	const char *path = corpus("xray/valid/gen-fdr-v3-le.xray", p, sizeof p);
	tl_options_init(&o);
	static const struct tl_rule_setting all_warnings[] = { { "*", TL_RULE_WARNING } };
	ATF_CHECK_EQ(tl_validate_path(path, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK(r.valid);
	/* Still valid without warnings, with werror. */
	o.werror = true;
	ATF_CHECK_EQ(tl_validate_path(path, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK(r.valid);
	const char *bad = corpus("xray/invalid/header-version.xray", p, sizeof p);
	o.format = TL_FORMAT_XRAY;
	o.rule_settings = all_warnings;
	o.rule_setting_count = 1;
	o.werror = false;
	ATF_CHECK_EQ(tl_validate_path(bad, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK_EQ(r.errors, 0);
	ATF_CHECK(r.warnings > 0);
	ATF_CHECK(r.valid);
	o.werror = true;
	ATF_CHECK_EQ(tl_validate_path(bad, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK(!r.valid);
}

ATF_TC_WITHOUT_HEAD(quote_small_buffers);
ATF_TC_BODY(quote_small_buffers, tc)
{
	char buf[16];
	memset(buf, 'x', sizeof buf);
	tl_quote(buf, 0, (const uint8_t *)"ab", 2);
	ATF_CHECK_EQ(buf[0], 'x');
	/* What does not fit before the ellipsis is cut, the ellipsis too when
	 * it does not fit itself. */
	tl_quote(buf, 4, (const uint8_t *)"a\x01", 2);
	ATF_CHECK_STREQ(buf, "...");
	tl_quote(buf, 2, (const uint8_t *)"a\x01", 2);
	ATF_CHECK_STREQ(buf, "");
	tl_quote(buf, sizeof buf, (const uint8_t *)"a\x01", 2);
	ATF_CHECK_MSG(strstr(buf, "\\x01") != NULL, "%s", buf);
}

ATF_TC_WITHOUT_HEAD(knob_values);
ATF_TC_BODY(knob_values, tc)
{
	unsetenv("TL_TEST_KNOB");
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 7);
	setenv("TL_TEST_KNOB", "42", 1);
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 42);
	setenv("TL_TEST_KNOB", "420", 1);
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 7);
	setenv("TL_TEST_KNOB", "4x", 1);
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 7);
	setenv("TL_TEST_KNOB", "x", 1);
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 7);
	setenv("TL_TEST_KNOB", "", 1);
	ATF_CHECK_EQ(tl_knob("TL_TEST_KNOB", 7, 100), 7);
	unsetenv("TL_TEST_KNOB");
}

/* A stream whose file cannot be made, and one fed beyond its limit. */
ATF_TC_WITHOUT_HEAD(stream_refusals);
ATF_TC_BODY(stream_refusals, tc)
{
	struct tl_options o;
	struct tl_result r;
	char err[512] = "";
	tl_options_init(&o);
	setenv("TMPDIR", "/nonexistent-tmpdir", 1);
	ATF_CHECK(tl_stream_new(TL_FORMAT_XRAY, NULL, &o, err, sizeof err) == NULL);
	ATF_CHECK_MSG(strstr(err, "/nonexistent-tmpdir") != NULL, "%s", err);
	ATF_CHECK(tl_stream_new(TL_FORMAT_XRAY, NULL, &o, NULL, 0) == NULL);
	unsetenv("TMPDIR");
	o.stdin_limit = 8;
	struct tl_stream *s = tl_stream_new(TL_FORMAT_XRAY, "small", &o, err, sizeof err);
	ATF_REQUIRE(s != NULL);
	ATF_CHECK_EQ(tl_stream_feed(s, "0123456789", 10), TL_E_IO);
	/* A failed stream stays failed, and says why at the end. */
	ATF_CHECK_EQ(tl_stream_feed(s, "0", 1), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_finish(s, &r, err, sizeof err), TL_E_IO);
	ATF_CHECK_MSG(strstr(err, "at most 8 bytes") != NULL, "%s", err);
	/* No room for the reason at the end either. */
	s = tl_stream_new(TL_FORMAT_XRAY, "small", &o, NULL, 0);
	ATF_REQUIRE(s != NULL);
	ATF_CHECK_EQ(tl_stream_feed(s, "0123456789", 10), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_finish(s, &r, NULL, 0), TL_E_IO);
	/* An empty TMPDIR means /tmp. */
	setenv("TMPDIR", "", 1);
	s = tl_stream_new(TL_FORMAT_XRAY, "tmp", &o, err, sizeof err);
	ATF_CHECK(s != NULL);
	tl_stream_free(s);
	unsetenv("TMPDIR");
	tl_stream_free(NULL);
	s = tl_stream_new(TL_FORMAT_XRAY, "abandoned", &o, NULL, 0);
	ATF_REQUIRE(s != NULL);
	tl_stream_free(s);
}

/* A trace directory held in memory: all members give the verdict of the
 * directory on disk; a member without a name is no member; one missing is
 * the trace's fault (UMT-FILE-MISSING), not the machine's. */
static void on_rule(const struct tl_diagnostic *d, void *user)
{
	if (d->rule && strcmp(d->rule->id, "UMT-FILE-MISSING") == 0)
		++*(unsigned *)user;
}

ATF_TC_WITHOUT_HEAD(members_in_memory);
ATF_TC_BODY(members_in_memory, tc)
{
	static const char *const names[] = { "address_space.itable", "context_map.itable", "exec.offsets",
					     "exec.prev_next.column", "exec.vtable", "ins.itable", "module.itable",
					     "syscall.offsets", "syscall.vtable", "thread.itable", "trace.xml" };
	enum { N = sizeof names / sizeof *names };
	struct tl_member m[N];
	char dir[4096], p[4200];
	corpus("umtrace/valid/aborted-not-last", dir, sizeof dir);
	for (size_t i = 0; i < N; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		FILE *f = fopen(p, "rb");
		ATF_REQUIRE_MSG(f != NULL, "%s", p);
		void *buf = malloc(1 << 20);
		ATF_REQUIRE(buf != NULL);
		m[i].name = names[i];
		m[i].data = buf;
		m[i].size = fread(buf, 1, 1 << 20, f);
		fclose(f);
	}
	struct tl_options o;
	struct tl_result r, want;
	unsigned missing = 0;
	tl_options_init(&o);
	o.format = TL_FORMAT_UMTRACE;
	ATF_CHECK_EQ(tl_validate_path(dir, &o, &want, NULL, 0), TL_OK);
	ATF_CHECK_EQ(tl_validate_members(m, N, "mem", &o, &r, NULL, 0), TL_OK);
	ATF_CHECK_EQ(r.valid, want.valid);
	ATF_CHECK_EQ(r.errors, want.errors);
	o.on_diag = on_rule;
	o.user = &missing;
	m[0].name = NULL;
	ATF_CHECK_EQ(tl_validate_members(m, N, "mem", &o, &r, NULL, 0), TL_OK);
	ATF_CHECK(!r.valid);
	ATF_CHECK_EQ(missing, 1);
	for (size_t i = 0; i < N; i++)
		free((void *)(uintptr_t)m[i].data);
}

/* A directory no format claims: each format says why it passed it over. */
ATF_TC_WITHOUT_HEAD(unclaimed_directory);
ATF_TC_BODY(unclaimed_directory, tc)
{
	ATF_REQUIRE(mkdir("empty", 0755) == 0);
	enum tl_format_id id = TL_FORMAT_COUNT;
	char err[1024] = "";
	ATF_CHECK_EQ(tl_detect_path("empty", &id, err, sizeof err), TL_E_UNKNOWN_FORMAT);
	ATF_CHECK_EQ(id, TL_FORMAT_COUNT);
	ATF_CHECK_MSG(strstr(err, "format not recognised; tried ") == err, "%s", err);
	ATF_CHECK_MSG(strstr(err, "xray (needs a file, not a directory)") != NULL, "%s", err);
}

/* A rule setting without a pattern, or with an action outside the enum,
 * matches nothing and changes nothing; the settings around it still apply. */
ATF_TC_WITHOUT_HEAD(rule_settings_that_do_nothing);
ATF_TC_BODY(rule_settings_that_do_nothing, tc)
{
	char p[4096];
	const char *bad = corpus("xray/invalid/header-version.xray", p, sizeof p);
	struct tl_options o;
	struct tl_result plain, r;
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	ATF_REQUIRE_EQ(tl_validate_path(bad, &o, &plain, NULL, 0), TL_OK);
	ATF_REQUIRE(plain.errors > 0);
	const struct tl_rule_setting inert[] = { { NULL, TL_RULE_OFF }, { "*", (enum tl_rule_action)99 } };
	o.rule_settings = inert;
	o.rule_setting_count = 2;
	ATF_CHECK_EQ(tl_validate_path(bad, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK_EQ(r.errors, plain.errors);
	ATF_CHECK_EQ(r.warnings, plain.warnings);
	/* After a setting that applies, the inert ones leave its effect. */
	const struct tl_rule_setting warn_then_inert[] = { { "*", TL_RULE_WARNING }, { NULL, TL_RULE_ERROR },
							  { "*", (enum tl_rule_action)99 } };
	o.rule_settings = warn_then_inert;
	o.rule_setting_count = 3;
	ATF_CHECK_EQ(tl_validate_path(bad, &o, &r, NULL, 0), TL_OK);
	ATF_CHECK_EQ(r.errors, 0);
	ATF_CHECK_EQ(r.warnings, plain.errors + plain.warnings);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, names_and_catalog_bounds);
	ATF_TP_ADD_TC(tp, no_error_buffer);
	ATF_TP_ADD_TC(tp, empty_input_named);
	ATF_TP_ADD_TC(tp, directory_for_a_file_format);
	ATF_TP_ADD_TC(tp, options_struct_sizes);
	ATF_TP_ADD_TC(tp, werror_verdict);
	ATF_TP_ADD_TC(tp, quote_small_buffers);
	ATF_TP_ADD_TC(tp, knob_values);
	ATF_TP_ADD_TC(tp, stream_refusals);
	ATF_TP_ADD_TC(tp, members_in_memory);
	ATF_TP_ADD_TC(tp, rule_settings_that_do_nothing);
	ATF_TP_ADD_TC(tp, unclaimed_directory);
	return atf_no_error();
}
