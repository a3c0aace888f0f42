/* Stream while writing: a tracer hands every buffer it flushes to the file
 * to tl_stream_feed as well, and learns the verdict when it closes the
 * trace, without reading the file back.
 *
 *   stream_while_write FILE [--broken]       exit 0 valid, 1 invalid, 2 error
 *
 * Build: cc stream_while_write.c $(pkg-config --cflags --libs tracelint) */
#include "tiny_tracer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <tracelint.h>

enum { RECORDS_PER_BUFFER = 64 };

static void print_diagnostic(const struct tl_diagnostic *d, void *user)
{
	(void)user;
	printf("byte %" PRIu64 ": %s: %s [%s]\n", d->loc.offset, tl_severity_name(d->severity),
	       d->message, d->rule->id);
}

/* Writes one buffer and feeds the same bytes to the stream. */
static bool flush(FILE *f, struct tl_stream *s, const uint8_t *buf, size_t n)
{
	return fwrite(buf, 1, n, f) == n && tl_stream_feed(s, buf, n) == TL_OK;
}

int main(int argc, char **argv)
{
	bool broken = argc > 2 && strcmp(argv[2], "--broken") == 0;
	FILE *f = argc >= 2 ? fopen(argv[1], "wb") : NULL;
	if (!f) {
		fprintf(stderr, "usage: stream_while_write FILE [--broken]\n");
		return 2;
	}
	struct tl_options opts;
	char err[512];
	tl_options_init(&opts);
	opts.on_diag = print_diagnostic;
	struct tl_stream *s = tl_stream_new(TL_FORMAT_XRAY, argv[1], &opts, err, sizeof err);
	if (!s) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	uint8_t buf[RECORDS_PER_BUFFER * TINY_RECORD];
	tiny_header(buf);
	bool ok = flush(f, s, buf, TINY_RECORD);
	size_t used = 0;
	for (uint64_t i = 0; ok && i < 1000; i++) {
		tiny_record(buf + used, i, broken && i == 500);
		used += TINY_RECORD;
		if (used == sizeof buf || i == 999) {
			ok = flush(f, s, buf, used);
			used = 0;
		}
	}
	ok = fclose(f) == 0 && ok;
	struct tl_result result;
	enum tl_status st = tl_stream_finish(s, &result, err, sizeof err);
	if (!ok || st != TL_OK) {
		fprintf(stderr, "%s\n", ok ? err : "cannot write the trace");
		return 2;
	}
	printf("%s: %s (%" PRIu64 " errors, %" PRIu64 " warnings; %s)\n", argv[1],
	       result.valid ? "valid" : "invalid", result.errors, result.warnings, result.detail);
	return result.valid ? 0 : 1;
}
