/* Bytes in memory (tl_validate_buffer) and streams (tl_stream_*) named like
 * a trace are judged as that format, as tl_validate_path judges a file of
 * that name: the same format, counts, rules and verdict, for empty, damaged,
 * misnamed and cut-short compressed content; a name that binds nothing
 * leaves the format to the content. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracelint.h"

struct outcome {
	enum tl_status status;
	struct tl_result r;
	char rules[256];   /* the rule IDs reported, space-separated */
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct outcome *o = user;
	size_t n = strlen(o->rules);
	snprintf(o->rules + n, sizeof o->rules - n, "%s ", d->rule->id);
}

static void options(struct tl_options *opts, struct outcome *o)
{
	memset(o, 0, sizeof *o);
	tl_options_init(opts);
	opts->on_diag = collect;
	opts->user = o;
}

static void by_path(const char *name, const void *data, size_t size, struct outcome *o)
{
	struct tl_options opts;
	options(&opts, o);
	FILE *f = fopen(name, "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(data, 1, size, f), size);
	fclose(f);
	o->status = tl_validate_path(name, &opts, &o->r, NULL, 0);
	unlink(name);
}

static void by_buffer(const char *name, const void *data, size_t size, struct outcome *o)
{
	struct tl_options opts;
	options(&opts, o);
	o->status = tl_validate_buffer(data, size, name, &opts, &o->r, NULL, 0);
}

/* Fed 3 bytes at a time, the format left to the library. */
static void by_stream(const char *name, const void *data, size_t size, struct outcome *o)
{
	struct tl_options opts;
	options(&opts, o);
	struct tl_stream *s = tl_stream_new(TL_FORMAT_AUTO, name, &opts, NULL, 0);
	ATF_REQUIRE(s != NULL);
	for (size_t at = 0; at < size; at += 3)
		ATF_REQUIRE_EQ(tl_stream_feed(s, (const uint8_t *)data + at, size - at < 3 ? size - at : 3), TL_OK);
	o->status = tl_stream_finish(s, &o->r, NULL, 0);
}

static bool same(const char *what, const char *name, const struct outcome *a, const struct outcome *b)
{
	bool ok = a->status == b->status && a->r.format == b->r.format && a->r.valid == b->r.valid &&
		  a->r.errors == b->r.errors && a->r.warnings == b->r.warnings && !strcmp(a->rules, b->rules);
	if (!ok)
		fprintf(stderr, "%s %s: status %d/%d, format %d/%d, valid %d/%d, errors %llu/%llu, rules '%s'/'%s'\n",
			what, name, a->status, b->status, a->r.format, b->r.format, a->r.valid, b->r.valid,
			(unsigned long long)a->r.errors, (unsigned long long)b->r.errors, a->rules, b->rules);
	return ok;
}

/* The three entries agree on name with data; the path's outcome is returned. */
static void judged_alike(const char *name, const void *data, size_t size, struct outcome *path)
{
	struct outcome buf, str;
	by_path(name, data, size, path);
	by_buffer(name, data, size, &buf);
	by_stream(name, data, size, &str);
	ATF_CHECK(same("buffer", name, path, &buf));
	ATF_CHECK(same("stream", name, path, &str));
}

static uint8_t *slurp(const char *rel, size_t *size)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/corpus/%s", TL_SOURCE_DIR, rel);
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE_MSG(f != NULL, "%s", path);
	uint8_t *buf = malloc(1 << 20);
	ATF_REQUIRE(buf != NULL);
	*size = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

ATF_TC_WITHOUT_HEAD(names_bind_empty_and_damaged);
ATF_TC_BODY(names_bind_empty_and_damaged, tc)
{
	static const uint8_t zeros[64];
	static const char garbage[] = "garbage\n";
	struct outcome o;
	judged_alike("run.xray", "", 0, &o);
	ATF_CHECK_EQ(o.status, TL_OK);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_XRAY);
	ATF_CHECK(!o.r.valid && o.r.errors > 0);
	judged_alike("xray-log.app.1", zeros, sizeof zeros, &o);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_XRAY);
	ATF_CHECK(!o.r.valid);
	judged_alike("run.tf", garbage, sizeof garbage - 1, &o);
	ATF_CHECK_EQ(o.status, TL_OK);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_TFILE);
	ATF_CHECK_MSG(strstr(o.rules, "TFILE-HEADER-MAGIC") != NULL, "%s", o.rules);
	judged_alike("run.dcfg.json", "{\"MAJOR_VERSION\":", 17, &o);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_DCFG);
	ATF_CHECK_MSG(strstr(o.rules, "JSON-SYNTAX") != NULL, "%s", o.rules);
}

ATF_TC_WITHOUT_HEAD(misnamed_content);
ATF_TC_BODY(misnamed_content, tc)
{
	size_t size;
	uint8_t *tf = slurp("tfile/valid/zero-tail.tf", &size);
	struct outcome o;
	judged_alike("run.xray", tf, size, &o);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_XRAY);
	ATF_CHECK_STREQ(o.rules, "TL-FORMAT-NAME ");
	/* under a name that binds nothing, the content decides */
	judged_alike("capture.bin", tf, size, &o);
	ATF_CHECK_EQ(o.status, TL_OK);
	ATF_CHECK_EQ(o.r.format, TL_FORMAT_TFILE);
	ATF_CHECK(o.r.valid);
	free(tf);
}

ATF_TC_WITHOUT_HEAD(unbound_names_are_not_judged);
ATF_TC_BODY(unbound_names_are_not_judged, tc)
{
	struct outcome o;
	judged_alike("notes.txt", "", 0, &o);
	ATF_CHECK_EQ(o.status, TL_E_UNKNOWN_FORMAT);
}

/* A gzip trace cut short: TL-COMPRESSED-STREAM by path and by stream; under
 * a name that binds nothing the path stays unreadable. (A buffer is not
 * decompressed, so it is left out.) */
ATF_TC_WITHOUT_HEAD(cut_compressed_stream);
ATF_TC_BODY(cut_compressed_stream, tc)
{
	size_t size;
	uint8_t *gz = slurp("xray/invalid/cut-gzip.xray.gz", &size);
	struct outcome path, str;
	by_path("run.xray.gz", gz, size, &path);
	by_stream("run.xray.gz", gz, size, &str);
	ATF_CHECK_EQ(path.status, TL_OK);
	ATF_CHECK_EQ(path.r.format, TL_FORMAT_XRAY);
	ATF_CHECK(!path.r.valid);
	ATF_CHECK_STREQ(path.rules, "TL-COMPRESSED-STREAM ");
	ATF_CHECK(same("stream", "run.xray.gz", &path, &str));
	by_path("capture.gz", gz, size, &path);
	by_stream("capture.gz", gz, size, &str);
	ATF_CHECK_EQ(path.status, TL_E_IO);
	ATF_CHECK_EQ(str.status, TL_E_IO);
	free(gz);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, names_bind_empty_and_damaged);
	ATF_TP_ADD_TC(tp, misnamed_content);
	ATF_TP_ADD_TC(tp, unbound_names_are_not_judged);
	ATF_TP_ADD_TC(tp, cut_compressed_stream);
	return atf_no_error();
}
