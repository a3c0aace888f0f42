/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "tracelint.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
	"usage: tracelint [OPTIONS] PATH...\n"
	"Validate trace files against their specifications.\n"
	"\n"
	"  PATH                a file; a directory holding a UMTracer trace; or - for standard input\n"
	"  -f, --format=FMT    auto (default) | xray | dcfg | dcfg-trace | umtrace | tfile\n"
	"      --pair=DCFG     check a DCFG-trace against the DCFG it belongs to\n"
	"      --instr-map=BINARY  check an XRay trace's function ids against the\n"
	"                      xray_instr_map section of the instrumented ELF binary\n"
	"  -o, --output=STYLE  text (default) | json | sarif\n"
	"  -W, --werror        warnings make the verdict invalid\n"
	"      --max-errors=N  stop reporting a file after N errors (default 100; 0 = no limit)\n"
	"      --stdin-limit=SIZE  most bytes read from standard input (-), e.g. 512M,\n"
	"                      8G (default 4G); 0 = no limit\n"
	"      --endian=ORDER  auto (default) | little | big: byte order of binary traces that\n"
	"                      do not record it (tfile)\n"
	"  -q, --quiet         print only one verdict line per PATH\n"
	"      --list-rules    print the rule catalog (all formats, or the one given with --format)\n"
	"  -V, --version       print the version\n"
	"  -h, --help          print this help\n"
	"\n"
	"Exit status: 0 every PATH valid (warnings allowed unless -W); 1 at least one PATH\n"
	"invalid; 2 usage error, unreadable PATH, or a format that could not be recognised.\n";

struct cli {
	struct tl_options opts;
	enum tl_output_style style;
	bool quiet;
	bool list_rules;
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tracelint: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'tracelint --help'.\n");
	va_end(ap);
	return EXIT_USAGE;
}

static bool parse_unsigned(const char *s, unsigned *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > 0xffffffffUL)
		return false;
	*out = (unsigned)v;
	return true;
}

/* A byte count with an optional K, M, G or T suffix (powers of 1024). */
static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (errno || *end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = v == 0 ? UINT64_MAX : (uint64_t)v << shift;
	return true;
}

/* Rules of one format, or of all; DCFG-trace includes the pair rules and
 * every JSON format includes the shared JSON rules. */
static bool rule_listed(const struct tl_rule_info *r, enum tl_format_id f)
{
	if (f == TL_FORMAT_AUTO)
		return true;
	const char *name = tl_format_name(f);
	if (strcmp(r->format, name) == 0 || strcmp(r->format, "core") == 0)
		return true;
	return strcmp(r->format, "json") == 0 &&
	       (f == TL_FORMAT_DCFG || f == TL_FORMAT_DCFG_TRACE);
}

static int list_rules(const struct cli *c)
{
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		if (rule_listed(r, c->opts.format))
			printf("%-28s %-7s %-10s %s (%s)\n", r->id, tl_severity_name(r->severity),
			       r->format, r->summary, r->source);
	}
	return EXIT_VALID;
}

static int parse_args(struct cli *c, int argc, char **argv, int *first_path)
{
	enum { OPT_PAIR = 256, OPT_MAX_ERRORS, OPT_LIST_RULES, OPT_ENDIAN, OPT_INSTR_MAP,
	       OPT_STDIN_LIMIT };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "pair", required_argument, NULL, OPT_PAIR },
		{ "instr-map", required_argument, NULL, OPT_INSTR_MAP },
		{ "output", required_argument, NULL, 'o' },
		{ "werror", no_argument, NULL, 'W' },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "endian", required_argument, NULL, OPT_ENDIAN },
		{ "stdin-limit", required_argument, NULL, OPT_STDIN_LIMIT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list-rules", no_argument, NULL, OPT_LIST_RULES },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+f:o:WqVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			c->opts.format = tl_format_from_name(optarg);
			if (c->opts.format == TL_FORMAT_COUNT)
				return usage_error("unknown format '%s' (auto, xray, dcfg, dcfg-trace, "
						   "umtrace, tfile)", optarg);
			break;
		case OPT_PAIR: c->opts.pair_path = optarg; break;
		case OPT_INSTR_MAP: c->opts.instr_map_path = optarg; break;
		case 'o':
			if (strcmp(optarg, "text") == 0)
				c->style = TL_OUTPUT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				c->style = TL_OUTPUT_JSON;
			else if (strcmp(optarg, "sarif") == 0)
				c->style = TL_OUTPUT_SARIF;
			else
				return usage_error("unknown output style '%s' (text, json, sarif)", optarg);
			break;
		case 'W': c->opts.werror = true; break;
		case OPT_MAX_ERRORS:
			if (!parse_unsigned(optarg, &c->opts.max_errors))
				return usage_error("--max-errors needs a whole number, not '%s'", optarg);
			break;
		case OPT_STDIN_LIMIT:
			if (!parse_size(optarg, &c->opts.stdin_limit))
				return usage_error("--stdin-limit needs a size such as 512M or 8G, not '%s'",
						   optarg);
			break;
		case OPT_ENDIAN:
			if (strcmp(optarg, "auto") == 0)
				c->opts.endian = TL_ENDIAN_AUTO;
			else if (strcmp(optarg, "little") == 0)
				c->opts.endian = TL_ENDIAN_LITTLE;
			else if (strcmp(optarg, "big") == 0)
				c->opts.endian = TL_ENDIAN_BIG;
			else
				return usage_error("unknown byte order '%s' (auto, little, big)", optarg);
			break;
		case 'q': c->quiet = true; break;
		case OPT_LIST_RULES: c->list_rules = true; break;
		case 'V': printf("tracelint %s\n", TRACELINT_VERSION); exit(EXIT_VALID);
		case 'h': fputs(usage_text, stdout); exit(EXIT_VALID);
		default:
			return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	*first_path = optind;
	return -1;
}

int main(int argc, char **argv)
{
	struct cli c;
	memset(&c, 0, sizeof c);
	tl_options_init(&c.opts);
	int first = argc;
	int rc = parse_args(&c, argc, argv, &first);
	if (rc >= 0)
		return rc;
	if (c.list_rules)
		return list_rules(&c);
	if (first >= argc)
		return usage_error("%s", "no PATH given");

	struct tl_writer *w = tl_writer_new(c.style, stdout, c.quiet);
	if (!w) {
		fprintf(stderr, "tracelint: out of memory\n");
		return EXIT_USAGE;
	}
	c.opts.on_diag = tl_writer_diag;
	c.opts.user = w;
	int exit_code = EXIT_VALID;
	for (int i = first; i < argc; i++) {
		struct tl_result result;
		char err[1024] = "";
		tl_writer_begin(w, argv[i]);
		enum tl_status s = tl_validate_path(argv[i], &c.opts, &result, err, sizeof err);
		tl_writer_end(w, &result, s, err);
		if (s != TL_OK)
			exit_code = EXIT_USAGE;
		else if (!result.valid && exit_code == EXIT_VALID)
			exit_code = EXIT_INVALID;
	}
	if (tl_writer_finish(w) != 0) {
		fprintf(stderr, "tracelint: cannot write the report: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	return exit_code;
}
