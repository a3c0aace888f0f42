/* Streams that cannot validate in steps (an option the stepper does not
 * take, compressed bytes, fewer bytes than it takes to start) are validated
 * whole when they finish, with the verdict a file would get, and a refusal
 * while stepping ends them as it would a file; --werror and a
 * caller's options struct of another size apply as they do to files. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"

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

/* Feeds data in chunks of 7 bytes and finishes. */
static enum tl_status stream(enum tl_format_id fmt, const struct tl_options *o, const uint8_t *data, size_t size,
			     struct tl_result *r, char *err, size_t errlen)
{
	struct tl_stream *s = tl_stream_new(fmt, "s", o, err, errlen);
	ATF_REQUIRE(s != NULL);
	for (size_t at = 0; at < size; at += 7)
		ATF_REQUIRE_EQ(tl_stream_feed(s, data + at, size - at < 7 ? size - at : 7), TL_OK);
	return tl_stream_finish(s, r, err, errlen);
}

ATF_TC_WITHOUT_HEAD(whole_when_steps_cannot_start);
ATF_TC_BODY(whole_when_steps_cannot_start, tc)
{
	size_t size;
	uint8_t *data = slurp("xray/valid/gen-fdr-v3-le.xray", &size);
	struct tl_options o;
	struct tl_result r;
	char err[512] = "";
	tl_options_init(&o);
	/* --pair is for DCFG-trace: refused at the end, as for a file. */
	o.pair_path = "elsewhere.json";
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, err, sizeof err), TL_E_USAGE);
	ATF_CHECK_MSG(strstr(err, "--pair") != NULL, "%s", err);
	o.pair_path = NULL;
	/* zstd bytes: decompressed and validated whole. */
	size_t zn;
	uint8_t *z = slurp("xray/valid/real-fdr-v5-zstd.xray.zst", &zn);
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, z, zn, &r, err, sizeof err), TL_OK);
	ATF_CHECK_MSG(r.valid, "%s", err);
	/* Five bytes: too few to start steps; the whole is a short trace. */
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, 5, &r, NULL, 0), TL_OK);
	ATF_CHECK(!r.valid);
	ATF_CHECK(r.errors > 0);
	/* A refusal while stepping (the instrumentation map cannot be read). */
	o.instr_map_path = "/nonexistent/map.elf";
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, err, sizeof err), TL_E_USAGE);
	ATF_CHECK_MSG(strstr(err, "/nonexistent/map.elf") != NULL, "%s", err);
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, NULL, 0), TL_E_USAGE);
	free(z);
	free(data);
}

ATF_TC_WITHOUT_HEAD(werror_and_struct_sizes);
ATF_TC_BODY(werror_and_struct_sizes, tc)
{
	size_t size;
	uint8_t *data = slurp("xray/invalid/header-version.xray", &size);
	static const struct tl_rule_setting warn_all[] = { { "*", TL_RULE_WARNING } };
	struct tl_options o;
	struct tl_result r;
	tl_options_init(&o);
	o.rule_settings = warn_all;
	o.rule_setting_count = 1;
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, NULL, 0), TL_OK);
	ATF_CHECK(r.warnings > 0);
	ATF_CHECK_EQ(r.errors, 0);
	ATF_CHECK(r.valid);
	o.werror = true;
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, NULL, 0), TL_OK);
	ATF_CHECK(!r.valid);
	/* A struct_size the library does not know: the struct is taken whole. */
	o.werror = false;
	o.struct_size = 0;
	ATF_CHECK_EQ(stream(TL_FORMAT_XRAY, &o, data, size, &r, NULL, 0), TL_OK);
	ATF_CHECK(r.valid);
	ATF_CHECK(r.warnings > 0);
	free(data);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, whole_when_steps_cannot_start);
	ATF_TP_ADD_TC(tp, werror_and_struct_sizes);
	return atf_no_error();
}
