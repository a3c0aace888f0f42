/* Two threads validate different files of every format at once, many times:
 * every result must equal what one thread alone gets. The library promises
 * that all state lives in the caller's objects; a shared static buffer, parse
 * stack or table shows up here as a different result (and under
 * ThreadSanitizer, which the suite also builds this program with, as a race).
 *
 *   reentrancy SOURCE_DIR [ROUNDS]      exit 0 when every result matched */
#include "tracelint.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cases of every format, valid and invalid, compressed and directory ones. */
static const char *const cases[] = {
	"corpus/xray/valid/real-fdr-v5.xray",
	"corpus/xray/invalid/v1-stride.xray",
	"corpus/xray/valid/gen-basic-v3-be.xray",
	"corpus/tfile/valid/gdb-large-memory.tf",
	"corpus/tfile/invalid/endian-guessed.tf",
	"corpus/dcfg/valid/gen_program_s1.dcfg.json",
	"corpus/dcfg/invalid/dcfg_routine_cover.dcfg.json",
	"corpus/dcfg-trace/valid/gen_program_s5.trace.json",
	"corpus/umtrace/valid/trace64",
	"corpus/umtrace/invalid/after-thread-end",
	"corpus/xray/valid/real-fdr-v5-zstd.xray.zst",
};
enum { NCASES = sizeof cases / sizeof *cases };

/* A digest of everything a validation reports: FNV-1a over each diagnostic's
 * rule, severity, location and message, then the verdict and the counts. */
struct digest {
	uint64_t h;
};

static void mix(struct digest *d, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		d->h = (d->h ^ b[i]) * 0x100000001b3ULL;
}

static void on_diag(const struct tl_diagnostic *diag, void *user)
{
	struct digest *d = user;
	mix(d, diag->rule->id, strlen(diag->rule->id));
	mix(d, &diag->severity, sizeof diag->severity);
	mix(d, &diag->loc.offset, sizeof diag->loc.offset);
	mix(d, &diag->loc.line, sizeof diag->loc.line);
	mix(d, &diag->loc.column, sizeof diag->loc.column);
	if (diag->loc.pointer)
		mix(d, diag->loc.pointer, strlen(diag->loc.pointer));
	if (diag->loc.member)
		mix(d, diag->loc.member, strlen(diag->loc.member));
	mix(d, diag->message, strlen(diag->message));
}

static char paths[NCASES][4096];

static uint64_t validate(size_t i)
{
	struct digest d = { 0xcbf29ce484222325ULL };
	struct tl_options opts;
	struct tl_result r;
	char err[512] = "";
	tl_options_init(&opts);
	opts.on_diag = on_diag;
	opts.user = &d;
	opts.max_errors = 0;
	enum tl_status s = tl_validate_path(paths[i], &opts, &r, err, sizeof err);
	mix(&d, &s, sizeof s);
	mix(&d, &r.valid, sizeof r.valid);
	mix(&d, &r.errors, sizeof r.errors);
	mix(&d, &r.warnings, sizeof r.warnings);
	mix(&d, r.detail, strlen(r.detail));
	mix(&d, err, strlen(err));
	return d.h;
}

static uint64_t expected[NCASES];

struct worker {
	size_t first;     /* the two workers walk the cases from different ends */
	unsigned rounds;
	unsigned mismatches;
};

static void *run(void *arg)
{
	struct worker *w = arg;
	for (unsigned round = 0; round < w->rounds; round++) {
		for (size_t k = 0; k < NCASES; k++) {
			size_t i = (w->first + k) % NCASES;
			if (validate(i) != expected[i]) {
				fprintf(stderr, "round %u: %s gave another result in two threads\n", round, cases[i]);
				w->mismatches++;
			}
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: reentrancy SOURCE_DIR [ROUNDS]\n");
		return 2;
	}
	unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 20;
	for (size_t i = 0; i < NCASES; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", argv[1], cases[i]);
		expected[i] = validate(i);
	}
	/* one thread alone gives the same results twice */
	for (size_t i = 0; i < NCASES; i++) {
		if (validate(i) != expected[i]) {
			fprintf(stderr, "%s: two runs in one thread differ\n", cases[i]);
			return 1;
		}
	}
	struct worker w[2] = { { 0, rounds, 0 }, { NCASES / 2, rounds, 0 } };
	pthread_t t[2];
	for (int k = 0; k < 2; k++) {
		if (pthread_create(&t[k], NULL, run, &w[k]) != 0) {
			fprintf(stderr, "cannot start a thread\n");
			return 2;
		}
	}
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	unsigned bad = w[0].mismatches + w[1].mismatches;
	printf("%u validations in two threads, %u differed from one thread's\n",
	       2 * rounds * (unsigned)NCASES, bad);
	return bad ? 1 : 0;
}
