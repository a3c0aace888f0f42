/* The page's entry points into the library (called from worker.js). A run
 * validates one or more files with the same settings and writes, for each
 * file, one JSON line per diagnostic and one for the verdict to
 * /out/file.jsonl, and for the whole run the library's JSON and SARIF
 * reports (the CLI's -o json and -o sarif) to /out/run.json and
 * /out/run.sarif. The worker mounts the dropped files (WORKERFS) at /in,
 * the working directory, so reports name them as the user does. */
#include "tracelint.h"
#include "decompress.h"
#include "detect.h"
#include "excerpt.h"
#include "format.h"
#include "input.h"
#include "writer.h"

#include <emscripten.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes of a file's head that detection looks at (a multiple of XRay's
 * basic-mode record, which its probe counts on). */
#define HEAD_BYTES (24 * 2730)

struct tlw_run {
	struct tl_options opts;
	struct tl_rule_setting *settings;
	size_t setting_count;
	char *patterns;               /* the settings' pattern texts, NUL-separated */
	char *pair, *instr_map;       /* --pair and --instr-map files, or NULL */
	struct tl_writer *json, *sarif;
	FILE *json_out, *sarif_out;
	FILE *lines;                  /* this file's /out/file.jsonl */
	const char *path;             /* the file being validated */
};

static void put_string(FILE *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	if (!s) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p < 0x20)
			fprintf(out, "\\u00%c%c", hex[*p >> 4], hex[*p & 15]);
		else
			putc(*p, out);
	}
	putc('"', out);
}

/* Reads up to n bytes at off of the open file *file; how many there were. */
static size_t read_back(void *file, uint64_t off, uint8_t *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(*(int *)file, buf + got, n - got, (off_t)(off + got));
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static void on_diag(const struct tl_diagnostic *d, void *user)
{
	struct tlw_run *r = user;
	tl_writer_diag(d, r->json);
	tl_writer_diag(d, r->sarif);
	/* the field the CLI's context marks, and its decoded record: what the
	 * diagnostic carries (tl_options.context) */
	const struct tl_diag_context *c = d->context;
	char *excerpt = NULL;
	size_t excerpt_len = 0;
	FILE *mem = open_memstream(&excerpt, &excerpt_len);
	if (mem) {
		tl_write_excerpt(mem, d, false);
		fclose(mem);
	}
	FILE *o = r->lines;
	fputs("{\"rule\":", o);
	put_string(o, d->rule ? d->rule->id : "");
	fputs(",\"severity\":", o);
	put_string(o, tl_severity_name(d->severity));
	fprintf(o, ",\"offset\":%" PRIu64 ",\"line\":%" PRIu32 ",\"column\":%" PRIu32 ",\"record\":%" PRId64,
		d->loc.offset, d->loc.line, d->loc.column, d->loc.record);
	fputs(",\"member\":", o);
	put_string(o, d->loc.member);
	fputs(",\"pointer\":", o);
	put_string(o, d->loc.pointer);
	fputs(",\"message\":", o);
	put_string(o, d->message);
	fprintf(o, ",\"field\":{\"offset\":%" PRIu64 ",\"width\":%" PRIu64 ",\"fields\":",
		c ? c->field_offset : d->loc.offset, c ? c->field_size : 1);
	put_string(o, c ? c->record : "");
	fputs("},\"excerpt\":", o);
	put_string(o, excerpt ? excerpt : "");
	fputs("}\n", o);
	free(excerpt);
}

static enum tl_rule_action action_named(const char *s, bool *ok)
{
	static const char *const names[] = { "default", "off", "note", "warning", "error" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(s, names[i]) == 0) {
			*ok = true;
			return (enum tl_rule_action)i;
		}
	*ok = false;
	return TL_RULE_DEFAULT;
}

static bool endian_named(const char *s, enum tl_endian *endian)
{
	static const char *const names[] = { "auto", "little", "big" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(s, names[i]) == 0) {
			*endian = (enum tl_endian)i;
			return true;
		}
	return false;
}

/* A file option's path, or NULL when none is given (""). */
static bool file_option(const char *given, char **kept)
{
	*kept = NULL;
	return !*given || (*kept = strdup(given)) != NULL;
}

/* settings: one "PATTERN ACTION" per line, applied in order (the CLI's
 * --select, --ignore and --severity). format: a name, or "auto". endian:
 * "auto", "little" or "big" (--endian). pair and instr_map: paths of the
 * --pair DCFG and the --instr-map binary, or "". */
EMSCRIPTEN_KEEPALIVE
struct tlw_run *tlw_run_new(const char *format, const char *settings, int werror, unsigned max_errors,
			    const char *endian, const char *pair, const char *instr_map)
{
	struct tlw_run *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	tl_options_init(&r->opts);
	if (!endian_named(endian, &r->opts.endian) || !file_option(pair, &r->pair) ||
	    !file_option(instr_map, &r->instr_map))
		goto fail;
	r->opts.pair_path = r->pair;
	r->opts.instr_map_path = r->instr_map;
	r->opts.format = strcmp(format, "auto") == 0 ? TL_FORMAT_AUTO : tl_format_from_name(format);
	r->opts.werror = werror != 0;
	r->opts.max_errors = max_errors;
	r->opts.threads = 1;
	r->opts.on_diag = on_diag;
	r->opts.user = r;
	r->opts.context = true;
	size_t lines = 1;
	for (const char *p = settings; *p; p++)
		lines += *p == '\n';
	r->patterns = strdup(settings);
	r->settings = calloc(lines, sizeof *r->settings);
	if (!r->patterns || !r->settings || r->opts.format == TL_FORMAT_COUNT)
		goto fail;
	for (char *line = r->patterns, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *space = strchr(line, ' ');
		bool ok = space != NULL;
		if (ok) {
			*space = '\0';
			r->settings[r->setting_count].action = action_named(space + 1, &ok);
		}
		if (!ok || tl_rule_pattern_matches(line) == 0)
			goto fail;
		r->settings[r->setting_count++].pattern = line;
	}
	r->opts.rule_settings = r->settings;
	r->opts.rule_setting_count = r->setting_count;
	r->json_out = fopen("/out/run.json", "w");
	r->sarif_out = fopen("/out/run.sarif", "w");
	if (!r->json_out || !r->sarif_out)
		goto fail;
	r->json = tl_writer_new(TL_OUTPUT_JSON, r->json_out, false);
	r->sarif = tl_writer_new(TL_OUTPUT_SARIF, r->sarif_out, false);
	if (r->json && r->sarif)
		return r;
fail:
	if (r->json_out)
		fclose(r->json_out);
	if (r->sarif_out)
		fclose(r->sarif_out);
	free(r->settings);
	free(r->patterns);
	free(r->pair);
	free(r->instr_map);
	free(r);
	return NULL;
}

/* Whether format f reads a file given by its descriptor alone, through a
 * window, rather than from memory. */
static bool reads_in_slices(const struct tl_format *f)
{
	return f && (f->id == TL_FORMAT_XRAY || f->id == TL_FORMAT_TFILE);
}

/* An XRay trace or a tfile: validated through its descriptor, read through
 * a window of the file (File.slice in the browser), never copied whole into
 * the heap, so memory stays flat whatever the size. Only when the file's name binds such a format (and its
 * content is not plainly another's), or detection on the head says one, or
 * the format chosen is one; false otherwise, and the file goes the usual
 * way. */
static bool windowed(struct tlw_run *r, const char *path, struct tl_result *res, enum tl_status *status,
		     char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0)
		return false;
	const struct tl_format *chosen = r->opts.format == TL_FORMAT_AUTO ? NULL : tl_format_get(r->opts.format);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
	    (chosen && !reads_in_slices(chosen))) {
		close(fd);
		return false;
	}
	size_t head_len = (uint64_t)st.st_size < HEAD_BYTES ? (size_t)st.st_size : HEAD_BYTES;
	uint8_t *head = malloc(head_len);
	const struct tl_format *f = NULL;
	/* compressed files go the usual way, which refuses them with a reason */
	if (head && read_back(&fd, 0, head, head_len) == head_len &&
	    tl_compression_sniff(head, head_len) == TL_COMPRESSION_NONE) {
		struct tl_input in;
		tl_input_from_memory(&in, head, head_len, path);
		f = chosen ? chosen : tl_format_by_name(path);
		if (!chosen && f && tl_detect_other(f, &in))
			f = NULL; /* the usual way reports what it holds instead */
		else if (!f)
			f = tl_detect(&in, NULL, 0);
	}
	free(head);
	if (!reads_in_slices(f)) {
		close(fd);
		return false;
	}
	struct tl_input in;
	memset(&in, 0, sizeof in);
	in.name = path;
	in.size = (size_t)st.st_size;
	in.fd = fd;
	in.has_fd = true;
	struct tl_options opts = r->opts;
	opts.format = f->id;
	*status = tl_validate_input(&in, path, &opts, res, err, errlen);
	close(fd);
	return true;
}

/* Validates path (relative to /in) into /out/file.jsonl; returns the status. */
EMSCRIPTEN_KEEPALIVE
int tlw_run_file(struct tlw_run *r, const char *path)
{
	r->lines = fopen("/out/file.jsonl", "w");
	if (!r->lines)
		return TL_E_IO;
	r->path = path;
	tl_writer_begin(r->json, path);
	tl_writer_begin(r->sarif, path);
	struct tl_result res;
	char err[1024] = "";
	enum tl_status status;
	bool streamed = windowed(r, path, &res, &status, err, sizeof err);
	if (!streamed)
		status = tl_validate_path(path, &r->opts, &res, err, sizeof err);
	tl_writer_end(r->json, &res, status, err);
	tl_writer_end(r->sarif, &res, status, err);
	FILE *o = r->lines;
	fprintf(o, "{\"status\":%d,\"valid\":%s,\"format\":", (int)status,
		status == TL_OK && res.valid ? "true" : "false");
	put_string(o, status == TL_OK ? tl_format_name(res.format) : NULL);
	fprintf(o, ",\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64 ",\"notes\":%" PRIu64
		   ",\"truncated\":%s,\"windowed\":%s,\"detail\":",
		res.errors, res.warnings, res.notes, res.truncated ? "true" : "false", streamed ? "true" : "false");
	put_string(o, status == TL_OK ? res.detail : "");
	fputs(",\"message\":", o);
	put_string(o, err);
	fputs("}\n", o);
	fclose(o);
	r->lines = NULL;
	return (int)status;
}

/* Writes the run's JSON and SARIF reports and frees the run. */
EMSCRIPTEN_KEEPALIVE
void tlw_run_finish(struct tlw_run *r)
{
	tl_writer_finish(r->json);
	tl_writer_finish(r->sarif);
	fclose(r->json_out);
	fclose(r->sarif_out);
	free(r->settings);
	free(r->patterns);
	free(r->pair);
	free(r->instr_map);
	free(r);
}
