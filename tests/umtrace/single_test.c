/* One member of a UMTracer trace validated alone, through the library: the CLI
 * folds a file inside a trace directory into its trace, so exec.vtable and
 * syscall.vtable alone, and the index files refused alone, are reached only by a
 * caller naming the member itself. */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "input.h"

/* The rule IDs reported, in order, each followed by ';'. */
struct seen {
	char rules[512];
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	size_t n = strlen(s->rules);
	snprintf(s->rules + n, sizeof s->rules - n, "%s;", d->rule->id);
}

/* Copies member of the corpus's trace64 to alone/<member>, with `width` bytes of
 * `value` written at `at` when width > 0. */
static void member(const char *name, long at, int width, uint64_t value)
{
	char from[4096], to[256];
	snprintf(from, sizeof from, "%s/corpus/umtrace/valid/trace64/%s", TL_SOURCE_DIR, name);
	snprintf(to, sizeof to, "alone/%s", name);
	mkdir("alone", 0755);
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	ATF_REQUIRE(in != NULL && out != NULL);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ATF_REQUIRE_EQ(fwrite(buf, 1, n, out), n);
	fclose(in);
	for (int i = 0; i < width; i++) {
		ATF_REQUIRE(fseek(out, at + i, SEEK_SET) == 0);
		ATF_REQUIRE(fputc((int)(uint8_t)(value >> (8 * i)), out) != EOF);
	}
	ATF_REQUIRE(fclose(out) == 0);
}

static struct tl_result validate(const char *name, struct seen *s)
{
	char path[256], err[512] = "";
	struct tl_options opts;
	struct tl_result result;
	struct tl_input in;
	snprintf(path, sizeof path, "alone/%s", name);
	memset(s, 0, sizeof *s);
	tl_options_init(&opts);
	opts.format = TL_FORMAT_UMTRACE;
	opts.on_diag = collect;
	opts.user = s;
	ATF_REQUIRE(tl_input_open(&in, path, err, sizeof err));
	ATF_REQUIRE_EQ(tl_validate_input(&in, path, &opts, &result, err, sizeof err), TL_OK);
	tl_input_close(&in);
	return result;
}

ATF_TC_WITHOUT_HEAD(exec_vtable_alone);
ATF_TC_BODY(exec_vtable_alone, tc)
{
	struct seen s;
	member("exec.vtable", 0, 0, 0);
	struct tl_result r = validate("exec.vtable", &s);
	ATF_CHECK_STREQ(s.rules, "UMT-SINGLE-TABLE;");
	ATF_CHECK(r.valid);
	ATF_CHECK_STREQ(r.detail, "one table alone");
	/* its header is still checked: RecordCount -2 */
	member("exec.vtable", 8, 8, (uint64_t)-2);
	r = validate("exec.vtable", &s);
	ATF_CHECK_STREQ(s.rules, "UMT-SINGLE-TABLE;UMT-EXEC-RECORD-COUNT;");
	ATF_CHECK(!r.valid);
}

ATF_TC_WITHOUT_HEAD(syscall_vtable_alone);
ATF_TC_BODY(syscall_vtable_alone, tc)
{
	struct seen s;
	member("syscall.vtable", 0, 0, 0);
	struct tl_result r = validate("syscall.vtable", &s);
	ATF_CHECK_STREQ(s.rules, "UMT-SINGLE-TABLE;");
	ATF_CHECK(r.valid);
	member("syscall.vtable", 0, 4, 1); /* HeaderVer 1 */
	r = validate("syscall.vtable", &s);
	ATF_CHECK_STREQ(s.rules, "UMT-SINGLE-TABLE;UMT-SYSCALL-HEADER;");
	ATF_CHECK(!r.valid);
}

ATF_TC_WITHOUT_HEAD(index_files_refused);
ATF_TC_BODY(index_files_refused, tc)
{
	static const char *const index[] = { "exec.offsets", "exec.prev_next.column",
					     "syscall.offsets" };
	for (size_t i = 0; i < 3; i++) {
		struct seen s;
		member(index[i], 0, 0, 0);
		struct tl_result r = validate(index[i], &s);
		ATF_CHECK_STREQ_MSG(s.rules, "UMT-NOT-A-TABLE;", "%s", index[i]);
		ATF_CHECK_MSG(!r.valid, "%s", index[i]);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, exec_vtable_alone);
	ATF_TP_ADD_TC(tp, syscall_vtable_alone);
	ATF_TP_ADD_TC(tp, index_files_refused);
	return atf_no_error();
}
