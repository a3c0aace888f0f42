/* The command line: GNU-style options anywhere among the paths, every usage
 * error naming the argument it is about. */
#include "cli.h"
#include "safe_text.h"
#include "rule_list.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static const char usage_text[] =
	"usage: tracelint [OPTIONS] PATH...\n"
	"       tracelint dump [-f FMT] [--limit=N] FILE   (what FILE holds, as JSON Lines)\n"
	"Validate trace files against their specifications.\n"
	"\n"
	"  PATH                a file; a directory holding a UMTracer trace; or - for standard input\n"
	"  -f, --format=FMT    auto (default) | xray | dcfg | dcfg-trace | umtrace | tfile\n"
	"      --pair=DCFG     check a DCFG-trace against the DCFG it belongs to\n"
	"      --instr-map=BINARY  check an XRay trace's function ids against the\n"
	"                      xray_instr_map section of the instrumented ELF binary\n"
	"  -o, --output=STYLE  text (default) | json | sarif\n"
	"  -W, --werror        warnings make the verdict invalid\n"
	"      --select=RULES  report only these rules (IDs, globs such as 'XRAY-FDR-*', or\n"
	"                      format names; comma-separated, repeatable)\n"
	"      --ignore=RULES  do not report these rules\n"
	"      --severity=RULES=LEVEL  report these rules as error | warning | note | off\n"
	"      --error=RULES   report these rules as errors (one rule's -W)\n"
	"      --max-errors=N  stop reporting a file after N errors (default 100; 0 = no limit)\n"
	"      --stdin-limit=SIZE  most bytes read from standard input (-), e.g. 512M,\n"
	"                      8G (default 4G); 0 = no limit\n"
	"      --max-memory=SIZE  most memory the reader of one JSON file (DCFG,\n"
	"                      DCFG-trace) may hold, e.g. 512M (default 4G; 0 = no limit)\n"
	"      --endian=ORDER  auto (default) | little | big: byte order of binary traces that\n"
	"                      do not record it (tfile)\n"
	"      --files-from=FILE  also validate the paths listed in FILE, one a line (- for\n"
	"                      standard input); with -0 they end with NUL bytes (find -print0)\n"
	"      --force-exclude  a config's exclude= also drops paths named on the command\n"
	"                      line or in --files-from (the hooks use it)\n"
	"      --staged-deletions  also validate each UMTracer trace that a deletion\n"
	"                      staged in git took a member from (for pre-commit hooks)\n"
	"      --unknown-format=ACTION  skip | error: what a file of no known format\n"
	"                      is (default: skipped when found by a directory walk,\n"
	"                      an error when named)\n"
	"  -j, --jobs=N        validate N files at a time (default: one per core); the\n"
	"                      output is the same, in the same order, whatever N\n"
	"      --threads=N     threads for one file: decompressing bzip2 by blocks\n"
	"                      (default: the config's threads, else TRACELINT_THREADS, else\n"
	"                      every core this process may use); the output is the same\n"
	"                      whatever N\n"
	"      --config=FILE   read settings from FILE instead of the .tracelint.ini found\n"
	"                      from each file's directory upward\n"
	"      --no-config     read no config file\n"
	"      --baseline=FILE  report only diagnostics not recorded in FILE\n"
	"      --write-baseline=FILE  record every diagnostic of this run in FILE\n"
	"      --write-through-symlink  a symbolic link at the baseline to write is\n"
	"                      followed (refused otherwise)\n"
	"      --sarif-root=DIR  SARIF: URIs relative to DIR (the repository root)\n"
	"      --sarif-help-base=URL  SARIF: rule help at URL<RULE-ID>.md, the rule pages\n"
	"                      (default: the project's catalogs on GitHub)\n"
	"      --context, --no-context  under each diagnostic, the bytes around it (hex\n"
	"                      and ASCII) or its line with a caret (default: on a terminal)\n"
	"      --color=WHEN    auto (default: on a terminal, unless NO_COLOR is set) |\n"
	"                      always | never\n"
	"  -q, --quiet         print only one verdict line per PATH\n"
	"      --list-rules [RULE...]  print the rule catalog: all of it, one format's\n"
	"                      (--format), or the rules named by IDs and globs; -o json for JSON\n"
	"      --explain RULE...  what each rule checks, why it matters, a corpus example\n"
	"                      and how to fix it; -o json for JSON\n"
	"  -V, --version       print the version\n"
	"  -h, --help          print this help\n"
	"\n"
	"Options may come before or after the paths; '--' ends them. Rule settings apply\n"
	"in command-line order and the last one that matches a rule wins; the command\n"
	"line wins over the config file, which wins over the defaults.\n"
	"Exit status: 0 every PATH valid (warnings allowed unless -W); 1 at least one PATH\n"
	"invalid; 2 usage error, unreadable PATH, or a format that could not be recognised.\n";

int cli_usage_error(const char *fmt, ...)
{
	/* the message may quote a config's keys, a path or a baseline's bytes:
	 * no control character of theirs reaches the terminal */
	char message[8192], safe[4 * 8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	tl_text_escape(safe, sizeof safe, message);
	fprintf(stderr, "tracelint: %s\nTry 'tracelint --help'.\n", safe);
	return EXIT_USAGE;
}

/* The decimal number s starts with; *end is set past it. */
static bool leading_number(const char *s, unsigned long long *v, char **end)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	*v = strtoull(s, end, 10);
	return errno == 0;
}

static bool parse_unsigned(const char *s, unsigned *out)
{
	unsigned long long v;
	char *end;
	if (!leading_number(s, &v, &end) || *end || v > 0xffffffffULL)
		return false;
	*out = (unsigned)v;
	return true;
}

/* A byte count with an optional K, M, G or T suffix (powers of 1024). */
static bool parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	if (!leading_number(s, &v, &end))
		return false;
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = v == 0 ? UINT64_MAX : (uint64_t)v << shift;
	return true;
}

bool cli_parse_size(const char *s, uint64_t *out)
{
	return parse_size(s, out);
}

static bool add_setting(struct cli *c, const char *pattern, enum tl_rule_action action)
{
	return cli_add_rule(&c->rules, &c->rule_count, &c->rule_cap,
			    (struct tl_rule_setting){ pattern, action });
}

/* OPTION=a,b,c: each pattern must name at least one rule of the catalog.
 * The patterns point into argv (commas become NULs). */
static int add_patterns(struct cli *c, const char *option, char *list, enum tl_rule_action action)
{
	for (char *save = NULL, *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (tl_rule_pattern_matches(p) == 0)
			return cli_usage_error("%s: '%s' matches no rule (see --list-rules)", option, p);
		if (!add_setting(c, p, action))
			return cli_usage_error("%s", "out of memory");
	}
	return -1;
}

static int parse_severity(struct cli *c, char *arg)
{
	char *eq = strrchr(arg, '=');
	if (!eq)
		return cli_usage_error("--severity needs RULES=LEVEL, not '%s'", arg);
	*eq = '\0';
	static const struct { const char *name; enum tl_rule_action action; } levels[] = {
		{ "error", TL_RULE_ERROR }, { "warning", TL_RULE_WARNING },
		{ "note", TL_RULE_NOTE }, { "off", TL_RULE_OFF }, { "default", TL_RULE_DEFAULT },
	};
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
		if (strcmp(eq + 1, levels[i].name) == 0)
			return add_patterns(c, "--severity", arg, levels[i].action);
	return cli_usage_error("--severity: unknown level '%s' (error, warning, note, off, default)", eq + 1);
}

static int parse_select(struct cli *c, char *arg)
{
	/* ruff's --select: the first one narrows the report to what is selected */
	if (!c->selected) {
		c->selected = true;
		if (!add_setting(c, "*", TL_RULE_OFF))
			return cli_usage_error("%s", "out of memory");
	}
	return add_patterns(c, "--select", arg, TL_RULE_DEFAULT);
}

static int parse_choice(const char *option, const char *arg, const char *const *names, int count,
			int *out)
{
	for (int i = 0; i < count; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*out = i;
			return -1;
		}
	}
	char list[128] = "";
	for (int i = 0; i < count; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
	return cli_usage_error("%s: unknown value '%s' (%s)", option, arg, list);
}

/* The argument getopt_long stopped at, for a message. */
static const char *offending(char **argv, int optind_now, int optopt_now)
{
	static char shortopt[3];
	const char *arg = argv[optind_now - 1];
	bool long_form = arg[0] == '-' && arg[1] == '-';
	if (optopt_now && optopt_now < 256 && !long_form) {
		shortopt[0] = '-';
		shortopt[1] = (char)optopt_now;
		shortopt[2] = '\0';
		return shortopt;
	}
	return arg;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
	enum { OPT_PAIR = 256, OPT_MAX_ERRORS, OPT_LIST_RULES, OPT_EXPLAIN, OPT_ENDIAN, OPT_INSTR_MAP, OPT_SELECT,
	       OPT_IGNORE, OPT_SEVERITY, OPT_ERROR, OPT_STDIN_LIMIT, OPT_FILES_FROM, OPT_UNKNOWN,
	       OPT_STAGED_DELETIONS, OPT_FORCE_EXCLUDE, OPT_MAX_MEMORY, OPT_CONFIG, OPT_NO_CONFIG, OPT_BASELINE, OPT_WRITE_BASELINE, OPT_SARIF_ROOT,
	       OPT_WRITE_THROUGH_SYMLINK, OPT_HELP_BASE, OPT_CONTEXT, OPT_NO_CONTEXT, OPT_COLOR, OPT_THREADS };
	/* grouped by topic: input, rules, config and baselines, output, modes; ARG takes a
	 * value, FLAG does not */
#define ARG(name, id) { name, required_argument, NULL, id }
#define FLAG(name, id) { name, no_argument, NULL, id }
	static const struct option longopts[] = {
		ARG("format", 'f'), ARG("pair", OPT_PAIR), ARG("instr-map", OPT_INSTR_MAP),
		ARG("endian", OPT_ENDIAN), ARG("stdin-limit", OPT_STDIN_LIMIT), ARG("max-memory", OPT_MAX_MEMORY),
		ARG("files-from", OPT_FILES_FROM), FLAG("null", '0'), ARG("unknown-format", OPT_UNKNOWN),
		FLAG("staged-deletions", OPT_STAGED_DELETIONS), FLAG("force-exclude", OPT_FORCE_EXCLUDE),
		ARG("select", OPT_SELECT), ARG("ignore", OPT_IGNORE), ARG("severity", OPT_SEVERITY),
		ARG("error", OPT_ERROR), FLAG("werror", 'W'), ARG("max-errors", OPT_MAX_ERRORS),
		ARG("config", OPT_CONFIG), FLAG("no-config", OPT_NO_CONFIG),
		ARG("baseline", OPT_BASELINE), ARG("write-baseline", OPT_WRITE_BASELINE),
		FLAG("write-through-symlink", OPT_WRITE_THROUGH_SYMLINK),
		ARG("output", 'o'), ARG("sarif-root", OPT_SARIF_ROOT), ARG("sarif-help-base", OPT_HELP_BASE),
		FLAG("context", OPT_CONTEXT), FLAG("no-context", OPT_NO_CONTEXT),
		ARG("color", OPT_COLOR), ARG("colour", OPT_COLOR), FLAG("quiet", 'q'),
		ARG("jobs", 'j'), ARG("threads", OPT_THREADS),
		FLAG("list-rules", OPT_LIST_RULES), FLAG("explain", OPT_EXPLAIN),
		FLAG("version", 'V'), FLAG("help", 'h'),
		{ NULL, 0, NULL, 0 },
	};
#undef ARG
#undef FLAG
	static const char *const styles[] = { "text", "json", "sarif" };
	static const char *const orders[] = { "auto", "little", "big" };
	static const char *const unknown_actions[] = { "skip", "error" };
	static const char *const whens[] = { "never", "always", "auto" };
	int ch, rc = -1, choice;
	opterr = 0;
	optind = 1;
	/* the leading ':' tells a missing value from an unknown option */
	while (rc < 0 && (ch = getopt_long(argc, argv, ":f:o:Wq0j:Vh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			c->format_given = true;
			c->opts.format = tl_format_from_name(optarg);
			if (c->opts.format == TL_FORMAT_COUNT)
				rc = cli_usage_error("--format: unknown format '%s' (auto, xray, dcfg, "
						     "dcfg-trace, umtrace, tfile)", optarg);
			break;
		case OPT_PAIR: c->opts.pair_path = optarg; break;
		case OPT_INSTR_MAP: c->opts.instr_map_path = optarg; break;
		case 'o':
			if ((rc = parse_choice("--output", optarg, styles, 3, &choice)) < 0)
				c->style = (enum tl_output_style)choice;
			break;
		case 'W': c->opts.werror = true; break;
		case OPT_SELECT: rc = parse_select(c, optarg); break;
		case OPT_IGNORE: rc = add_patterns(c, "--ignore", optarg, TL_RULE_OFF); break;
		case OPT_SEVERITY: rc = parse_severity(c, optarg); break;
		case OPT_ERROR: rc = add_patterns(c, "--error", optarg, TL_RULE_ERROR); break;
		case OPT_MAX_ERRORS:
			c->max_errors_given = true;
			if (!parse_unsigned(optarg, &c->opts.max_errors))
				rc = cli_usage_error("--max-errors needs a whole number, not '%s'", optarg);
			break;
		case OPT_STDIN_LIMIT:
			if (!parse_size(optarg, &c->opts.stdin_limit))
				rc = cli_usage_error("--stdin-limit needs a size such as 512M or 8G, not '%s'",
						     optarg);
			break;
		case OPT_MAX_MEMORY:
			c->max_memory_given = true;
			if (!parse_size(optarg, &c->opts.max_memory))
				rc = cli_usage_error("--max-memory needs a size such as 512M or 8G, not '%s'",
						     optarg);
			break;
		case OPT_ENDIAN:
			c->endian_given = true;
			if ((rc = parse_choice("--endian", optarg, orders, 3, &choice)) < 0)
				c->opts.endian = (enum tl_endian)choice;
			break;
		case 'q': c->quiet = true; break;
		case OPT_FILES_FROM: c->files_from = optarg; break;
		case '0': c->nul_separated = true; break;
		case OPT_STAGED_DELETIONS: c->staged_deletions = true; break;
		case OPT_FORCE_EXCLUDE: c->force_exclude = true; break;
		case OPT_UNKNOWN:
			rc = parse_choice("--unknown-format", optarg, unknown_actions, 2, &c->unknown_format);
			break;
		case 'j':
			if (!parse_unsigned(optarg, &c->jobs) || c->jobs == 0 || c->jobs > 1024)
				rc = cli_usage_error("--jobs needs a number of files from 1 to 1024, not '%s'", optarg);
			break;
		case OPT_THREADS:
			if (!parse_unsigned(optarg, &c->opts.threads) || c->opts.threads == 0 || c->opts.threads > 64)
				rc = cli_usage_error("--threads needs a number of threads from 1 to 64, not '%s'",
						     optarg);
			break;
		case OPT_CONFIG: c->config_path = optarg; break;
		case OPT_NO_CONFIG: c->no_config = true; break;
		case OPT_BASELINE: c->baseline = optarg; break;
		case OPT_WRITE_BASELINE: c->write_baseline = optarg; break;
		case OPT_WRITE_THROUGH_SYMLINK: c->write_through_symlink = true; break;
		case OPT_SARIF_ROOT: c->sarif_root = optarg; break;
		case OPT_HELP_BASE: c->help_base = optarg; break;
		case OPT_CONTEXT: c->context = 1; break;
		case OPT_NO_CONTEXT: c->context = 0; break;
		case OPT_COLOR: rc = parse_choice("--color", optarg, whens, 3, &c->color); break;
		case OPT_LIST_RULES: c->list_rules = true; break;
		case OPT_EXPLAIN: c->explain = true; break;
		case 'V': printf("tracelint %s\n", TRACELINT_VERSION); rc = EXIT_VALID; break;
		case 'h': fputs(usage_text, stdout); rc = EXIT_VALID; break;
		case ':':
			rc = cli_usage_error("option '%s' needs a value", offending(argv, optind, optopt));
			break;
		default:
			rc = cli_usage_error("unknown option '%s'", offending(argv, optind, optopt));
			break;
		}
	}
	if (rc >= 0)
		return rc;
	c->opts.rule_settings = c->rules;
	c->opts.rule_setting_count = c->rule_count;
	/* getopt_long has moved the paths behind the options, in their order */
	c->paths = argv + optind;
	c->path_count = (size_t)(argc - optind);
	return -1;
}

void cli_free(struct cli *c)
{
	free(c->rules);
	c->rules = NULL;
}
