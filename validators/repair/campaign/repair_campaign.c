/* The repair campaign: copies of valid traces cut at random offsets and
 * with a random bit flipped, each repaired in memory and the result judged:
 * written or refused, valid (must be all), idempotent (must be all), read
 * by the format's real reader, and the records kept against those the
 * damage left (cuts: the records wholly before the cut; flips: all of the
 * file's). Fixed seed, so a run is repeatable. Prints a Markdown table.
 *
 * usage: repair-campaign [--seed N] [--cuts N] [--flips N] [--readers]
 *        [--check] [--min-kept CUT:FLIP] FORMAT:FILE...
 * --check: exit 1 unless every output is valid, idempotent and read by the
 * real reader, and records kept reach CUT% for cuts and FLIP% for flips
 * (default 99:90, the targets). */
#include "tracelint.h"
#include "validators/repair/repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_state;
static uint64_t next_random(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

struct figures {
	uint64_t cases, refused, unchanged, written, valid, idempotent, read_tried, read_ok;
	uint64_t kept, base;
	bool is_flip;
};

struct format_row {
	const char *name;
	struct figures cut, flip;
};

/* The format's real reader on the bytes: llvm-xray for XRay, Python's JSON
 * reader for the JSON formats. -1: no reader. */
static int reader_accepts(const uint8_t *d, size_t n, enum tl_format_id f)
{
	char path[] = "/tmp/repair-campaign-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	bool ok = write(fd, d, n) == (ssize_t)n;
	close(fd);
	char cmd[512];
	if (f == TL_FORMAT_XRAY)
		snprintf(cmd, sizeof cmd, "llvm-xray convert -output-format=yaml -o /dev/null %s 2>/dev/null",
			 path);
	else if (f == TL_FORMAT_TFILE) /* gdb's target tfile walks every frame (the corpus's harness) */
		snprintf(cmd, sizeof cmd,
			 "out=$(gdb -batch -nx -ex 'python path = \"%s\"' -x corpus/tfile/gdb/walk.py 2>&1); "
			 "echo \"$out\" | grep -q '^WALK-END' && ! echo \"$out\" | grep -q '^WALK-.*ERROR'", path);
	else
		snprintf(cmd, sizeof cmd, "python3 -m json.tool %s > /dev/null 2>&1", path);
	int rc = ok ? system(cmd) : -1;
	/* REPAIR_CAMPAIGN_REJECTS=DIR keeps what the reader refused, to look at */
	const char *keep = getenv("REPAIR_CAMPAIGN_REJECTS");
	if (rc != 0 && keep) {
		char to[600];
		snprintf(to, sizeof to, "cp %s %s/", path, keep);
		(void)!system(to);
	}
	unlink(path);
	return rc == 0;
}

/* JSON outputs are kept in a directory and read by one Python process at
 * the end (a process per output would cost more than the repairs). */
static char json_dir[64];
static uint64_t json_saved;

static void save_json(const uint8_t *d, size_t n, bool flip)
{
	if (!json_dir[0]) {
		snprintf(json_dir, sizeof json_dir, "/tmp/repair-campaign-json-XXXXXX");
		if (!mkdtemp(json_dir)) {
			json_dir[0] = '\0';
			return;
		}
	}
	char path[128];
	snprintf(path, sizeof path, "%s/%s-%llu.json", json_dir, flip ? "flip" : "cut",
		 (unsigned long long)json_saved++);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(d, 1, n, f);
		fclose(f);
	}
}

/* Reads every saved output with Python's json module: accepted, tried per kind. */
static void read_saved_json(struct figures *cut, struct figures *flip)
{
	if (!json_dir[0])
		return;
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json, os, sys\n"
		 "d = sys.argv[1]; c = {}\n"
		 "for f in os.listdir(d):\n"
		 "    k = f.split(\"-\")[0]; ok = 1\n"
		 "    try: json.load(open(os.path.join(d, f)))\n"
		 "    except Exception: ok = 0\n"
		 "    t = c.setdefault(k, [0, 0]); t[0] += ok; t[1] += 1\n"
		 "for k in (\"cut\", \"flip\"): print(*c.get(k, [0, 0]))' %s; rm -rf %s",
		 json_dir, json_dir);
	FILE *p = popen(cmd, "r");
	unsigned long long ok, tried;
	if (p && fscanf(p, "%llu %llu", &ok, &tried) == 2) {
		cut->read_ok += ok;
		cut->read_tried += tried;
	}
	if (p && fscanf(p, "%llu %llu", &ok, &tried) == 2) {
		flip->read_ok += ok;
		flip->read_tried += tried;
	}
	if (p)
		pclose(p);
	json_dir[0] = '\0';
}

static void one_case(uint8_t *cand, size_t cand_len, uint64_t base, enum tl_format_id f, bool readers,
		     struct figures *fig)
{
	struct tl_repair_check c;
	tl_repair_check(cand, cand_len, f, &c);
	fig->cases++;
	fig->base += base;
	if (!c.written) {
		fig->refused++;
	} else {
		fig->written++;
		fig->valid += c.valid;
		fig->idempotent += c.idempotent;
		fig->kept += c.kept < base ? c.kept : base;
		fig->unchanged += c.outcome == TL_REPAIR_NOTHING;
		/* the reader judges what repair wrote; a damaged copy that still
		 * validates comes back as it is, by design */
		if (c.outcome == TL_REPAIR_NOTHING || !readers) {
		} else if (f != TL_FORMAT_XRAY && f != TL_FORMAT_TFILE) {
			save_json(c.out.p, c.out.len, fig->is_flip);
		} else {
			int r = reader_accepts(c.out.p, c.out.len, f);
			if (r >= 0) {
				fig->read_tried++;
				fig->read_ok += (uint64_t)r;
			}
		}
	}
	tl_repair_check_free(&c);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 100.0;
}

static void print_row(const char *fmt, const char *kind, const struct figures *g)
{
	printf("| %s | %s | %llu | %llu | %llu | %.1f%% | %.1f%% | ", fmt, kind, (unsigned long long)g->cases,
	       (unsigned long long)g->unchanged, (unsigned long long)g->refused, pct(g->valid, g->written), pct(g->idempotent, g->written));
	if (g->read_tried)
		printf("%.1f%% (%llu) | ", pct(g->read_ok, g->read_tried), (unsigned long long)g->read_tried);
	else
		printf("not run | ");
	printf("%.2f%% |\n", pct(g->kept, g->base));
}

int main(int argc, char **argv)
{
	uint64_t seed = 20261128, cuts = 100, flips = 100;
	bool readers = false, check = false;
	double min_cut = 99.0, min_flip = 90.0;
	int i = 1;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--cuts") == 0 && i + 1 < argc)
			cuts = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--flips") == 0 && i + 1 < argc)
			flips = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--readers") == 0)
			readers = true;
		else if (strcmp(argv[i], "--check") == 0)
			check = true;
		else if (strcmp(argv[i], "--min-kept") == 0 && i + 1 < argc &&
			 sscanf(argv[i + 1], "%lf:%lf", &min_cut, &min_flip) == 2)
			i++;
		else {
			fprintf(stderr, "repair-campaign: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	struct format_row rows[TL_FORMAT_COUNT];
	memset(rows, 0, sizeof rows);
	rng_state = seed ? seed : 1;
	int files = argc - i;
	if (files <= 0) {
		fprintf(stderr, "usage: repair-campaign [options] FORMAT:FILE...\n");
		return 2;
	}
	/* the cases are spread over the files of a format in turn */
	for (uint64_t k = 0; k < cuts + flips; k++) {
		const char *arg = argv[i + (int)(k % (uint64_t)files)];
		const char *colon = strchr(arg, ':');
		char fmt_name[32];
		snprintf(fmt_name, sizeof fmt_name, "%.*s", colon ? (int)(colon - arg) : 0, arg);
		enum tl_format_id f = tl_format_from_name(fmt_name);
		struct tl_input in;
		char err[512];
		memset(&in, 0, sizeof in);
		bool opened = colon && f != TL_FORMAT_COUNT && tl_input_open(&in, colon + 1, err, sizeof err);
		const uint8_t *orig = opened ? in.data : NULL;
		size_t size = opened ? in.size : 0;
		if (!orig || in.compression || !tl_repair_valid_as(orig, size, f)) {
			fprintf(stderr, "repair-campaign: %s: not a valid file of the format named\n", arg);
			if (opened)
				tl_input_close(&in);
			return 2;
		}
		rows[f].name = tl_format_name(f);
		rows[f].flip.is_flip = true;
		uint8_t *cand = malloc(size);
		if (!cand) {
			fprintf(stderr, "repair-campaign: out of memory\n");
			tl_input_close(&in);
			return 2;
		}
		memcpy(cand, orig, size);
		if (k < cuts) {
			uint64_t at = next_random() % size;
			one_case(cand, (size_t)at, tl_repair_records(orig, size, f, at), f, readers, &rows[f].cut);
		} else {
			uint64_t at = next_random() % size;
			cand[at] ^= (uint8_t)(1u << (next_random() % 8));
			one_case(cand, size, tl_repair_records(orig, size, f, UINT64_MAX), f, readers, &rows[f].flip);
		}
		free(cand);
		tl_input_close(&in);
	}
	for (int f = 0; readers && f < TL_FORMAT_COUNT; f++)
		if (rows[f].name && f != TL_FORMAT_XRAY && f != TL_FORMAT_TFILE)
			read_saved_json(&rows[f].cut, &rows[f].flip);
	printf("| format | damage | cases | still valid (returned as is) | refused | outputs valid | idempotent "
	       "| real reader accepts repaired (tried) | records kept |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	int rc = 0;
	for (int f = 0; f < TL_FORMAT_COUNT; f++) {
		if (!rows[f].name)
			continue;
		for (int kind = 0; kind < 2; kind++) {
			const struct figures *g = kind ? &rows[f].flip : &rows[f].cut;
			if (!g->cases)
				continue;
			print_row(rows[f].name, kind ? "bit flip" : "cut", g);
			if (check && (g->valid != g->written || g->idempotent != g->written ||
				      pct(g->kept, g->base) < (kind ? min_flip : min_cut) ||
				      (g->read_tried && g->read_ok != g->read_tried))) {
				fprintf(stderr, "repair-campaign: %s %s: below the required figures\n", rows[f].name,
					kind ? "flips" : "cuts");
				rc = 1;
			}
		}
	}
	return rc;
}
