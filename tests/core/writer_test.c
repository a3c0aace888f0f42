/* The three output styles, parsed back (JSON and SARIF with json-c). */
#include <atf-c.h>

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "tracelint.h"

static char output[1 << 20];

/* Writes one path with the given diagnostics in a style; returns the text. */
static const char *render(enum tl_output_style style, bool quiet,
			  const struct tl_diagnostic *diags, size_t n, const struct tl_result *r)
{
	FILE *f = fmemopen(output, sizeof output, "w");
	ATF_REQUIRE(f != NULL);
	struct tl_writer *w = tl_writer_new(style, f, quiet);
	ATF_REQUIRE(w != NULL);
	tl_writer_begin(w, "dir/trace.bin");
	for (size_t i = 0; i < n; i++)
		tl_writer_diag(&diags[i], w);
	tl_writer_end(w, r, TL_OK, NULL);
	ATF_REQUIRE_EQ(tl_writer_finish(w), 0);
	fclose(f);
	return output;
}

static struct tl_diagnostic binary_diag(void)
{
	struct tl_diagnostic d;
	memset(&d, 0, sizeof d);
	d.rule = tl_rule_find("TL-MAX-ERRORS");
	d.severity = TL_ERROR;
	d.loc.offset = 4128;
	d.loc.record = 257;
	d.message = "expected 1, found 2";
	return d;
}

static struct tl_diagnostic text_diag(void)
{
	struct tl_diagnostic d = binary_diag();
	d.severity = TL_WARNING;
	d.loc.record = -1;
	d.loc.line = 3;
	d.loc.column = 7;
	d.loc.member = "exec.vtable";
	d.loc.pointer = "/a/0";
	d.message = "expected \"x\", found \"y\"";
	return d;
}

static struct tl_result invalid_result(void)
{
	struct tl_result r;
	memset(&r, 0, sizeof r);
	r.format = TL_FORMAT_TFILE;
	r.errors = 1;
	r.warnings = 1;
	snprintf(r.detail, sizeof r.detail, "little-endian (detected)");
	return r;
}

ATF_TC_WITHOUT_HEAD(text_follows_the_compiler_convention);
ATF_TC_BODY(text_follows_the_compiler_convention, tc)
{
	struct tl_diagnostic d[2] = { binary_diag(), text_diag() };
	struct tl_result r = invalid_result();
	const char *out = render(TL_OUTPUT_TEXT, false, d, 2, &r);
	ATF_CHECK_STREQ(out,
		"dir/trace.bin:offset 4128 (record 257): error: expected 1, found 2 [TL-MAX-ERRORS]\n"
		"dir/trace.bin/exec.vtable:3:7: warning: expected \"x\", found \"y\" at /a/0 "
		"[TL-MAX-ERRORS]\n"
		"dir/trace.bin: invalid (tfile: 1 error, 1 warning; little-endian (detected))\n");
}

ATF_TC_WITHOUT_HEAD(quiet_text_prints_only_the_verdict);
ATF_TC_BODY(quiet_text_prints_only_the_verdict, tc)
{
	struct tl_diagnostic d[1] = { binary_diag() };
	struct tl_result r = invalid_result();
	r.warnings = 0;
	r.detail[0] = '\0';
	const char *out = render(TL_OUTPUT_TEXT, true, d, 1, &r);
	ATF_CHECK_STREQ(out, "dir/trace.bin: invalid (tfile: 1 error, 0 warnings)\n");
}

ATF_TC_WITHOUT_HEAD(json_document);
ATF_TC_BODY(json_document, tc)
{
	struct tl_diagnostic d[2] = { binary_diag(), text_diag() };
	struct tl_result r = invalid_result();
	json_object *root = json_tokener_parse(render(TL_OUTPUT_JSON, false, d, 2, &r));
	ATF_REQUIRE(root != NULL);
	json_object *files = json_object_object_get(root, "files");
	ATF_REQUIRE_EQ(json_object_array_length(files), 1u);
	json_object *f = json_object_array_get_idx(files, 0);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(f, "path")), "dir/trace.bin");
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(f, "format")), "tfile");
	ATF_CHECK(!json_object_get_boolean(json_object_object_get(f, "valid")));
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(f, "errors")), 1);
	json_object *diags = json_object_object_get(f, "diagnostics");
	ATF_REQUIRE_EQ(json_object_array_length(diags), 2u);
	json_object *b = json_object_array_get_idx(diags, 0);
	ATF_CHECK_EQ(json_object_get_int64(json_object_object_get(b, "offset")), 4128);
	ATF_CHECK_EQ(json_object_get_int64(json_object_object_get(b, "record")), 257);
	ATF_CHECK(json_object_object_get(b, "line") == NULL);
	json_object *t = json_object_array_get_idx(diags, 1);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(t, "severity")), "warning");
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(t, "line")), 3);
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(t, "column")), 7);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(t, "member")), "exec.vtable");
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(t, "pointer")), "/a/0");
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(t, "message")),
			"expected \"x\", found \"y\"");
	json_object_put(root);
}

ATF_TC_WITHOUT_HEAD(sarif_log);
ATF_TC_BODY(sarif_log, tc)
{
	struct tl_diagnostic d[2] = { binary_diag(), text_diag() };
	struct tl_result r = invalid_result();
	json_object *root = json_tokener_parse(render(TL_OUTPUT_SARIF, false, d, 2, &r));
	ATF_REQUIRE(root != NULL);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(root, "version")), "2.1.0");
	json_object *run = json_object_array_get_idx(json_object_object_get(root, "runs"), 0);
	json_object *driver = json_object_object_get(json_object_object_get(run, "tool"), "driver");
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(driver, "name")), "tracelint");
	ATF_CHECK_EQ(json_object_array_length(json_object_object_get(driver, "rules")),
		     tl_rule_count());
	json_object *results = json_object_object_get(run, "results");
	ATF_REQUIRE_EQ(json_object_array_length(results), 2u);
	json_object *res = json_object_array_get_idx(results, 0);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(res, "ruleId")), "TL-MAX-ERRORS");
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(res, "level")), "error");
	json_object *idx = json_object_object_get(res, "ruleIndex");
	json_object *rule = json_object_array_get_idx(json_object_object_get(driver, "rules"),
						      (size_t)json_object_get_int(idx));
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(rule, "id")), "TL-MAX-ERRORS");
	json_object *phys = json_object_object_get(
		json_object_array_get_idx(json_object_object_get(res, "locations"), 0),
		"physicalLocation");
	json_object *region = json_object_object_get(phys, "region");
	ATF_CHECK_EQ(json_object_get_int64(json_object_object_get(region, "byteOffset")), 4128);
	/* a binary file has no lines: shown on line 1, the offset in the message */
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(region, "startLine")), 1);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(
				json_object_object_get(res, "message"), "text")),
			"At byte 4128 (record 257): expected 1, found 2");
	res = json_object_array_get_idx(results, 1);
	phys = json_object_object_get(
		json_object_array_get_idx(json_object_object_get(res, "locations"), 0),
		"physicalLocation");
	region = json_object_object_get(phys, "region");
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(region, "startLine")), 3);
	ATF_CHECK_EQ(json_object_get_int(json_object_object_get(region, "startColumn")), 7);
	ATF_CHECK_STREQ(json_object_get_string(json_object_object_get(
				json_object_object_get(phys, "artifactLocation"), "uri")),
			"dir/trace.bin/exec.vtable");
	json_object_put(root);
}

ATF_TC_WITHOUT_HEAD(unreadable_path_is_reported);
ATF_TC_BODY(unreadable_path_is_reported, tc)
{
	FILE *f = fmemopen(output, sizeof output, "w");
	struct tl_writer *w = tl_writer_new(TL_OUTPUT_JSON, f, false);
	struct tl_result r;
	memset(&r, 0, sizeof r);
	tl_writer_begin(w, "missing");
	tl_writer_end(w, &r, TL_E_IO, "cannot open missing: No such file or directory");
	ATF_REQUIRE_EQ(tl_writer_finish(w), 0);
	fclose(f);
	json_object *root = json_tokener_parse(output);
	ATF_REQUIRE(root != NULL);
	json_object *file = json_object_array_get_idx(json_object_object_get(root, "files"), 0);
	ATF_CHECK(!json_object_get_boolean(json_object_object_get(file, "valid")));
	ATF_CHECK(strstr(json_object_get_string(json_object_object_get(file, "error")),
			 "No such file") != NULL);
	json_object_put(root);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, text_follows_the_compiler_convention);
	ATF_TP_ADD_TC(tp, quiet_text_prints_only_the_verdict);
	ATF_TP_ADD_TC(tp, json_document);
	ATF_TP_ADD_TC(tp, sarif_log);
	ATF_TP_ADD_TC(tp, unreadable_path_is_reported);
	return atf_no_error();
}
