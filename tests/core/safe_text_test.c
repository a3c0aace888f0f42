/* safe_text.c: UTF-8 validation and repair, escapes and URI encoding. */
#include <atf-c.h>

#include <string.h>

#include "safe_text.h"

ATF_TC_WITHOUT_HEAD(utf8_validity);
ATF_TC_BODY(utf8_validity, tc)
{
	ATF_CHECK(tl_utf8_valid("plain"));
	ATF_CHECK(tl_utf8_valid("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	ATF_CHECK(!tl_utf8_valid("\xff"));
	ATF_CHECK(!tl_utf8_valid("\xc0\xaf"));         /* overlong '/' */
	ATF_CHECK(!tl_utf8_valid("\xed\xa0\x80"));     /* a surrogate */
	ATF_CHECK(!tl_utf8_valid("\xf4\x90\x80\x80")); /* above U+10FFFF */
	ATF_CHECK(!tl_utf8_valid("\xe2\x82"));         /* cut short */
}

ATF_TC_WITHOUT_HEAD(repair_reads_bad_bytes_as_latin1);
ATF_TC_BODY(repair_reads_bad_bytes_as_latin1, tc)
{
	char out[64];
	tl_utf8_repair(out, sizeof out, "a\xff\xc3\xa9\xe2\x82");
	ATF_CHECK_STREQ(out, "a\xc3\xbf\xc3\xa9\xc3\xa2\xc2\x82");
	ATF_CHECK(tl_utf8_valid(out));
	/* cut at a sequence boundary when out is small */
	tl_utf8_repair(out, 4, "a\xff\xff");
	ATF_CHECK_STREQ(out, "a\xc3\xbf");
}

ATF_TC_WITHOUT_HEAD(escapes_and_uris);
ATF_TC_BODY(escapes_and_uris, tc)
{
	char out[128];
	tl_text_escape(out, sizeof out, "a\nb\x1b[0m\\c\x7f\xc3\xa9");
	ATF_CHECK_STREQ(out, "a\\x0ab\\x1b[0m\\c\\x7f\xc3\xa9");
	tl_uri_encode(out, sizeof out, "dir/sp ace#%?\xff~.x");
	ATF_CHECK_STREQ(out, "dir/sp%20ace%23%25%3F%FF~.x");
	tl_hex_of(out, sizeof out, "A\xfe");
	ATF_CHECK_STREQ(out, "41fe");
	tl_uri_encode(out, 5, "%%%");
	ATF_CHECK_STREQ(out, "%25");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, utf8_validity);
	ATF_TP_ADD_TC(tp, repair_reads_bad_bytes_as_latin1);
	ATF_TP_ADD_TC(tp, escapes_and_uris);
	return atf_no_error();
}
