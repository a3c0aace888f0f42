/* Opening a trace directory's members (context.h, tl_open_member): a member
 * missing from an in-memory directory, a directory path too long for a
 * member, a member that cannot be opened for another reason than absence,
 * and a member that is a directory. The caller's error buffer is optional:
 * without one (NULL, or of length 0) the call fails all the same, writes
 * nothing there, and the validation is still marked unreadable with a reason. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "input.h"

struct fixture {
	struct tl_options opts;
	struct tl_result result;
	char why[512];
	struct tl_ctx ctx;
};

static void setup(struct fixture *f, const char *path, const struct tl_member *members, size_t count)
{
	memset(f, 0, sizeof *f);
	tl_options_init(&f->opts);
	struct tl_ctx ctx = { .opts = &f->opts, .result = &f->result, .path = path, .members = members,
			      .member_count = count, .err = f->why, .errlen = sizeof f->why };
	f->ctx = ctx;
}

/* Opens member with no error buffer, then with one of length 0: both fail,
 * the second buffer stays as it was; returns whether the validation was
 * marked unreadable, with its reason in why. */
static bool fails_without_buffer(const char *path, const struct tl_member *members, size_t count,
				 const char *member, char *why, size_t whylen)
{
	struct fixture f;
	struct tl_input in;
	setup(&f, path, members, count);
	ATF_CHECK(!tl_open_member(&f.ctx, member, &in, NULL, 0));
	char err[16] = "untouched";
	setup(&f, path, members, count);
	ATF_CHECK(!tl_open_member(&f.ctx, member, &in, err, 0));
	ATF_CHECK_STREQ(err, "untouched");
	snprintf(why, whylen, "%s", f.why);
	return f.ctx.unreadable;
}

ATF_TC_WITHOUT_HEAD(missing_in_memory);
ATF_TC_BODY(missing_in_memory, tc)
{
	static const struct tl_member members[] = { { "present", "x", 1 } };
	char why[512];
	/* Absence is a property of the trace, not a read failure. */
	ATF_CHECK(!fails_without_buffer("mem", members, 1, "absent", why, sizeof why));
	struct fixture f;
	struct tl_input in;
	char err[64];
	setup(&f, "mem", members, 1);
	ATF_CHECK(!tl_open_member(&f.ctx, "absent", &in, err, sizeof err));
	ATF_CHECK_STREQ(err, "no member absent");
	ATF_REQUIRE(tl_open_member(&f.ctx, "present", &in, err, sizeof err));
	ATF_CHECK_EQ(in.size, 1);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(directory_path_too_long);
ATF_TC_BODY(directory_path_too_long, tc)
{
	char dir[4200], why[512];
	memset(dir, 'd', sizeof dir - 1);
	dir[sizeof dir - 1] = '\0';
	ATF_CHECK(fails_without_buffer(dir, NULL, 0, "m", why, sizeof why));
	ATF_CHECK_MSG(strstr(why, "cannot read member m: path too long") == why, "%s", why);
}

ATF_TC_WITHOUT_HEAD(unopenable_member);
ATF_TC_BODY(unopenable_member, tc)
{
	/* The "directory" is a regular file: its member fails with ENOTDIR. */
	FILE *fp = fopen("plain", "w");
	ATF_REQUIRE(fp != NULL);
	fclose(fp);
	char why[512];
	ATF_CHECK(fails_without_buffer("plain", NULL, 0, "m", why, sizeof why));
	ATF_CHECK_STREQ(why, "cannot read a member");
}

ATF_TC_WITHOUT_HEAD(member_is_a_directory);
ATF_TC_BODY(member_is_a_directory, tc)
{
	ATF_REQUIRE(mkdir("trace", 0755) == 0);
	ATF_REQUIRE(mkdir("trace/sub", 0755) == 0);
	char why[512];
	ATF_CHECK(fails_without_buffer("trace", NULL, 0, "sub", why, sizeof why));
	ATF_CHECK_STREQ(why, "cannot read trace/sub: it is a directory, not a file");
}

ATF_TC_WITHOUT_HEAD(out_of_memory_without_a_path);
ATF_TC_BODY(out_of_memory_without_a_path, tc)
{
	struct fixture f;
	setup(&f, NULL, NULL, 0);
	tl_out_of_memory(&f.ctx);
	ATF_CHECK(f.ctx.unreadable);
	ATF_CHECK(f.ctx.stopped);
	ATF_CHECK_STREQ(f.why, "cannot validate the input: out of memory");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, missing_in_memory);
	ATF_TP_ADD_TC(tp, directory_path_too_long);
	ATF_TP_ADD_TC(tp, unopenable_member);
	ATF_TP_ADD_TC(tp, member_is_a_directory);
	ATF_TP_ADD_TC(tp, out_of_memory_without_a_path);
	return atf_no_error();
}
