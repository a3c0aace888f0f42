/* Validate after writing: a producer's test writes a trace, then checks it
 * with libtracelint and prints every diagnostic the way tracelint does.
 *
 *   validate_after_write FILE [--broken]     exit 0 valid, 1 invalid, 2 error
 *
 * Build: cc validate_after_write.c $(pkg-config --cflags --libs tracelint) */
#include "tiny_tracer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <tracelint.h>

static void print_diagnostic(const struct tl_diagnostic *d, void *user)
{
	const char *path = user;
	printf("%s:%" PRIu64 ": %s: %s [%s]\n", path, d->loc.offset, tl_severity_name(d->severity),
	       d->message, d->rule->id);
}

static int write_trace(const char *path, bool broken)
{
	FILE *f = fopen(path, "wb");
	uint8_t rec[TINY_RECORD];
	if (!f)
		return -1;
	tiny_header(rec);
	fwrite(rec, 1, sizeof rec, f);
	for (uint64_t i = 0; i < 1000; i++) {
		tiny_record(rec, i, broken && i == 500);
		fwrite(rec, 1, sizeof rec, f);
	}
	return fclose(f);
}

/* Checks the file just written and prints what tracelint would; the exit status. */
static int validate(char *path)
{
	struct tl_options opts;
	tl_options_init(&opts);          /* the defaults, then what this producer knows: */
	opts.format = TL_FORMAT_XRAY;    /* the format it wrote, so nothing is guessed */
	opts.on_diag = print_diagnostic; /* every diagnostic as it is found */
	opts.user = path;
	struct tl_result result;
	char err[512];
	if (tl_validate_path(path, &opts, &result, err, sizeof err) != TL_OK) {
		fprintf(stderr, "%s\n", err); /* not a verdict: the file could not be read */
		return 2;
	}
	printf("%s: %s (%" PRIu64 " errors, %" PRIu64 " warnings; %s)\n", path,
	       result.valid ? "valid" : "invalid", result.errors, result.warnings, result.detail);
	return result.valid ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || write_trace(argv[1], argc > 2 && strcmp(argv[2], "--broken") == 0) != 0) {
		fprintf(stderr, "usage: validate_after_write FILE [--broken]\n");
		return 2;
	}
	return validate(argv[1]);
}
