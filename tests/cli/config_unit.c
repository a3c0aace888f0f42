/* The CLI's config files, globs and baselines, call by call: every key and
 * value the INI format takes or refuses, with the line and column it names,
 * the .gitignore-style globs, and baseline files that are not baselines. */
#include "baseline.h"
#include "cli.h"
#include "config.h"
#include "config_file.h"
#include "glob.h"

#include <atf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ATF_REQUIRE(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* Loads text as a config; returns whether it loaded, with the error in err. */
static bool load(const char *text, struct config_file *f, char *err, size_t errlen)
{
	write_file("t.ini", text);
	err[0] = '\0';
	bool ok = config_file_load(f, "t.ini", err, errlen);
	if (!ok)
		config_file_free(f);
	return ok;
}

static void refused(const char *text, const char *expected)
{
	struct config_file f;
	char err[512];
	ATF_CHECK_MSG(!load(text, &f, err, sizeof err), "accepted: %s", text);
	ATF_CHECK_MSG(strstr(err, expected) != NULL, "%s: got '%s', expected '%s'", text, err, expected);
}

ATF_TC_WITHOUT_HEAD(every_key);
ATF_TC_BODY(every_key, tc)
{
	struct config_file f;
	char err[512];
	ATF_REQUIRE_MSG(load("# comment\n; another\n[tracelint]\nselect = xray, tfile\nselect = TFILE-*\n"
			     "ignore = XRAY-FDR-PREAMBLE\nerror = XRAY-HEADER-FLAGS\nwarning = tfile\n"
			     "note = XRAY-FDR-EXTENTS-EMPTY\ndefault = XRAY-FDR-PREAMBLE\nwerror = true\n"
			     "max-errors = 7\nthreads = 3\nformat = xray\nendian = big\npair = {dir}/{stem}.dcfg.json\n"
			     "instr-map = bin/app\nexclude = build/ tmp\nexclude = *.tmp\nunknown-format = error\n"
			     "[path \"a/**\"]\nwerror = false\n[tracelint]\nignore: XRAY-FDR-KIND-VERSION\n",
			     &f, err, sizeof err), "%s", err);
	ATF_REQUIRE_EQ(f.section_count, 2u);
	struct config_section *g = &f.sections[0];
	ATF_CHECK(g->glob == NULL);
	/* select turns the rest off once, then each pattern in order */
	ATF_REQUIRE(g->rule_count >= 4);
	ATF_CHECK_STREQ(g->rules[0].pattern, "*");
	ATF_CHECK_EQ(g->rules[0].action, TL_RULE_OFF);
	ATF_CHECK_STREQ(g->rules[1].pattern, "xray");
	ATF_CHECK_STREQ(g->rules[3].pattern, "TFILE-*");
	ATF_CHECK_STREQ(g->rules[g->rule_count - 1].pattern, "XRAY-FDR-KIND-VERSION");
	ATF_CHECK_EQ(g->werror, 1);
	ATF_CHECK_EQ(g->max_errors, 7);
	ATF_CHECK_EQ(g->threads, 3);
	ATF_CHECK_EQ(f.sections[1].threads, -1);
	ATF_CHECK_EQ(g->format, TL_FORMAT_XRAY);
	ATF_CHECK_EQ(g->endian, TL_ENDIAN_BIG);
	ATF_CHECK_STREQ(g->pair, "{dir}/{stem}.dcfg.json");
	ATF_CHECK_STREQ(g->instr_map, "bin/app");
	ATF_CHECK_EQ(f.exclude_count, 3u);
	ATF_CHECK_EQ(f.unknown_format, 1);
	ATF_CHECK_STREQ(f.sections[1].glob, "a/**");
	ATF_CHECK_EQ(f.sections[1].werror, 0);
	config_file_free(&f);
}

ATF_TC_WITHOUT_HEAD(refusals_name_their_place);
ATF_TC_BODY(refusals_name_their_place, tc)
{
	refused("[tracelint]\nmax-errors = many\n", "t.ini:2:14: max-errors: expected a whole number, found 'many'");
	refused("[tracelint]\nmax-errors = 99999999999\n", "max-errors: expected a whole number");
	refused("[tracelint]\nthreads = 0\n", "t.ini:2:11: threads: expected a number of threads from 1 to 64, found '0'");
	refused("[tracelint]\nthreads = 65\n", "threads: expected a number of threads from 1 to 64, found '65'");
	refused("[tracelint]\nformat = pdf\n", "t.ini:2:10: format: unknown format 'pdf'");
	refused("[tracelint]\nwerror = maybe\n", "t.ini:2:10: werror: unknown value 'maybe'");
	refused("[tracelint]\nunknown-format = ask\n", "unknown-format: unknown value 'ask'");
	refused("[tracelint]\nselect = NOPE-*\n", "t.ini:2:10: select: 'NOPE-*' matches no rule");
	refused("[path \"x\"]\nunknown-format = skip\n", "unknown key 'unknown-format' in a [path] section");
	refused("[path x]\nwerror = true\n", "expected a section [tracelint] or [path \"GLOB\"], found [path x]");
	refused("werror = true\n", "t.ini:1:1: expected 'werror' inside a section");
	refused("[tracelint]\n   [unclosed\n", "t.ini:2:13: expected ']' to close the section name");
	refused("[tracelint]\nwhat is this\n", "t.ini:2:1: expected [SECTION], KEY = VALUE");
	/* the first error is the one reported */
	refused("[tracelint]\nformat = pdf\nendian = middle\n", "t.ini:2:");
	char longline[400];
	memset(longline, 'x', sizeof longline);
	memcpy(longline, "[tracelint]\nexclude = ", 22);
	longline[sizeof longline - 2] = '\n';
	longline[sizeof longline - 1] = '\0';
	refused(longline, "expected lines of at most");
	struct config_file f;
	char err[256];
	ATF_CHECK(!config_file_load(&f, "no-such-file.ini", err, sizeof err));
	config_file_free(&f);
	ATF_CHECK(strstr(err, "cannot read the config no-such-file.ini") != NULL);
}

ATF_TC_WITHOUT_HEAD(globs);
ATF_TC_BODY(globs, tc)
{
	static const struct { const char *pattern, *path; bool match; } cases[] = {
		{ "*.xray", "a/b/c.xray", true },       /* no '/': any depth */
		{ "*.xray", "a/b/c.tf", false },
		{ "build", "build/x/y.xray", true },     /* a directory holds its files */
		{ "build/", "src/build/y.xray", true },  /* trailing '/' only says directory */
		{ "traces/*.xray", "traces/a.xray", true },
		{ "traces/*.xray", "x/traces/a.xray", false }, /* anchored */
		{ "/traces", "traces/a/b.xray", true },
		{ "a/**/z.tf", "a/z.tf", true },         /* ** spans zero directories */
		{ "a/**/z.tf", "a/b/c/d/z.tf", true },
		{ "a/**/z.tf", "a/b/c/d/y.tf", false },
		{ "**/be/*.tf", "x/y/be/t.tf", true },
		{ "a/**", "a/b/c", true },
		{ "a/[bc]/?.tf", "a/c/1.tf", true },
		{ "a/[bc]/?.tf", "a/d/1.tf", false },
		{ "./a/*.tf", "a/x.tf", true },           /* "." components are nothing */
		{ "a/*/c", "a/b/c", true },
		{ "a/*/c", "a/b/x/c", false },           /* '*' stays in one component */
		{ "", "a", false },
		{ "a", "", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ATF_CHECK_EQ_MSG(cli_glob_match(cases[i].pattern, cases[i].path), cases[i].match,
				 "%s vs %s", cases[i].pattern, cases[i].path);
	/* many '**' against a deep path: one pass over the pairs, not an explosion */
	char pattern[400] = "", path[4096] = "";
	for (int i = 0; i < 40; i++)
		strcat(pattern, "**/");
	strcat(pattern, "never");
	for (int i = 0; i < 500; i++)
		strcat(path, "d/");
	strcat(path, "f");
	ATF_CHECK(!cli_glob_match(pattern, path));
}

ATF_TC_WITHOUT_HEAD(resolution_order);
ATF_TC_BODY(resolution_order, tc)
{
	struct cli c;
	memset(&c, 0, sizeof c);
	tl_options_init(&c.opts);
	c.unknown_format = -1;
	/* globs are matched against real paths below the config's directory */
	ATF_REQUIRE(system("mkdir -p sub other") == 0);
	write_file("team.ini", "[path \"sub/*.xray\"]\nmax-errors = 3\nendian = little\n"
			       "instr-map = {dir}/{name}.bin\n[tracelint]\nmax-errors = 9\nendian = big\n"
			       "format = xray\nunknown-format = skip\n");
	c.config_path = "team.ini";
	char err[512];
	struct cli_configs *cc = cli_configs_new(&c, err, sizeof err);
	ATF_REQUIRE_MSG(cc != NULL, "%s", err);
	struct cli_file_options o;
	ATF_REQUIRE(cli_configs_resolve(cc, &c, "sub/t.xray", false, &o, err, sizeof err));
	ATF_CHECK_EQ(o.opts.max_errors, 3u);          /* [path] after [tracelint] */
	ATF_CHECK_EQ(o.opts.endian, TL_ENDIAN_LITTLE);
	ATF_CHECK_EQ(o.opts.format, TL_FORMAT_XRAY);
	ATF_REQUIRE(o.opts.instr_map_path != NULL);
	ATF_CHECK_STREQ(o.opts.instr_map_path, "sub/t.xray.bin");
	ATF_CHECK(o.skip_unknown);                      /* the config's unknown-format */
	cli_file_options_free(&o);
	ATF_REQUIRE(cli_configs_resolve(cc, &c, "other/t.xray", true, &o, err, sizeof err));
	ATF_CHECK_EQ(o.opts.max_errors, 9u);
	ATF_CHECK_EQ(o.opts.endian, TL_ENDIAN_BIG);
	cli_file_options_free(&o);
	/* the command line wins */
	c.max_errors_given = c.endian_given = c.format_given = true;
	c.opts.max_errors = 1;
	c.opts.endian = TL_ENDIAN_AUTO;
	c.opts.format = TL_FORMAT_TFILE;
	c.unknown_format = 1;
	ATF_REQUIRE(cli_configs_resolve(cc, &c, "sub/t.xray", true, &o, err, sizeof err));
	ATF_CHECK_EQ(o.opts.max_errors, 1u);
	ATF_CHECK_EQ(o.opts.endian, TL_ENDIAN_AUTO);
	ATF_CHECK_EQ(o.opts.format, TL_FORMAT_TFILE);
	ATF_CHECK(!o.skip_unknown);
	cli_file_options_free(&o);
	/* standard input: the working directory's config (here: the named one) */
	ATF_REQUIRE(cli_configs_resolve(cc, &c, "-", false, &o, err, sizeof err));
	cli_file_options_free(&o);
	cli_configs_free(cc);
	c.config_path = "missing.ini";
	ATF_CHECK(cli_configs_new(&c, err, sizeof err) == NULL);
	ATF_CHECK(strstr(err, "missing.ini") != NULL);
}

static void count_gone(const char *path, const char *rule, const char *message, void *user)
{
	(void)path, (void)rule;
	size_t *n = user;
	ATF_CHECK_STREQ(message, *n == 0 ? "third" : "fourth");
	++*n;
}

ATF_TC_WITHOUT_HEAD(baseline_files);
ATF_TC_BODY(baseline_files, tc)
{
	struct baseline_known b;
	char err[512];
	static const struct { const char *text, *expected; } bad[] = {
		{ "[]", "expected a tracelint baseline" },
		{ "{\"baseline\": 3, \"diagnostics\": []}", "expected a tracelint baseline" },
		{ "{\"baseline\": 1}", "expected a tracelint baseline" },
		{ "{\"baseline\": 1, \"diagnostics\": {}}", "expected a tracelint baseline" },
		{ "{\"baseline\": 1, \"diagnostics\": [{\"path\": 1, \"rule\": \"R\", \"fingerprint\": \"0123456789abcdef\"}]}",
		  "diagnostics[0]" },
		{ "{\"baseline\": 1, \"diagnostics\": [{\"path\": \"p\", \"rule\": \"R\", \"fingerprint\": \"0123456789ABCDEF\"}]}",
		  "16-hex-digit" },
		{ "{\"baseline\": 1, \"diagnostics\": [7]}", "diagnostics[0]" },
		{ "{\"baseline\": 1, \"diagnostics\": []} x", "not JSON" },
		{ "{\"baseline\": 1, \"x\": [1, {\"a\": [tru]}], \"diagnostics\": []}", "not JSON" },
		{ "{\"baseline\": 1, \"diagnostics\": [{\"path\": \"p\\q\"}]}", "not JSON" },
		{ "", "not JSON" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		write_file("b.json", bad[i].text);
		ATF_CHECK_MSG(!baseline_load(&b, "b.json", err, sizeof err), "%s", bad[i].text);
		ATF_CHECK_MSG(strstr(err, bad[i].expected) != NULL, "%s: %s", bad[i].text, err);
		baseline_known_free(&b);
	}
	/* any other member, nested any way, is skipped */
	write_file("b.json", "{\"x\": {\"y\": [[], {}, [1, -2.5e3, \"s\\u00e9\", null, true]]}, \"baseline\": 2, "
			     "\"diagnostics\": [], \"z\": {}}");
	ATF_CHECK_MSG(baseline_load(&b, "b.json", err, sizeof err), "%s", err);
	ATF_CHECK_EQ(b.version, 2);
	baseline_known_free(&b);
	/* two entries of one fingerprint match twice, then no more; no message is fine */
	write_file("b.json", "{\"baseline\": 1, \"diagnostics\": ["
			     "{\"path\": \"p\", \"rule\": \"R\", \"fingerprint\": \"00000000000000aa\"},"
			     "{\"path\": \"p\", \"rule\": \"R\", \"fingerprint\": \"00000000000000bb\", \"message\": \"m\"},"
			     "{\"path\": \"p\", \"rule\": \"R\", \"fingerprint\": \"00000000000000aa\", \"message\": \"third\"},"
			     "{\"path\": \"p\", \"rule\": \"R\", \"fingerprint\": \"00000000000000cc\", \"message\": \"fourth\"}]}");
	ATF_REQUIRE_MSG(baseline_load(&b, "b.json", err, sizeof err), "%s", err);
	ATF_CHECK_EQ(b.entries, 4u);
	ATF_CHECK(baseline_match(&b, 0xaa));
	ATF_CHECK(baseline_match(&b, 0xbb));
	ATF_CHECK(!baseline_match(&b, 0xbb));
	ATF_CHECK(!baseline_match(&b, 0xdd));
	ATF_CHECK(!baseline_match(&b, 0));
	/* the second 0xaa and the 0xcc are gone, in the file's order */
	size_t gone = 0;
	ATF_CHECK_MSG(baseline_each_gone(&b, count_gone, &gone, err, sizeof err), "%s", err);
	ATF_CHECK_EQ(gone, 2u);
	baseline_known_free(&b);
	/* a target that is not a regular file is refused; a missing directory fails before the run */
	struct baseline_out out;
	ATF_CHECK(!baseline_out_open(&out, "no-such-dir/b.json", false, err, sizeof err));
	ATF_CHECK(strstr(err, "cannot write the baseline no-such-dir/b.json") != NULL);
	ATF_CHECK(!baseline_out_open(&out, ".", false, err, sizeof err));
	ATF_CHECK(strstr(err, "directory") != NULL);
	ATF_REQUIRE(symlink("b.json", "link.json") == 0);
	ATF_CHECK(!baseline_out_open(&out, "link.json", false, err, sizeof err));
	ATF_CHECK(strstr(err, "symbolic link") != NULL);
	ATF_REQUIRE_MSG(baseline_out_open(&out, "copy.json", false, err, sizeof err), "%s", err);
	baseline_out_add(&out, "p", "R", 0xaa, "m\x1b");
	baseline_out_add(&out, "q", "R", 0xaa, "");
	ATF_REQUIRE_MSG(baseline_out_commit(&out, err, sizeof err), "%s", err);
	ATF_REQUIRE_MSG(baseline_load(&b, "copy.json", err, sizeof err), "%s", err);
	ATF_CHECK_EQ(b.entries, 2u);
	ATF_CHECK_EQ(b.version, 2);
	ATF_CHECK(baseline_match(&b, 0xaa) && baseline_match(&b, 0xaa) && !baseline_match(&b, 0xaa));
	baseline_known_free(&b);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, every_key);
	ATF_TP_ADD_TC(tp, refusals_name_their_place);
	ATF_TP_ADD_TC(tp, globs);
	ATF_TP_ADD_TC(tp, resolution_order);
	ATF_TP_ADD_TC(tp, baseline_files);
	return atf_no_error();
}
