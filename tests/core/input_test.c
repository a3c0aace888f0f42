/* Input mapping: files are mapped whole, directories recognised, errors said. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(data, 1, n, f), n);
	fclose(f);
}

ATF_TC_WITHOUT_HEAD(maps_a_file);
ATF_TC_BODY(maps_a_file, tc)
{
	struct tl_input in;
	char err[256];
	write_file("f.bin", "hello", 5);
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	ATF_CHECK_EQ(in.size, 5u);
	ATF_CHECK(!in.is_directory);
	ATF_CHECK(memcmp(in.data, "hello", 5) == 0);
	/* Releasing pages already read must not change what is mapped. */
	tl_input_release(&in, 5);
	ATF_CHECK(memcmp(in.data, "hello", 5) == 0);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(empty_file_has_no_data);
ATF_TC_BODY(empty_file_has_no_data, tc)
{
	struct tl_input in;
	char err[256];
	write_file("empty", "", 0);
	ATF_REQUIRE(tl_input_open(&in, "empty", err, sizeof err));
	ATF_CHECK_EQ(in.size, 0u);
	ATF_CHECK(in.data == NULL);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(directory_is_flagged);
ATF_TC_BODY(directory_is_flagged, tc)
{
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(mkdir("trace", 0755) == 0);
	ATF_REQUIRE(tl_input_open(&in, "trace", err, sizeof err));
	ATF_CHECK(in.is_directory);
	ATF_CHECK(in.data == NULL);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(missing_file_is_an_error);
ATF_TC_BODY(missing_file_is_an_error, tc)
{
	struct tl_input in;
	char err[256] = "";
	ATF_CHECK(!tl_input_open(&in, "no-such-file", err, sizeof err));
	ATF_CHECK(strstr(err, "cannot open no-such-file") != NULL);
	ATF_CHECK(strstr(err, "No such file") != NULL);
}

ATF_TC_WITHOUT_HEAD(memory_input);
ATF_TC_BODY(memory_input, tc)
{
	struct tl_input in;
	static const char bytes[] = "abc";
	tl_input_from_memory(&in, bytes, 3, "buf");
	ATF_CHECK_EQ(in.size, 3u);
	ATF_CHECK_STREQ(in.name, "buf");
	tl_input_release(&in, 3); /* a no-op for memory, and must not crash */
	tl_input_close(&in);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, maps_a_file);
	ATF_TP_ADD_TC(tp, empty_file_has_no_data);
	ATF_TP_ADD_TC(tp, directory_is_flagged);
	ATF_TP_ADD_TC(tp, missing_file_is_an_error);
	ATF_TP_ADD_TC(tp, memory_input);
	return atf_no_error();
}
