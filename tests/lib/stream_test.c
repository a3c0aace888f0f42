/* The streaming API gives what validating the whole file gives, whatever the
 * chunking: every corpus file of the formats a stream takes is fed in chunks
 * of 1 (files up to 64 KiB), 7 and 4096 bytes and of random sizes, and its
 * diagnostics and result are compared with tl_validate_path's. */
#include "tracelint.h"

#include <atf-c.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* FNV-1a over every diagnostic's rule, severity, location and message. */
static void on_diag(const struct tl_diagnostic *d, void *user)
{
	uint64_t *h = user;
	const char *parts[] = { d->rule->id, d->message, d->loc.pointer ? d->loc.pointer : "",
				d->loc.member ? d->loc.member : "" };
	uint64_t nums[] = { d->severity, d->loc.offset, d->loc.line, d->loc.column,
			    (uint64_t)d->loc.record };
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		for (const char *p = parts[i]; *p; p++)
			*h = (*h ^ (unsigned char)*p) * 0x100000001b3ULL;
	for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
		*h = (*h ^ nums[i]) * 0x100000001b3ULL;
}

struct outcome {
	enum tl_status status;
	struct tl_result result;
	uint64_t digest;
};

static void options(struct tl_options *o, uint64_t *digest)
{
	tl_options_init(o);
	o->on_diag = on_diag;
	o->user = digest;
	*digest = 0xcbf29ce484222325ULL;
}

/* tfile's frames stream only with a given byte order: the cases are also
 * run with --endian little. */
static enum tl_endian endian;

static struct outcome whole(const char *path, enum tl_format_id format)
{
	struct outcome w;
	struct tl_options o;
	char err[512];
	options(&o, &w.digest);
	o.format = format;
	o.endian = endian;
	w.status = tl_validate_path(path, &o, &w.result, err, sizeof err);
	return w;
}

/* chunk 0: random sizes from 1 to 9000 */
static struct outcome streamed(const char *path, enum tl_format_id format, const uint8_t *data,
			       size_t size, size_t chunk, unsigned *seed)
{
	struct outcome s;
	struct tl_options o;
	char err[512];
	options(&o, &s.digest);
	o.endian = endian;
	struct tl_stream *st = tl_stream_new(format, path, &o, err, sizeof err);
	ATF_REQUIRE_MSG(st != NULL, "%s", err);
	for (size_t at = 0; at < size;) {
		size_t n = chunk ? chunk : 1 + (size_t)(rand_r(seed) % 9000);
		if (n > size - at)
			n = size - at;
		ATF_REQUIRE_EQ(tl_stream_feed(st, data + at, n), TL_OK);
		at += n;
	}
	s.status = tl_stream_finish(st, &s.result, err, sizeof err);
	return s;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE(fseek(f, 0, SEEK_END) == 0);
	long n = ftell(f);
	rewind(f);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	ATF_REQUIRE(buf != NULL);
	ATF_REQUIRE(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return buf;
}

static bool is_case(const char *name)
{
	static const char *const sidecars[] = { ".expected", ".args", ".env", ".md", ".py", ".sh" };
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof sidecars / sizeof *sidecars; i++) {
		size_t k = strlen(sidecars[i]);
		if (n >= k && strcmp(name + n - k, sidecars[i]) == 0)
			return false;
	}
	return name[0] != '.';
}

/* Every case file of one corpus directory, streamed as a format to detect
 * and (format not AUTO) as that format; returns how many were compared. */
static size_t check_directory(const char *sub, enum tl_format_id format)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/corpus/%s", TL_SOURCE_DIR, sub);
	DIR *d = opendir(dir);
	ATF_REQUIRE_MSG(d != NULL, "%s", dir);
	size_t compared = 0;
	unsigned seed = 20261124;
	for (struct dirent *e; (e = readdir(d));) {
		char path[8192];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!is_case(e->d_name) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t size;
		uint8_t *data = slurp(path, &size);
		const size_t chunks[] = { 1, 7, 4096, 0, 0 };
		for (size_t c = 0; c < 2 * sizeof chunks / sizeof *chunks; c++) {
			enum tl_format_id as = c % 2 ? format : TL_FORMAT_AUTO;
			size_t chunk = chunks[c / 2];
			if ((chunk == 1 && size > 65536) || (c % 2 && format == TL_FORMAT_AUTO))
				continue;
			struct outcome w = whole(path, as);
			struct outcome s = streamed(path, as, data, size, chunk, &seed);
			ATF_CHECK_EQ_MSG(s.status, w.status, "%s as %d, chunks of %zu", path, as, chunk);
			ATF_CHECK_MSG(s.digest == w.digest, "%s as %d, chunks of %zu: other diagnostics",
				      path, as, chunk);
			if (w.status == TL_OK) {
				ATF_CHECK_EQ_MSG(s.result.valid, w.result.valid, "%s", path);
				ATF_CHECK_EQ_MSG(s.result.errors, w.result.errors, "%s", path);
				ATF_CHECK_EQ_MSG(s.result.warnings, w.result.warnings, "%s", path);
				ATF_CHECK_EQ_MSG(s.result.notes, w.result.notes, "%s", path);
				ATF_CHECK_EQ_MSG(s.result.format, w.result.format, "%s", path);
				ATF_CHECK_STREQ_MSG(s.result.detail, w.result.detail, "%s", path);
			}
		}
		free(data);
		compared++;
	}
	closedir(d);
	return compared;
}

#define FORMAT_CASE(name, sub, format)                                     \
	ATF_TC_WITHOUT_HEAD(name);                                          \
	ATF_TC_BODY(name, tc)                                               \
	{                                                                   \
		size_t n = check_directory(sub "/valid", format) +          \
			   check_directory(sub "/invalid", format);         \
		ATF_CHECK_MSG(n >= 10, "only %zu cases in corpus/%s", n, sub); \
	}

FORMAT_CASE(xray, "xray", TL_FORMAT_XRAY)
FORMAT_CASE(tfile, "tfile", TL_FORMAT_TFILE)
FORMAT_CASE(dcfg, "dcfg", TL_FORMAT_DCFG)

ATF_TC_WITHOUT_HEAD(tfile_little_endian);
ATF_TC_BODY(tfile_little_endian, tc)
{
	endian = TL_ENDIAN_LITTLE;
	size_t n = check_directory("tfile/valid", TL_FORMAT_TFILE) +
		   check_directory("tfile/invalid", TL_FORMAT_TFILE);
	ATF_CHECK(n >= 10);
}
FORMAT_CASE(dcfg_trace, "dcfg-trace", TL_FORMAT_DCFG_TRACE)

/* Counts diagnostics as they arrive. */
static void count(const struct tl_diagnostic *d, void *user)
{
	(void)d;
	++*(unsigned *)user;
}

/* An XRay FDR trace streamed as XRay: a buffer's diagnostics arrive once its
 * last byte is fed, before the stream finishes. */
ATF_TC_WITHOUT_HEAD(xray_diagnostics_while_feeding);
ATF_TC_BODY(xray_diagnostics_while_feeding, tc)
{
	char path[4096], err[512];
	size_t size;
	snprintf(path, sizeof path, "%s/corpus/xray/invalid/metadata-kind.xray", TL_SOURCE_DIR);
	uint8_t *data = slurp(path, &size);
	struct tl_options o;
	struct tl_result r;
	unsigned seen = 0;
	tl_options_init(&o);
	o.on_diag = count;
	o.user = &seen;
	struct tl_stream *st = tl_stream_new(TL_FORMAT_XRAY, "metadata-kind.xray", &o, err, sizeof err);
	ATF_REQUIRE(st != NULL);
	ATF_REQUIRE_EQ(tl_stream_feed(st, data, size / 2), TL_OK);
	ATF_CHECK_EQ_MSG(seen, 0u, "the buffer is not complete: nothing to say yet");
	ATF_REQUIRE_EQ(tl_stream_feed(st, data + size / 2, size - size / 2), TL_OK);
	ATF_CHECK_MSG(seen >= 1, "the buffer is complete: its diagnostic arrived while feeding");
	unsigned before = seen;
	ATF_CHECK_EQ(tl_stream_finish(st, &r, err, sizeof err), TL_OK);
	ATF_CHECK_EQ(seen, before);
	ATF_CHECK(!r.valid);
	ATF_CHECK_EQ(r.errors, 1u);
	free(data);
}

ATF_TC_WITHOUT_HEAD(failures);
ATF_TC_BODY(failures, tc)
{
	struct tl_options o;
	struct tl_result r;
	char err[512] = "";
	tl_options_init(&o);
	/* nothing fed: the empty input, as a file would be */
	struct tl_stream *st = tl_stream_new(TL_FORMAT_AUTO, "empty", &o, err, sizeof err);
	ATF_REQUIRE(st != NULL);
	ATF_CHECK_EQ(tl_stream_finish(st, &r, err, sizeof err), TL_E_UNKNOWN_FORMAT);
	/* more than the limit: the feed fails and so does finishing, with the reason */
	o.stdin_limit = 10;
	st = tl_stream_new(TL_FORMAT_XRAY, "big", &o, err, sizeof err);
	ATF_REQUIRE(st != NULL);
	ATF_CHECK_EQ(tl_stream_feed(st, "0123456789", 10), TL_OK);
	ATF_CHECK_EQ(tl_stream_feed(st, "x", 1), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_feed(st, "x", 1), TL_E_IO);
	ATF_CHECK_EQ(tl_stream_finish(st, &r, err, sizeof err), TL_E_IO);
	ATF_CHECK(strstr(err, "expected at most 10 bytes") != NULL);
	/* abandoned */
	st = tl_stream_new(TL_FORMAT_AUTO, "dropped", &o, err, sizeof err);
	ATF_REQUIRE(st != NULL);
	ATF_CHECK_EQ(tl_stream_feed(st, "abc", 3), TL_OK);
	tl_stream_free(st);
	/* no place for the bytes */
	setenv("TMPDIR", "/nonexistent-tracelint-dir", 1);
	ATF_CHECK(tl_stream_new(TL_FORMAT_AUTO, "x", &o, err, sizeof err) == NULL);
	ATF_CHECK(strstr(err, "set TMPDIR") != NULL);
	unsetenv("TMPDIR");
}

/* A tfile streamed with its byte order given: a frame's diagnostics arrive
 * once the frame is complete, before the stream finishes. */
ATF_TC_WITHOUT_HEAD(tfile_diagnostics_while_feeding);
ATF_TC_BODY(tfile_diagnostics_while_feeding, tc)
{
	char path[4096], err[512];
	size_t size;
	snprintf(path, sizeof path, "%s/corpus/tfile/invalid/block-type.tf", TL_SOURCE_DIR);
	uint8_t *data = slurp(path, &size);
	struct tl_options o;
	struct tl_result r;
	unsigned seen = 0;
	tl_options_init(&o);
	o.on_diag = count;
	o.user = &seen;
	o.endian = TL_ENDIAN_LITTLE;
	struct tl_stream *st = tl_stream_new(TL_FORMAT_TFILE, "block-type.tf", &o, err, sizeof err);
	ATF_REQUIRE(st != NULL);
	/* everything but the end marker and what follows it */
	ATF_REQUIRE(size > 8);
	ATF_REQUIRE_EQ(tl_stream_feed(st, data, size - 4), TL_OK);
	ATF_CHECK_MSG(seen >= 1, "the bad frame is complete: its diagnostic arrived while feeding");
	ATF_REQUIRE_EQ(tl_stream_feed(st, data + size - 4, 4), TL_OK);
	ATF_CHECK_EQ(tl_stream_finish(st, &r, err, sizeof err), TL_OK);
	ATF_CHECK(!r.valid);
	free(data);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, xray);
	ATF_TP_ADD_TC(tp, tfile);
	ATF_TP_ADD_TC(tp, tfile_little_endian);
	ATF_TP_ADD_TC(tp, dcfg);
	ATF_TP_ADD_TC(tp, dcfg_trace);
	ATF_TP_ADD_TC(tp, failures);
	ATF_TP_ADD_TC(tp, xray_diagnostics_while_feeding);
	ATF_TP_ADD_TC(tp, tfile_diagnostics_while_feeding);
	return atf_no_error();
}
