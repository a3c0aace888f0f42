/* tracelint dump [OPTIONS] FILE: validates FILE with its diagnostics on
 * standard error (text style), then writes what it holds to standard output
 * as JSON Lines through the format's dumper. Exit 0 when the file is valid
 * and was dumped to its end, 1 when it has errors or could not be decoded to
 * its end (what could be decoded is written), 2 for usage and I/O errors. */
#include "dump.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DUMP_OK = 0, DUMP_INVALID = 1, DUMP_USAGE = 2 };
enum { OPT_LIMIT = 256, OPT_PAIR, OPT_ENDIAN, OPT_INSTR_MAP, OPT_NO_VALIDATE, OPT_MAX_ERRORS };

static const char usage_text[] =
	"Usage: tracelint dump [OPTIONS] FILE\n"
	"Write what a trace holds as JSON Lines (schemas in tracelint(1), DUMP).\n"
	"  -f, --format=FMT     xray | tfile | dcfg | dcfg-trace | umtrace (default: detect)\n"
	"      --limit=N        write at most N record lines after the header, and at\n"
	"                       most N decoded edges a DCFG-trace thread (default 1000000)\n"
	"      --pair=DCFG      the DCFG of a DCFG-trace, for the validation run\n"
	"      --endian=ORDER   auto | little | big\n"
	"      --instr-map=BIN  XRay: the instrumented binary, for the validation run\n"
	"      --max-errors=N   report at most N diagnostics of the validation run\n"
	"      --no-validate    dump only (no diagnostics, exit 0 unless the dump stops)\n"
	"  -h, --help           this text\n";

static int usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tracelint dump: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'tracelint dump --help'.\n");
	va_end(ap);
	return DUMP_USAGE;
}

bool dump_take(struct dump_run *r)
{
	if (r->limit && r->records >= r->limit) {
		r->limited = true;
		return false;
	}
	r->records++;
	return true;
}

void dump_stop(struct dump_run *r, const char *fmt, ...)
{
	if (r->incomplete)
		return;
	r->incomplete = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
}

/* The validation run: diagnostics on standard error; its verdict. */
static enum tl_status validate(const char *path, struct tl_options *opts, struct tl_result *res,
			       char *err, size_t errlen)
{
	struct tl_writer *w = tl_writer_new(TL_OUTPUT_TEXT, stderr, false);
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return TL_E_IO;
	}
	opts->on_diag = tl_writer_diag;
	opts->user = w;
	tl_writer_begin(w, path);
	enum tl_status st = tl_validate_path(path, opts, res, err, errlen);
	tl_writer_end(w, res, st, err);
	tl_writer_finish(w);
	opts->on_diag = NULL;
	opts->user = NULL;
	return st;
}

static bool parse_count(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		return false;
	*v = n;
	return true;
}

static void dispatch(struct dump_run *r, enum tl_format_id format)
{
	switch (format) {
	case TL_FORMAT_XRAY: tl_dump_xray(r); break;
	case TL_FORMAT_TFILE: tl_dump_tfile(r); break;
	case TL_FORMAT_DCFG: tl_dump_dcfg(r); break;
	case TL_FORMAT_DCFG_TRACE: tl_dump_dcfg_trace(r); break;
	case TL_FORMAT_UMTRACE: tl_dump_umtrace(r); break;
	default: dump_stop(r, "%s files cannot be dumped", tl_format_name(format)); break;
	}
}

int tl_dump_main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "pair", required_argument, NULL, OPT_PAIR },
		{ "endian", required_argument, NULL, OPT_ENDIAN },
		{ "instr-map", required_argument, NULL, OPT_INSTR_MAP },
		{ "no-validate", no_argument, NULL, OPT_NO_VALIDATE },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tl_options opts;
	tl_options_init(&opts);
	uint64_t limit = 0, limit_errors = 0;
	bool check = true;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+f:h", longs, NULL)) != -1) {
		switch (opt) {
		case 'f':
			opts.format = tl_format_from_name(optarg);
			if (opts.format == TL_FORMAT_COUNT)
				return usage("unknown format '%s'", optarg);
			break;
		case OPT_LIMIT:
			if (!parse_count(optarg, &limit))
				return usage("--limit: expected a count, found '%s'", optarg);
			break;
		case OPT_PAIR: opts.pair_path = optarg; break;
		case OPT_INSTR_MAP: opts.instr_map_path = optarg; break;
		case OPT_NO_VALIDATE: check = false; break;
		case OPT_MAX_ERRORS:
			if (!parse_count(optarg, &limit_errors) || limit_errors > UINT32_MAX)
				return usage("--max-errors: expected a count, found '%s'", optarg);
			opts.max_errors = (unsigned)limit_errors;
			break;
		case OPT_ENDIAN:
			if (strcmp(optarg, "auto") == 0)
				opts.endian = TL_ENDIAN_AUTO;
			else if (strcmp(optarg, "little") == 0)
				opts.endian = TL_ENDIAN_LITTLE;
			else if (strcmp(optarg, "big") == 0)
				opts.endian = TL_ENDIAN_BIG;
			else
				return usage("--endian: expected auto, little or big, found '%s'", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return DUMP_OK;
		default:
			return usage("%s", "bad option");
		}
	}
	if (argc - optind != 1)
		return usage("%s", argc - optind ? "one FILE at a time" : "no FILE given");
	const char *path = argv[optind];
	char err[1024] = "";
	struct tl_result res;
	memset(&res, 0, sizeof res);
	enum tl_format_id format = opts.format;
	if (check) {
		enum tl_status st = validate(path, &opts, &res, err, sizeof err);
		if (st != TL_OK)
			return DUMP_USAGE; /* the writer said why */
		format = res.format;
	} else if (format == TL_FORMAT_AUTO && tl_detect_path(path, &format, err, sizeof err) != TL_OK) {
		fprintf(stderr, "tracelint dump: %s\n", err);
		return DUMP_USAGE;
	}
	struct tl_input in;
	memset(&in, 0, sizeof in);
	if (!tl_input_open(&in, path, err, sizeof err)) {
		fprintf(stderr, "tracelint dump: %s\n", err);
		return DUMP_USAGE;
	}
	struct dump_run *r = calloc(1, sizeof *r); /* with its 64 KiB line buffer */
	if (!r) {
		tl_input_close(&in);
		fprintf(stderr, "tracelint dump: out of memory\n");
		return DUMP_USAGE;
	}
	r->jl.out = stdout;
	r->in = &in;
	r->opts = &opts;
	r->path = path;
	r->limit = limit;
	r->edge_bound = limit ? limit : DUMP_EDGE_BOUND;
	dispatch(r, format);
	tl_input_close(&in);
	int rc = check && !res.valid ? DUMP_INVALID : DUMP_OK;
	if (!jl_flush(&r->jl) || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tracelint dump: cannot write the dump: %s\n", strerror(errno));
		free(r);
		return DUMP_USAGE;
	}
	if (r->limited)
		fprintf(stderr, "tracelint dump: %s: stopped at the limit of %" PRIu64 " records "
			"(--limit)\n", path, r->limit);
	if (r->edges_limited)
		fprintf(stderr, "tracelint dump: %s: a thread's decoded edges stopped at the bound of %" PRIu64
			" (--limit)\n", path, r->edge_bound);
	if (r->incomplete) {
		fprintf(stderr, "tracelint dump: %s: dumped %" PRIu64 " records; %s\n", path,
			r->records, r->why);
		rc = DUMP_INVALID;
	}
	free(r);
	return rc;
}
