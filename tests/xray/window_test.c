/* The XRay walkers read through a window (core/window.h) and take a fast
 * path for plain function records. Whatever the window's size, and so
 * wherever its steps cut the records, every corpus case must give exactly
 * the diagnostics it gives when the whole input is in memory at once, in
 * either forced byte order too (which turns valid traces into hostile ones). */
#include <atf-c.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracelint.h"
#include "validators/xray/xray.h"
#include "window.h"

#include "record_bytes.h"

/* Every diagnostic of one run, one line each. */
struct transcript {
	char *text;
	size_t len, cap;
};

static void note(const struct tl_diagnostic *d, void *user)
{
	struct transcript *t = user;
	char line[1024];
	int n = snprintf(line, sizeof line, "%s @%llu #%lld: %s\n", d->rule->id,
			 (unsigned long long)d->loc.offset, (long long)d->loc.record, d->message);
	ATF_REQUIRE(n > 0 && (size_t)n < sizeof line);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->text = realloc(t->text, t->cap);
		ATF_REQUIRE(t->text != NULL);
	}
	memcpy(t->text + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
}

/* Validates path (from memory when data is not NULL) and returns its transcript. */
static char *transcript_of(const char *path, const void *data, size_t size, enum tl_endian endian)
{
	struct transcript t = { calloc(1, 1), 0, 1 };
	ATF_REQUIRE(t.text != NULL);
	struct tl_options o;
	tl_options_init(&o);
	o.format = TL_FORMAT_XRAY;
	o.endian = endian;
	o.on_diag = note;
	o.user = &t;
	struct tl_result r;
	enum tl_status s = data ? tl_validate_buffer(data, size, path, &o, &r, NULL, 0)
				: tl_validate_path(path, &o, &r, NULL, 0);
	ATF_REQUIRE_EQ(s, TL_OK);
	char verdict[128];
	snprintf(verdict, sizeof verdict, "errors %llu warnings %llu\n",
		 (unsigned long long)r.errors, (unsigned long long)r.warnings);
	note(&(struct tl_diagnostic){ &(struct tl_rule_info){ "VERDICT", TL_NOTE, "", "", "" },
				      TL_NOTE, { 0, 0, 0, -1, NULL, NULL }, verdict, NULL }, &t);
	return t.text;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE(fseek(f, 0, SEEK_END) == 0);
	long n = ftell(f);
	ATF_REQUIRE(n >= 0);
	rewind(f);
	uint8_t *p = malloc((size_t)n + 1);
	ATF_REQUIRE(p != NULL);
	ATF_REQUIRE_EQ(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return p;
}

/* The capacity tl_window_open(..., 0) uses, through its test knob. */
static void set_capacity(size_t cap)
{
	char v[32];
	snprintf(v, sizeof v, "%zu", cap);
	setenv("TRACELINT_WINDOW_CAPACITY", v, 1);
}

/* Compares one file: in memory in place (the reference) against a file
 * window and a copying memory window of each small capacity. */
static unsigned check_file(const char *path)
{
	static const enum tl_endian orders[] = { TL_ENDIAN_AUTO, TL_ENDIAN_LITTLE, TL_ENDIAN_BIG };
	size_t size;
	uint8_t *bytes = slurp(path, &size);
	unsigned compared = 0;
	for (size_t e = 0; e < sizeof orders / sizeof orders[0]; e++) {
		unsetenv("TRACELINT_WINDOW_CAPACITY");
		char *want = transcript_of(path, bytes, size, orders[e]);
		/* 64..96 moves the steps over every byte of 8- and 16-byte records. */
		for (size_t cap = TL_WINDOW_MIN_CAPACITY; cap <= 96; cap += 1) {
			set_capacity(cap);
			char *from_file = transcript_of(path, NULL, 0, orders[e]);
			char *from_copy = transcript_of(path, bytes, size, orders[e]);
			if (strcmp(want, from_file) != 0 || strcmp(want, from_copy) != 0) {
				fprintf(stderr, "in memory:\n%s\nfile window:\n%s\ncopied window:\n%s",
					want, from_file, from_copy);
				atf_tc_fail("%s (endian %d, window %zu) differs from the whole input "
					    "in memory (transcripts on stderr)", path, (int)orders[e], cap);
			}
			free(from_file);
			free(from_copy);
			compared++;
		}
		free(want);
	}
	unsetenv("TRACELINT_WINDOW_CAPACITY");
	free(bytes);
	return compared;
}

static unsigned check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	ATF_REQUIRE_MSG(d != NULL, "cannot open %s", dir);
	unsigned files = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 5, ".xray") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		ATF_REQUIRE(check_file(path) > 0);
		files++;
	}
	closedir(d);
	return files;
}

static bool holds_xray_corpus(const char *dir)
{
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/corpus/xray/valid", dir);
	DIR *d = opendir(probe);
	if (d)
		closedir(d);
	return d != NULL;
}

/* The source tree: ATF's srcdir is the test program's directory, inside the
 * build directory, which lives in the source tree (build/tests/xray or
 * build/san/tests/xray); walk up to the directory that holds the corpus, or
 * take the tree the test was built from when the build lives elsewhere. */
static const char *source_tree(const atf_tc_t *tc)
{
	static char dir[4096];
	ATF_REQUIRE(atf_tc_has_config_var(tc, "srcdir"));
	snprintf(dir, sizeof dir, "%s", atf_tc_get_config_var(tc, "srcdir"));
	for (int up = 0; up < 8; up++) {
		if (holds_xray_corpus(dir))
			return dir;
		size_t n = strlen(dir);
		ATF_REQUIRE(n + 3 < sizeof dir);
		memcpy(dir + n, "/..", 4);
	}
#ifdef TL_SOURCE_DIR
	snprintf(dir, sizeof dir, "%s", TL_SOURCE_DIR);
	if (holds_xray_corpus(dir))
		return dir;
#endif
	atf_tc_fail("no corpus/xray/valid above %s", atf_tc_get_config_var(tc, "srcdir"));
	return NULL;
}

ATF_TC(corpus_same_through_any_window);
ATF_TC_HEAD(corpus_same_through_any_window, tc)
{
	atf_tc_set_md_var(tc, "descr", "Every XRay corpus case reads the same through small windows");
}
ATF_TC_BODY(corpus_same_through_any_window, tc)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/corpus/xray/valid", source_tree(tc));
	unsigned valid = check_dir(dir);
	snprintf(dir, sizeof dir, "%s/corpus/xray/invalid", source_tree(tc));
	unsigned invalid = check_dir(dir);
	ATF_CHECK(valid >= 30);
	ATF_CHECK(invalid >= 25);
}

static size_t fn(uint8_t *p, unsigned action, uint32_t id, uint32_t delta)
{
	put(p, (uint64_t)id << 4 | action << 1, 4);
	return 4 + put(p + 4, delta, 4);
}

/* One buffer of a version-5 trace: preamble, then a body of runs of calls,
 * an event whose payload is larger than any small window, and a few records
 * rules object to, so the fast path stops and restarts all over it. */
static size_t buffer(uint8_t *t, uint32_t seed)
{
	size_t k = 16;
	k += meta(t + k, XRAY_NEW_BUFFER, 42, 4);
	k += meta(t + k, XRAY_WALLCLOCK, 1, 8);
	put(t + k - 16 + 9, 5, 4); /* microseconds */
	k += meta(t + k, XRAY_PID, 41, 4);
	k += meta(t + k, XRAY_NEW_CPU, seed % 3, 2);
	for (uint32_t i = 1; i <= 40; i++) {
		k += fn(t + k, XRAY_ENTRY, i, 3);
		if (i % 7 == seed % 7)
			k += fn(t + k, XRAY_EXIT, i + 1, 2);          /* mismatch */
		if (i % 11 == 0) {
			k += fn(t + k, XRAY_ENTRY_ARGS, i, 1);
			k += meta(t + k, XRAY_CALL_ARGUMENT, i, 8);
			k += fn(t + k, XRAY_EXIT, i, 1);
		}
		if (i == 20) {
			k += meta(t + k, XRAY_CUSTOM_EVENT, 300, 4);
			put(t + k - 16 + 5, 7, 4);
			memset(t + k, 'e', 300);
			k += 300;
		}
		if (i % 13 == 0)
			k += fn(t + k, XRAY_EXIT, i, 0x80000000u);   /* delta out of range */
		k += fn(t + k, i % 5 ? XRAY_EXIT : XRAY_TAIL_EXIT, i, 5);
	}
	meta(t, XRAY_BUFFER_EXTENTS, k - 16, 8);
	return k;
}

ATF_TC_WITHOUT_HEAD(long_runs_and_payloads_through_any_window);
ATF_TC_BODY(long_runs_and_payloads_through_any_window, tc)
{
	static uint8_t t[8192];
	size_t k = 0;
	k += put(t + k, 5, 2);
	k += put(t + k, 1, 2);
	k += put(t + k, 3, 4);
	k += put(t + k, 1000000000, 8);
	k += put(t + k, 4096, 8);
	k += put(t + k, 0, 8);
	for (uint32_t b = 0; b < 3; b++)
		k += buffer(t + k, b);
	ATF_REQUIRE(k < sizeof t);
	FILE *f = fopen("t.xray", "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(t, 1, k, f), k);
	fclose(f);
	unsetenv("TRACELINT_WINDOW_CAPACITY");
	char *want = transcript_of("t.xray", t, k, TL_ENDIAN_AUTO);
	/* The trace is not clean: the comparison must be about diagnostics. */
	ATF_REQUIRE(strstr(want, "XRAY-FDR-EXIT-MISMATCH") != NULL);
	ATF_REQUIRE(strstr(want, "XRAY-FDR-TSC-DELTA-RANGE") != NULL);
	for (size_t cap = TL_WINDOW_MIN_CAPACITY; cap <= 600; cap += 3) {
		set_capacity(cap);
		char *got = transcript_of("t.xray", NULL, 0, TL_ENDIAN_AUTO);
		if (strcmp(want, got) != 0) {
			fprintf(stderr, "in memory:\n%s\nfile window:\n%s", want, got);
			atf_tc_fail("window %zu differs from the whole input in memory", cap);
		}
		free(got);
	}
	unsetenv("TRACELINT_WINDOW_CAPACITY");
	free(want);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, corpus_same_through_any_window);
	ATF_TP_ADD_TC(tp, long_runs_and_payloads_through_any_window);
	return atf_no_error();
}
