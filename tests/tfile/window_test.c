/* A tfile given only as a descriptor, with no mapping (as the page in the
 * browser gives it: read in slices), is read through a window: the header
 * and description into memory, the frames by window steps. Whatever the
 * window's size, and so wherever its steps cut frames and blocks, every
 * corpus case must give exactly the diagnostics and verdict of the mapped
 * file, in each byte order. */
#include <atf-c.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "input.h"
#include "tracelint.h"
#include "window.h"

/* Every diagnostic of one run, one line each. */
struct transcript {
	char *text;
	size_t len, cap;
};

static void add(struct transcript *t, const char *line)
{
	size_t n = strlen(line);
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->text = realloc(t->text, t->cap);
		ATF_REQUIRE(t->text != NULL);
	}
	memcpy(t->text + t->len, line, n + 1);
	t->len += n;
}

static void note(const struct tl_diagnostic *d, void *user)
{
	char line[1024];
	snprintf(line, sizeof line, "%s @%llu %u:%u #%lld: %s\n", d->rule->id,
		 (unsigned long long)d->loc.offset, d->loc.line, d->loc.column, (long long)d->loc.record,
		 d->message);
	add(user, line);
}

/* Validates path, mapped or through its descriptor alone, and returns its transcript. */
static char *transcript_of(const char *path, bool descriptor_only, enum tl_endian endian)
{
	struct transcript t = { calloc(1, 1), 0, 1 };
	ATF_REQUIRE(t.text != NULL);
	struct tl_options o;
	tl_options_init(&o);
	o.format = TL_FORMAT_TFILE;
	o.endian = endian;
	o.max_errors = 0;
	o.on_diag = note;
	o.user = &t;
	struct tl_result r;
	char err[256] = "";
	enum tl_status s;
	if (descriptor_only) {
		struct tl_input in;
		struct stat st;
		memset(&in, 0, sizeof in);
		in.fd = open(path, O_RDONLY);
		ATF_REQUIRE(in.fd >= 0);
		ATF_REQUIRE(fstat(in.fd, &st) == 0);
		in.has_fd = true;
		in.size = (size_t)st.st_size;
		in.name = path;
		s = tl_validate_input(&in, path, &o, &r, err, sizeof err);
		close(in.fd);
	} else {
		s = tl_validate_path(path, &o, &r, err, sizeof err);
	}
	char verdict[512];
	snprintf(verdict, sizeof verdict, "status %d valid %d errors %llu warnings %llu detail %s %s\n",
		 (int)s, r.valid, (unsigned long long)r.errors, (unsigned long long)r.warnings,
		 s == TL_OK ? r.detail : "", err);
	add(&t, verdict);
	return t.text;
}

static void set_capacity(size_t cap)
{
	char v[32];
	snprintf(v, sizeof v, "%zu", cap);
	setenv("TRACELINT_WINDOW_CAPACITY", v, 1);
}

/* The mapped file (the reference) against the descriptor alone through
 * windows of each capacity given. */
static unsigned check_file(const char *path, const size_t *caps, size_t ncaps)
{
	static const enum tl_endian orders[] = { TL_ENDIAN_AUTO, TL_ENDIAN_LITTLE, TL_ENDIAN_BIG };
	unsigned compared = 0;
	for (size_t e = 0; e < sizeof orders / sizeof orders[0]; e++) {
		unsetenv("TRACELINT_WINDOW_CAPACITY");
		char *want = transcript_of(path, false, orders[e]);
		for (size_t i = 0; i < ncaps; i++) {
			set_capacity(caps[i]);
			char *got = transcript_of(path, true, orders[e]);
			if (strcmp(want, got) != 0) {
				fprintf(stderr, "mapped:\n%s\ndescriptor only:\n%s", want, got);
				atf_tc_fail("%s (endian %d, window %zu) differs from the mapped file "
					    "(transcripts on stderr)", path, (int)orders[e], caps[i]);
			}
			free(got);
			compared++;
		}
		free(want);
	}
	unsetenv("TRACELINT_WINDOW_CAPACITY");
	return compared;
}

static unsigned check_dir(const char *dir, const size_t *caps, size_t ncaps)
{
	DIR *d = opendir(dir);
	ATF_REQUIRE_MSG(d != NULL, "cannot open %s", dir);
	unsigned files = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 3, ".tf") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		ATF_REQUIRE(check_file(path, caps, ncaps) > 0);
		files++;
	}
	closedir(d);
	return files;
}

static bool holds_tfile_corpus(const char *dir)
{
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/corpus/tfile/valid", dir);
	DIR *d = opendir(probe);
	if (d)
		closedir(d);
	return d != NULL;
}

/* The source tree: walk up from ATF's srcdir (the test program's directory
 * inside the build directory) to the directory that holds the corpus. */
static const char *source_tree(const atf_tc_t *tc)
{
	static char dir[4096];
	ATF_REQUIRE(atf_tc_has_config_var(tc, "srcdir"));
	snprintf(dir, sizeof dir, "%s", atf_tc_get_config_var(tc, "srcdir"));
	for (int up = 0; up < 8; up++) {
		if (holds_tfile_corpus(dir))
			return dir;
		size_t n = strlen(dir);
		ATF_REQUIRE(n + 3 < sizeof dir);
		memcpy(dir + n, "/..", 4);
	}
#ifdef TL_SOURCE_DIR
	snprintf(dir, sizeof dir, "%s", TL_SOURCE_DIR);
	if (holds_tfile_corpus(dir))
		return dir;
#endif
	atf_tc_fail("no corpus/tfile/valid above %s", atf_tc_get_config_var(tc, "srcdir"));
	return NULL;
}

ATF_TC(corpus_same_through_a_descriptor);
ATF_TC_HEAD(corpus_same_through_a_descriptor, tc)
{
	atf_tc_set_md_var(tc, "descr", "Every tfile corpus case gives the mapped file's diagnostics when "
			  "read through its descriptor alone, with windows smaller than a frame and "
			  "the default window");
}
ATF_TC_BODY(corpus_same_through_a_descriptor, tc)
{
	/* 64..77 move the steps over every byte of a 13-byte block head; 4096
	 * holds a small frame whole; 0 is the default capacity. */
	size_t caps[17];
	size_t n = 0;
	for (size_t cap = TL_WINDOW_MIN_CAPACITY; cap < TL_WINDOW_MIN_CAPACITY + 14; cap++)
		caps[n++] = cap;
	caps[n++] = 1000;
	caps[n++] = 4096;
	caps[n++] = TL_WINDOW_DEFAULT_CAPACITY;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/corpus/tfile/valid", source_tree(tc));
	unsigned valid = check_dir(dir, caps, n);
	snprintf(dir, sizeof dir, "%s/corpus/tfile/invalid", source_tree(tc));
	unsigned invalid = check_dir(dir, caps, n);
	ATF_CHECK(valid >= 30);
	ATF_CHECK(invalid >= 40);
}

/* A description without its closing empty line is the whole file; a file
 * of the header alone; an empty file. */
ATF_TC_WITHOUT_HEAD(short_files_through_a_descriptor);
ATF_TC_BODY(short_files_through_a_descriptor, tc)
{
	static const struct { const char *name, *bytes; size_t n; } files[] = {
		{ "unterminated.tf", "\x7fTRACE0\nR 10\nstatus 0;tstop::0\n", 30 },
		{ "header.tf", "\x7fTRACE0\n", 8 },
		{ "empty.tf", "", 0 },
		{ "short.tf", "\x7fTRA", 4 },
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		FILE *f = fopen(files[i].name, "wb");
		ATF_REQUIRE(f != NULL);
		ATF_REQUIRE_EQ(fwrite(files[i].bytes, 1, files[i].n, f), files[i].n);
		fclose(f);
		char *want = transcript_of(files[i].name, false, TL_ENDIAN_AUTO);
		char *got = transcript_of(files[i].name, true, TL_ENDIAN_AUTO);
		ATF_CHECK_STREQ_MSG(want, got, "%s", files[i].name);
		/* none of them is valid */
		ATF_CHECK(strstr(got, "valid 0") != NULL);
		free(want);
		free(got);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, corpus_same_through_a_descriptor);
	ATF_TP_ADD_TC(tp, short_files_through_a_descriptor);
	return atf_no_error();
}
