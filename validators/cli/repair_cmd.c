/* tracelint repair [OPTIONS] INPUT OUTPUT: the command around tl_repair.
 * The output is written to a temporary file beside its destination,
 * validated, and only then renamed into place (or copied to standard
 * output), so a failure leaves the destination, and the input, as they were. */
#include "repair_cmd.h"
#include "repair_report.h"
#include "validators/repair/repair.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { REPAIR_NOTHING = 0, REPAIR_DONE = 1, REPAIR_USAGE = 2, REPAIR_NONE_LEFT = 3 };

static const char usage[] =
	"usage: tracelint repair [OPTIONS] INPUT OUTPUT\n"
	"       tracelint repair [OPTIONS] --in-place INPUT\n"
	"Writes the longest valid trace that can be made of INPUT to OUTPUT and reports\n"
	"every byte range dropped or rewritten. INPUT '-': standard input; OUTPUT '-':\n"
	"standard output (the report then goes to standard error).\n"
	"  -o, --output=STYLE  the report: text (default) | json | sarif\n"
	"  -f, --format=FORMAT xray | dcfg | dcfg-trace | tfile (default: detected)\n"
	"      --endian=ORDER  little | big (XRay, when the header is damaged)\n"
	"      --pair=DCFG     validate a DCFG-trace against its DCFG\n"
	"      --instr-map=BINARY  XRay: function ids the binary defines\n"
	"  -i, --in-place      replace INPUT (atomically; kept as it is when anything fails)\n"
	"  -q, --quiet         the report's summary only\n"
	"Exit status: 0 nothing to repair, 1 repaired, 2 usage or I/O error,\n"
	"3 nothing salvageable (nothing written).\n";

struct repair_args {
	struct tl_options opts;
	enum tl_output_style style;
	bool in_place, quiet;
	const char *input, *output;
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tracelint repair: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
	return REPAIR_USAGE;
}

static int parse(struct repair_args *a, int argc, char **argv)
{
	enum { OPT_ENDIAN = 256, OPT_PAIR, OPT_INSTR_MAP };
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "endian", required_argument, NULL, OPT_ENDIAN },
		{ "pair", required_argument, NULL, OPT_PAIR },
		{ "instr-map", required_argument, NULL, OPT_INSTR_MAP },
		{ "in-place", no_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "o:f:iqh", longs, NULL)) != -1) {
		switch (ch) {
		case 'o':
			if (strcmp(optarg, "text") == 0)
				a->style = TL_OUTPUT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				a->style = TL_OUTPUT_JSON;
			else if (strcmp(optarg, "sarif") == 0)
				a->style = TL_OUTPUT_SARIF;
			else
				return usage_error("--output takes text, json or sarif", optarg);
			break;
		case 'f':
			a->opts.format = tl_format_from_name(optarg);
			if (a->opts.format == TL_FORMAT_COUNT)
				return usage_error("unknown format", optarg);
			break;
		case OPT_ENDIAN:
			if (strcmp(optarg, "little") == 0)
				a->opts.endian = TL_ENDIAN_LITTLE;
			else if (strcmp(optarg, "big") == 0)
				a->opts.endian = TL_ENDIAN_BIG;
			else
				return usage_error("--endian takes little or big", optarg);
			break;
		case OPT_PAIR: a->opts.pair_path = optarg; break;
		case OPT_INSTR_MAP: a->opts.instr_map_path = optarg; break;
		case 'i': a->in_place = true; break;
		case 'q': a->quiet = true; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			return usage_error("unknown option or missing argument", argv[optind - 1]);
		}
	}
	int left = argc - optind;
	if (left != (a->in_place ? 1 : 2))
		return usage_error(a->in_place ? "--in-place takes INPUT alone" : "INPUT and OUTPUT are needed",
				   NULL);
	a->input = argv[optind];
	a->output = a->in_place ? argv[optind] : argv[optind + 1];
	if (a->in_place && strcmp(a->input, "-") == 0)
		return usage_error("--in-place needs a file (standard input has no place to be replaced)", NULL);
	return -1;
}

static bool to_file(const void *data, size_t size, void *user)
{
	return fwrite(data, 1, size, user) == size;
}

/* A temporary file in the directory of dest ("-": $TMPDIR), so that the
 * rename that puts it in place is atomic. */
static FILE *temp_beside(const char *dest, char *path, size_t len)
{
	char copy[4096];
	const char *dir;
	if (strcmp(dest, "-") == 0) {
		dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
	} else {
		snprintf(copy, sizeof copy, "%s", dest);
		dir = dirname(copy);
	}
	if ((size_t)snprintf(path, len, "%s/.tracelint-repair-XXXXXX", dir) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(path);
	}
	return f;
}

static bool copy_to_stdout(const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;
	bool ok = f != NULL;
	while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0)
		ok = fwrite(buf, 1, n, stdout) == n;
	ok = ok && !ferror(f) && fflush(stdout) == 0;
	if (f)
		fclose(f);
	return ok;
}


static void on_output_diag(const struct tl_diagnostic *d, void *user)
{
	repair_warnings_add(user, d);
}

/* The guarantee: the output validates (warnings allowed, kept for the report). */
static bool output_valid(const struct repair_args *a, const char *path, enum tl_format_id format,
			 struct repair_warnings *w, char *why, size_t whylen)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = format;
	o.endian = a->opts.endian;
	o.pair_path = a->opts.pair_path;
	o.instr_map_path = a->opts.instr_map_path;
	o.on_diag = on_output_diag;
	o.user = w;
	struct tl_result r;
	enum tl_status st = tl_validate_path(path, &o, &r, why, whylen);
	if (st == TL_OK && !r.valid)
		snprintf(why, whylen, "the salvaged file does not validate (%llu errors)",
			 (unsigned long long)r.errors);
	return st == TL_OK && r.valid;
}

static mode_t current_umask(void)
{
	mode_t m = umask(0);
	umask(m);
	return m;
}

static int run(struct repair_args *a)
{
	/* opened as validation opens it: mapped, standard input spooled to an
	 * unlinked temporary file; the repair hands the pages back as it goes */
	bool from_stdin = strcmp(a->input, "-") == 0;
	struct tl_input in;
	char err[512];
	memset(&in, 0, sizeof in);
	if (!tl_input_open_limited(&in, a->input, TL_STDIN_LIMIT_DEFAULT, err, sizeof err)) {
		fprintf(stderr, "tracelint repair: %s\n", err); /* err names the input */
		return REPAIR_USAGE;
	}
	struct stat st;
	if (in.is_directory || (!from_stdin && stat(a->input, &st) != 0)) {
		tl_input_close(&in);
		fprintf(stderr, "tracelint repair: %s: not a regular file (trace directories are not repaired)\n",
			a->input);
		return REPAIR_USAGE;
	}
	if (from_stdin) /* the output gets the mode a new file gets */
		st.st_mode = 0666 & ~current_umask();

	char temp[4200];
	FILE *out = temp_beside(a->output, temp, sizeof temp);
	if (!out) {
		fprintf(stderr, "tracelint repair: cannot make a temporary file beside %s: %s\n", a->output,
			strerror(errno));
		tl_input_close(&in);
		return REPAIR_USAGE;
	}
	struct tl_repair_report rep;
	enum tl_repair_outcome outcome = tl_repair_input(&in, &a->opts, to_file, out, &rep);
	bool written = fflush(out) == 0 && fsync(fileno(out)) == 0;
	written = (fclose(out) == 0) && written;
	tl_input_close(&in);

	struct repair_warnings warnings = { 0 };
	char why[200] = "";
	if (outcome == TL_REPAIR_NOTHING || outcome == TL_REPAIR_REPAIRED) {
		if (!written) {
			snprintf(rep.reason, sizeof rep.reason, "cannot write the output: %s", strerror(errno));
			outcome = TL_REPAIR_FAILED;
		} else if (!output_valid(a, temp, rep.format, &warnings, why, sizeof why)) {
			snprintf(rep.reason, sizeof rep.reason, "%s; nothing written", why);
			outcome = TL_REPAIR_NONE_LEFT;
		}
	}
	bool placed = false;
	if (outcome == TL_REPAIR_REPAIRED || (outcome == TL_REPAIR_NOTHING && !a->in_place)) {
		if (strcmp(a->output, "-") == 0)
			placed = copy_to_stdout(temp);
		else
			placed = chmod(temp, st.st_mode & 07777) == 0 && rename(temp, a->output) == 0;
		if (!placed) {
			snprintf(rep.reason, sizeof rep.reason, "cannot write %s: %s", a->output, strerror(errno));
			outcome = TL_REPAIR_FAILED;
		}
	}
	if (!placed || strcmp(a->output, "-") == 0)
		unlink(temp);

	FILE *report_to = strcmp(a->output, "-") == 0 ? stderr : stdout;
	struct repair_view view = { a->input, a->in_place ? a->input : a->output, outcome, &rep, &warnings,
				    a->quiet };
	if (repair_report_write(report_to, a->style, &view) != 0 && outcome != TL_REPAIR_FAILED) {
		fprintf(stderr, "tracelint repair: cannot write the report: %s\n", strerror(errno));
		outcome = TL_REPAIR_FAILED;
	}
	repair_warnings_free(&warnings);
	tl_repair_report_free(&rep);
	switch (outcome) {
	case TL_REPAIR_NOTHING: return REPAIR_NOTHING;
	case TL_REPAIR_REPAIRED: return REPAIR_DONE;
	case TL_REPAIR_NONE_LEFT: return REPAIR_NONE_LEFT;
	default: return REPAIR_USAGE;
	}
}

int cli_repair(int argc, char **argv)
{
	struct repair_args a;
	memset(&a, 0, sizeof a);
	tl_options_init(&a.opts);
	int rc = parse(&a, argc, argv);
	return rc >= 0 ? rc : run(&a);
}
