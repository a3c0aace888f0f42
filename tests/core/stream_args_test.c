/* The streaming API's argument edges (tl_stream_*): an options struct larger
 * than the library's, --werror on a stream without warnings, and no error
 * buffer (NULL, or of length 0) where a stream cannot start or finishes
 * stepping: the status says what happened and the buffer is left alone. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "tracelint.h"

/* Feeds a corpus file whole (XRay: validated in steps) and finishes. */
static enum tl_status stream(const struct tl_options *o, const char *rel, struct tl_result *r, char *err,
			     size_t errlen)
{
	char path[4096], why[512];
	snprintf(path, sizeof path, "%s/corpus/%s", TL_SOURCE_DIR, rel);
	struct tl_input in;
	ATF_REQUIRE_MSG(tl_input_open(&in, path, why, sizeof why), "%s", why);
	struct tl_stream *s = tl_stream_new(TL_FORMAT_XRAY, "s", o, NULL, 0);
	ATF_REQUIRE(s != NULL);
	ATF_REQUIRE_EQ(tl_stream_feed(s, in.data, in.size), TL_OK);
	tl_input_close(&in);
	return tl_stream_finish(s, r, err, errlen);
}

ATF_TC_WITHOUT_HEAD(options_larger_than_ours);
ATF_TC_BODY(options_larger_than_ours, tc)
{
	/* A newer caller's struct: ours is a prefix of it, the rest ignored. */
	union {
		struct tl_options o;
		unsigned char bytes[sizeof(struct tl_options) + 64];
	} big;
	memset(&big, 0x5a, sizeof big);
	tl_options_init(&big.o);
	big.o.struct_size = sizeof big;
	struct tl_result r;
	ATF_CHECK_EQ(stream(&big.o, "xray/invalid/header-version.xray", &r, NULL, 0), TL_OK);
	ATF_CHECK(!r.valid);
	ATF_CHECK(r.errors > 0);
	ATF_CHECK_EQ(r.format, TL_FORMAT_XRAY);
}

ATF_TC_WITHOUT_HEAD(werror_without_warnings);
ATF_TC_BODY(werror_without_warnings, tc)
{
	const char *good = "xray/valid/gen-fdr-v3-le.xray";
	struct tl_options o;
	struct tl_result r;
	tl_options_init(&o);
	o.werror = true;
	char err[16] = "untouched";
	/* Finishing a stepped stream with a buffer of length 0, then none. */
	ATF_CHECK_EQ(stream(&o, good, &r, err, 0), TL_OK);
	ATF_CHECK(r.valid);
	ATF_CHECK_EQ(r.warnings, 0);
	ATF_CHECK_STREQ(err, "untouched");
	ATF_CHECK_EQ(stream(&o, good, &r, NULL, 0), TL_OK);
	ATF_CHECK(r.valid);
}

ATF_TC_WITHOUT_HEAD(no_temporary_file);
ATF_TC_BODY(no_temporary_file, tc)
{
	struct tl_options o;
	tl_options_init(&o);
	ATF_REQUIRE(setenv("TMPDIR", "/nonexistent-tmpdir", 1) == 0);
	char err[256] = "untouched";
	ATF_CHECK(tl_stream_new(TL_FORMAT_XRAY, "s", &o, NULL, 0) == NULL);
	ATF_CHECK(tl_stream_new(TL_FORMAT_XRAY, "s", &o, err, 0) == NULL);
	ATF_CHECK_STREQ(err, "untouched");
	ATF_CHECK(tl_stream_new(TL_FORMAT_XRAY, "s", &o, err, sizeof err) == NULL);
	ATF_CHECK_MSG(strstr(err, "cannot make a file for the stream in /nonexistent-tmpdir") == err, "%s", err);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, options_larger_than_ours);
	ATF_TP_ADD_TC(tp, werror_without_warnings);
	ATF_TP_ADD_TC(tp, no_temporary_file);
	return atf_no_error();
}
