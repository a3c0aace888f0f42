/* Writers and helpers at their edges: paths of members, fingerprints of
 * diagnostics without a path or message, colours of each severity, reports
 * that end without a reason or cannot be written, small output buffers,
 * windows moved past the end or over memory, errors with no buffer. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"
#include "safe_text.h"
#include "window.h"
#include "writer.h"

ATF_TC_WITHOUT_HEAD(member_paths);
ATF_TC_BODY(member_paths, tc)
{
	/* path, member, shown: a member already named by the path is not repeated;
	 * a name that only ends like the member is not the member. */
	static const char *const cases[][3] = {
		{ "t", NULL, "t" },
		{ "t", "exec.vtable", "t/exec.vtable" },
		{ "t/", "exec.vtable", "t/exec.vtable" },
		{ "t/exec.vtable", "exec.vtable", "t/exec.vtable" },
		{ "exec.vtable", "exec.vtable", "exec.vtable" },
		{ "t/myexec.vtable", "exec.vtable", "t/myexec.vtable/exec.vtable" },
		{ "", "exec.vtable", "/exec.vtable" },
	};
	char buf[256];
	struct tl_diagnostic d;
	memset(&d, 0, sizeof d);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		d.loc.member = cases[i][1];
		tl_diag_path(buf, sizeof buf, cases[i][0], &d);
		ATF_CHECK_STREQ_MSG(buf, cases[i][2], "%s + %s", cases[i][0], cases[i][1] ? cases[i][1] : "-");
	}
}

ATF_TC_WITHOUT_HEAD(fingerprints_without_path_or_message);
ATF_TC_BODY(fingerprints_without_path_or_message, tc)
{
	char a[17], b[17];
	struct tl_diagnostic d;
	memset(&d, 0, sizeof d);
	d.rule = tl_rule_at(0);
	tl_diagnostic_fingerprint(a, sizeof a, NULL, &d);
	tl_diagnostic_fingerprint(b, sizeof b, "", &d);
	ATF_CHECK_STREQ(a, b);
	ATF_CHECK_EQ(strlen(a), 16);
	d.message = "";
	tl_diagnostic_fingerprint(b, sizeof b, NULL, &d);
	ATF_CHECK_STREQ(a, b);
}

ATF_TC_WITHOUT_HEAD(small_text_buffers);
ATF_TC_BODY(small_text_buffers, tc)
{
	char out[8];
	memset(out, 'x', sizeof out);
	tl_utf8_repair(out, 0, "abc");
	ATF_CHECK_EQ(out[0], 'x');
	tl_utf8_repair(out, 3, "\xc3\xa9\xc3\xa9");
	ATF_CHECK_STREQ(out, "\xc3\xa9");
	tl_text_escape(out, 4, "a\nb");
	ATF_CHECK_STREQ(out, "a");
	tl_hex_of(out, 4, "AB");
	ATF_CHECK_EQ(strlen(out), 2);
}

/* Writes one diagnostic of each severity with colour, ends a file without
 * a reason; returns what was written. */
static void report(enum tl_output_style style, FILE *f)
{
	struct tl_writer *w = tl_writer_new(style, f, false);
	ATF_REQUIRE(w != NULL);
	tl_writer_set_color(w, true);
	tl_writer_begin(w, "a.xray");
	struct tl_diagnostic d;
	memset(&d, 0, sizeof d);
	d.rule = tl_rule_find("XRAY-HEADER-VERSION");
	d.message = "m";
	for (int s = TL_NOTE; s <= TL_ERROR; s++) {
		d.severity = (enum tl_severity)s;
		tl_writer_diag(&d, w);
	}
	struct tl_result r;
	memset(&r, 0, sizeof r);
	tl_writer_end(w, &r, TL_E_IO, NULL);
	tl_writer_begin(w, "-");
	tl_writer_end(w, &r, TL_E_IO, NULL);
	ATF_CHECK_EQ(tl_writer_finish(w), 0);
}

ATF_TC_WITHOUT_HEAD(writers_without_reasons);
ATF_TC_BODY(writers_without_reasons, tc)
{
	for (int style = TL_OUTPUT_TEXT; style <= TL_OUTPUT_SARIF; style++) {
		FILE *f = tmpfile();
		ATF_REQUIRE(f != NULL);
		report((enum tl_output_style)style, f);
		long size = ftell(f);
		rewind(f);
		char *text = malloc((size_t)size + 1);
		ATF_REQUIRE(text != NULL);
		text[fread(text, 1, (size_t)size, f)] = '\0';
		fclose(f);
		ATF_CHECK_MSG(strstr(text, "cannot validate") != NULL, "style %d", style);
		free(text);
	}
	/* Colours differ by severity. */
	FILE *f = tmpfile();
	ATF_REQUIRE(f != NULL);
	report(TL_OUTPUT_TEXT, f);
	rewind(f);
	char text[4096];
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	ATF_CHECK(strstr(text, "\033[01;31m") && strstr(text, "\033[01;35m") && strstr(text, "\033[01;36m"));
	/* A report that cannot be written says so. */
	for (int style = TL_OUTPUT_TEXT; style <= TL_OUTPUT_SARIF; style++) {
		FILE *full = fopen("/dev/full", "w");
		ATF_REQUIRE(full != NULL);
		struct tl_writer *w = tl_writer_new((enum tl_output_style)style, full, false);
		ATF_REQUIRE(w != NULL);
		tl_writer_begin(w, "a.xray");
		struct tl_result r;
		memset(&r, 0, sizeof r);
		r.valid = true;
		tl_writer_end(w, &r, TL_OK, NULL);
		ATF_CHECK_EQ_MSG(tl_writer_finish(w), -1, "style %d", style);
		fclose(full);
	}
	struct tl_writer *w = tl_writer_new(TL_OUTPUT_SARIF, stdout, true);
	ATF_CHECK(!tl_writer_set_source_root(w, "/nonexistent/root"));
	ATF_CHECK(tl_writer_set_source_root(w, "/"));
	ATF_CHECK(tl_writer_set_help_base(w, "https://example.org/"));
	tl_writer_set_baseline(w, false);
	ATF_CHECK_EQ(tl_writer_finish(w), 0);
}

ATF_TC_WITHOUT_HEAD(window_edges);
ATF_TC_BODY(window_edges, tc)
{
	static const char bytes[200] = "window";
	struct tl_input in;
	struct tl_window w;
	tl_input_from_memory(&in, bytes, sizeof bytes, "m");
	/* In place: moving is a no-op, bytes are where they lie. */
	tl_window_open(&w, &in, 0);
	ATF_CHECK(w.buf == NULL);
	tl_window_move(&w, 10);
	ATF_CHECK(w.data == (const uint8_t *)bytes);
	tl_window_close(&w);
	/* A capacity below the minimum is raised; moving past the end leaves nothing. */
	tl_window_open(&w, &in, 1);
	ATF_CHECK_EQ(w.cap, TL_WINDOW_MIN_CAPACITY);
	tl_window_move(&w, 0);
	ATF_CHECK(memcmp(w.data, "window", 6) == 0);
	tl_window_move(&w, 1000);
	ATF_CHECK_EQ(w.start, sizeof bytes);
	ATF_CHECK_EQ(w.len, 0);
	tl_window_close(&w);
}

/* Missing --pair and --instr-map files with no error buffer: the status still tells. */
ATF_TC_WITHOUT_HEAD(unreadable_options_without_buffer);
ATF_TC_BODY(unreadable_options_without_buffer, tc)
{
	char p[4096], trace[4096], err[8] = "unset";
	struct tl_options o;
	struct tl_result r;
	snprintf(p, sizeof p, "%s/corpus/xray/valid/gen-fdr-v3-le.xray", TL_SOURCE_DIR);
	snprintf(trace, sizeof trace, "%s/corpus/dcfg-trace/valid/hello_paired.trace.json", TL_SOURCE_DIR);
	/* No buffer, then a buffer of length 0, which is not written either. */
	for (int i = 0; i < 2; i++) {
		char *e = i ? err : NULL;
		tl_options_init(&o);
		o.format = TL_FORMAT_DCFG_TRACE;
		o.pair_path = "/nonexistent/pair.json";
		ATF_CHECK(tl_validate_path(trace, &o, &r, e, 0) != TL_OK);
		o.format = TL_FORMAT_XRAY;
		o.pair_path = NULL;
		o.instr_map_path = "/nonexistent/map.elf";
		ATF_CHECK(tl_validate_path(p, &o, &r, e, 0) != TL_OK);
	}
	o.instr_map_path = NULL;
	o.pair_path = NULL;
	o.format = TL_FORMAT_COUNT;
	ATF_CHECK_EQ(tl_validate_buffer("zzzz", 4, "z", &o, &r, err, 0), TL_E_USAGE);
	o.format = TL_FORMAT_AUTO;
	ATF_CHECK_EQ(tl_validate_buffer("zzzz", 4, "z", &o, &r, err, 0), TL_E_UNKNOWN_FORMAT);
	ATF_CHECK_STREQ(err, "unset");
	o.stdin_limit = 4;
	struct tl_stream *st = tl_stream_new(TL_FORMAT_XRAY, "s", &o, err, 0);
	ATF_REQUIRE(st != NULL);
	ATF_CHECK_EQ(tl_stream_feed(st, "0123456789", 10), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_finish(st, &r, err, 0), TL_E_IO);
	ATF_CHECK_STREQ(err, "unset");
	enum tl_format_id id;
	tl_options_init(&o);
	ATF_CHECK_EQ(tl_validate_buffer("", 0, "e", &o, &r, NULL, 0), TL_E_UNKNOWN_FORMAT);
	ATF_CHECK_EQ(tl_detect_path("/dev/null", &id, NULL, 0), TL_E_IO);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, member_paths);
	ATF_TP_ADD_TC(tp, fingerprints_without_path_or_message);
	ATF_TP_ADD_TC(tp, small_text_buffers);
	ATF_TP_ADD_TC(tp, writers_without_reasons);
	ATF_TP_ADD_TC(tp, window_edges);
	ATF_TP_ADD_TC(tp, unreadable_options_without_buffer);
	return atf_no_error();
}
