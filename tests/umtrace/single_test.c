/* One member of a UMTracer trace validated alone, through the library: the CLI
 * folds a file inside a trace directory into its trace, so exec.vtable and
 * syscall.vtable alone, and the index files refused alone, are reached only by a
 * caller naming the member itself. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Member `name` of the corpus's trace64, read whole into memory, with `width` bytes of
 * `value` written at `at` when width > 0, validated alone under its own name. */
static struct tl_result validate(const char *name, size_t at, int width, uint64_t value,
				 struct seen *s)
{
	char path[4096], err[512] = "";
	snprintf(path, sizeof path, "%s/corpus/umtrace/valid/trace64/%s", TL_SOURCE_DIR, name);
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE(fseek(f, 0, SEEK_END) == 0);
	long size = ftell(f);
	ATF_REQUIRE(size > 0 && (size_t)size >= at + (size_t)width);
	uint8_t *data = malloc((size_t)size);
	ATF_REQUIRE(data != NULL);
	rewind(f);
	ATF_REQUIRE_EQ(fread(data, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	for (int i = 0; i < width; i++)
		data[at + (size_t)i] = (uint8_t)(value >> (8 * i));

	struct tl_options opts;
	struct tl_result result;
	struct tl_input in;
	memset(s, 0, sizeof *s);
	tl_options_init(&opts);
	opts.format = TL_FORMAT_UMTRACE;
	opts.on_diag = collect;
	opts.user = s;
	tl_input_from_memory(&in, data, (size_t)size, name);
	ATF_REQUIRE_EQ(tl_validate_input(&in, name, &opts, &result, err, sizeof err), TL_OK);
	tl_input_close(&in);
	free(data);
	return result;
}

/* A table alone is valid with one note; its header is still checked: `rule` for the
 * field at `at` made wrong. */
static void alone_then_broken(const char *name, size_t at, int width, uint64_t value,
			      const char *rule)
{
	struct seen s;
	struct tl_result r = validate(name, 0, 0, 0, &s);
	ATF_CHECK_STREQ_MSG(s.rules, "UMT-SINGLE-TABLE;", "%s", name);
	ATF_CHECK_MSG(r.valid, "%s", name);
	ATF_CHECK_STREQ(r.detail, "one table alone");
	r = validate(name, at, width, value, &s);
	char want[128];
	snprintf(want, sizeof want, "UMT-SINGLE-TABLE;%s;", rule);
	ATF_CHECK_STREQ_MSG(s.rules, want, "%s", name);
	ATF_CHECK_MSG(!r.valid, "%s", name);
}

ATF_TC_WITHOUT_HEAD(exec_vtable_alone);
ATF_TC_BODY(exec_vtable_alone, tc)
{
	alone_then_broken("exec.vtable", 8, 8, (uint64_t)-2, "UMT-EXEC-RECORD-COUNT");
}

ATF_TC_WITHOUT_HEAD(syscall_vtable_alone);
ATF_TC_BODY(syscall_vtable_alone, tc)
{
	alone_then_broken("syscall.vtable", 0, 4, 1, "UMT-SYSCALL-HEADER"); /* HeaderVer 1 */
}

ATF_TC_WITHOUT_HEAD(index_files_refused);
ATF_TC_BODY(index_files_refused, tc)
{
	static const char *const index[] = { "exec.offsets", "exec.prev_next.column",
					     "syscall.offsets" };
	for (size_t i = 0; i < 3; i++) {
		struct seen s;
		struct tl_result r = validate(index[i], 0, 0, 0, &s);
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
