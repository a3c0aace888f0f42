/* Differential fuzzing: mutants of the valid corpus, tracelint as the oracle,
 * the reader on trial. Mutant i depends only on --seed and i, so a campaign
 * is reproducible byte for byte; every disagreement is minimised by greedy
 * chunk removal that keeps the same class and rule. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "validators/conform/conform.h"
#include "validators/conform/mutator.h"
#include "validators/core/decompress.h"

#define MAX_MUTANT_SIZE ((size_t)4 << 20)

struct seed_file {
	const struct corpus_case *c;
	unsigned char *data;
	size_t size;
	char dir[4096];
	char ext[32];
};

struct work {
	const struct mutate_config *cfg;
	bool oracle;       /* tracelint can judge this format */
	char path[4200];   /* where the reader finds the current input */
	unsigned runs;     /* reader runs of the current minimisation */
};

static const char *signal_label(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	case SIGXFSZ: return "SIGXFSZ";
	default: return NULL;
	}
}

/* What groups a disagreement: the rule for lenient, the signal for a crash. */
/* A reader's message with its numbers (offsets, sizes, addresses) replaced
 * by N and the mutant's path by {}, so one complaint at different places
 * makes one group, the same in every run. */
static void message_shape(const char *msg, const char *path, char *out, size_t len)
{
	size_t o = 0, plen = strlen(path);
	for (const char *p = msg; *p && o + 2 < len;) {
		if (plen && strncmp(p, path, plen) == 0) {
			p += plen;
			out[o++] = '{';
			if (o + 2 < len)
				out[o++] = '}';
		} else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
			p += 2;
			while (isxdigit((unsigned char)*p))
				p++;
			out[o++] = 'N';
		} else if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)*p))
				p++;
			out[o++] = 'N';
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
}

static void group_key(enum disagreement dis, const struct verdict *v, const struct run_result *r,
		      const char *path, char *key, size_t len)
{
	switch (dis) {
	case DIS_LENIENT:
		snprintf(key, len, "%s", v->rule[0] ? v->rule : "(no error rule)");
		break;
	case DIS_CRASH:
		if (r->outcome == RUN_SANITIZER) {
			snprintf(key, len, "sanitizer report");
		} else {
			const char *name = signal_label(r->code);
			if (name)
				snprintf(key, len, "%s", name);
			else
				snprintf(key, len, "signal %d", r->code);
		}
		break;
	case DIS_HANG:
		snprintf(key, len, "timeout");
		break;
	default: {
		/* Strict: one group per kind of complaint, so each distinct reason the
		 * reader gives for rejecting valid input keeps a mutant. */
		char shape[64];
		message_shape(r->message, path, shape, sizeof shape);
		snprintf(key, len, "(tracelint accepts) %s", shape[0] ? shape : "(no message)");
		break;
	}
	}
}

/* Runs oracle and reader on one candidate. When tracelint cannot validate it
 * (e.g. no validator for the format in this build) the reader still runs:
 * crashes and hangs need no oracle. *compared tells whether lenient and
 * strict could be judged. -1 when the reader could not be started. */
static int judge(struct work *w, const struct seed_file *s, const unsigned char *data, size_t size,
		 struct verdict *v, struct run_result *run, enum disagreement *dis, bool *compared)
{
	char err[256];
	*compared = w->oracle &&
		oracle_buffer(w->cfg->format, data, size, s->c->args, s->dir, v, err, sizeof err) == 0;
	if (!*compared)
		memset(v, 0, sizeof *v);
	if (write_file(w->path, data, size) != 0 || reader_run(w->cfg->reader, w->path, s->c->args, run) != 0)
		return -1;
	w->runs++;
	*dis = compare_verdicts(v, run);
	if (!*compared && (*dis == DIS_LENIENT || *dis == DIS_STRICT))
		*dis = DIS_AGREE;
	return 0;
}

/* Would the candidate still show the disagreement DIS with KEY? The oracle is
 * asked first: it is cheap, the reader may not be. */
static bool still_disagrees(struct work *w, const struct seed_file *s, const unsigned char *data,
			   size_t size, enum disagreement dis, const char *key)
{
	char err[256];
	struct verdict v = { 0 };
	bool need_oracle = dis == DIS_LENIENT || dis == DIS_STRICT;
	if (need_oracle && oracle_buffer(w->cfg->format, data, size, s->c->args, s->dir, &v, err, sizeof err) != 0)
		return false;
	if (dis == DIS_LENIENT && (!v.reject || strcmp(v.rule, key) != 0))
		return false;
	if (dis == DIS_STRICT && v.reject)
		return false;
	struct run_result run;
	if (write_file(w->path, data, size) != 0 || reader_run(w->cfg->reader, w->path, s->c->args, &run) != 0)
		return false;
	w->runs++;
	char key2[96];
	enum disagreement dis2 = compare_verdicts(&v, &run);
	group_key(dis2, &v, &run, w->path, key2, sizeof key2);
	return dis2 == dis && strcmp(key, key2) == 0;
}

/* Greedy chunk removal, from the largest power of two below half the size
 * down to single bytes. */
static size_t minimise(struct work *w, const struct seed_file *s, unsigned char *data, size_t size,
		       enum disagreement dis, const char *key)
{
	unsigned budget = w->cfg->minimize_budget;
	if (dis == DIS_HANG && budget > 10)
		budget = 10; /* every success costs a whole timeout */
	unsigned char *cand = xrealloc(NULL, size);
	w->runs = 0;
	/* Powers of two at aligned offsets: removing 16 or 8 bytes at a multiple
	 * of 16 or 8 keeps the framing of record-based formats such as XRay. */
	size_t first = 1;
	while (first * 2 <= size / 2)
		first *= 2;
	for (size_t chunk = first; chunk >= 1 && w->runs < budget; chunk /= 2) {
		size_t pos = 0;
		while (pos < size && w->runs < budget) {
			size_t end = pos + chunk < size ? pos + chunk : size;
			size_t n = size - (end - pos);
			if (n == 0) {
				pos = end;
				continue;
			}
			memcpy(cand, data, pos);
			memcpy(cand + pos, data + end, size - end);
			if (still_disagrees(w, s, cand, n, dis, key)) {
				memcpy(data, cand, n);
				size = n;
			} else {
				pos = end;
			}
		}
	}
	free(cand);
	return size;
}

static struct find_group *find_group(struct campaign *c, enum disagreement dis, const char *key)
{
	for (size_t i = 0; i < c->n_groups; i++)
		if (c->groups[i].dis == dis && strcmp(c->groups[i].key, key) == 0)
			return &c->groups[i];
	c->groups = xrealloc(c->groups, (c->n_groups + 1) * sizeof *c->groups);
	struct find_group *g = &c->groups[c->n_groups++];
	memset(g, 0, sizeof *g);
	g->dis = dis;
	g->first = UINT32_MAX;
	snprintf(g->key, sizeof g->key, "%s", key);
	return g;
}

/* The note kept next to a mutant: the disagreement, and every diagnostic
 * tracelint reports on the kept bytes (not only the rule it is grouped by). */
static void write_info(const char *path, const struct mutant_find *f, unsigned long long seed,
		       enum tl_format_id fmt, const struct seed_file *s, const unsigned char *data)
{
	FILE *o = fopen(path, "w");
	if (!o)
		return;
	fprintf(o, "class: %s\n", disagreement_name(f->dis));
	fprintf(o, "rule: %s\n", !f->compared ? "(tracelint could not validate)"
		: f->ours.reject ? f->ours.rule : "(tracelint accepts)");
	fprintf(o, "reader: %s", run_outcome_name(f->run.outcome));
	if (f->run.outcome == RUN_CRASHED)
		fprintf(o, " (signal %d)", f->run.code);
	else if (f->run.outcome != RUN_TIMEOUT)
		fprintf(o, " (exit %d)", f->run.code);
	fprintf(o, "\nmessage: %s\n", f->run.message);
	fprintf(o, "seed case: %s\nmutant: %u of --seed=%llu\n", f->seed_case, f->index, seed);
	fprintf(o, "size: %zu bytes, minimised from %zu\n", f->min_size, f->size);
	if (f->compared) {
		char err[512];
		fprintf(o, "tracelint's diagnostics (location severity rule message):\n");
		if (oracle_buffer_list(fmt, data, f->min_size, s->c->args, s->dir, o, err, sizeof err) != 0)
			fprintf(o, "(tracelint could not validate it: %s)\n", err);
	}
	fclose(o);
}

static void load_seeds(const struct corpus *valid, struct seed_file **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < valid->count; i++) {
		const struct corpus_case *c = &valid->cases[i];
		struct stat st;
		if (c->kind != CASE_VALID || stat(c->path, &st) != 0 || !S_ISREG(st.st_mode))
			continue; /* trace directories are not mutated */
		size_t size;
		char *data = read_file(c->path, &size);
		if (!data)
			continue;
		/* Mutating compressed bytes only tests the decompressor. */
		if (tl_compression_sniff((const uint8_t *)data, size) != TL_COMPRESSION_NONE) {
			free(data);
			continue;
		}
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		struct seed_file *s = &(*out)[(*n)++];
		memset(s, 0, sizeof *s);
		s->c = c;
		s->data = (unsigned char *)data;
		s->size = size;
		snprintf(s->dir, sizeof s->dir, "%s", c->path);
		char *slash = strrchr(s->dir, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(s->dir, sizeof s->dir, ".");
		const char *base = strrchr(c->path, '/');
		const char *dot = strrchr(base ? base : c->path, '.');
		if (dot && strlen(dot) < sizeof s->ext)
			snprintf(s->ext, sizeof s->ext, "%s", dot);
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* mkdir -p */
static int make_dir(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static void free_seeds(struct seed_file *seeds, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(seeds[k].data);
	free(seeds);
}

int campaign_run(const struct mutate_config *cfg, const struct corpus *valid,
		 struct campaign *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->seed = cfg->seed;
	c->requested = cfg->count;
	c->out_dir = cfg->out_dir;
	c->mutator = mutator_name(cfg->format);
	struct seed_file *seeds;
	size_t n_seeds;
	load_seeds(valid, &seeds, &n_seeds);
	c->seeds = (unsigned)n_seeds;
	if (!n_seeds) {
		snprintf(err, errlen, "no valid case (a regular file) to mutate");
		return -1;
	}
	char all_dir[4200];
	snprintf(all_dir, sizeof all_dir, "%s/all", cfg->out_dir);
	if (make_dir(cfg->out_dir) != 0 || (cfg->keep_all && make_dir(all_dir) != 0)) {
		snprintf(err, errlen, "%s: cannot create: %s", cfg->out_dir, strerror(errno));
		free_seeds(seeds, n_seeds);
		return -1;
	}
	const char *tmp = getenv("TMPDIR");
	char work_dir[4096];
	snprintf(work_dir, sizeof work_dir, "%s/tracelint-conform-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(work_dir)) {
		snprintf(err, errlen, "cannot create a work directory: %s", strerror(errno));
		free_seeds(seeds, n_seeds);
		return -1;
	}
	struct work w = { .cfg = cfg };
	w.oracle = oracle_available(cfg->format, valid, c->no_oracle, sizeof c->no_oracle);
	double start = now_seconds();
	int rc = 0;
	/* A shard takes every N-th mutant: the slices are the same size and each
	 * sees every part of the seed sequence. */
	unsigned first = cfg->shards ? cfg->shard - 1 : 0, step = cfg->shards ? cfg->shards : 1;
	unsigned slice = cfg->count > first ? (cfg->count - first + step - 1) / step : 0;
	for (unsigned i = first; i < cfg->count; i += step) {
		if (cfg->max_seconds > 0 && now_seconds() - start >= cfg->max_seconds) {
			c->time_limited = true;
			break;
		}
		struct rng r;
		rng_init(&r, cfg->seed, i);
		const struct seed_file *s = &seeds[rng_below(&r, n_seeds)];
		struct mutant m = { 0 };
		mutant_set(&m, s->data, s->size);
		mutate(cfg->format, &m, &r, MAX_MUTANT_SIZE);
		snprintf(w.path, sizeof w.path, "%s/input%s", work_dir, s->ext);
		if (cfg->keep_all) {
			char p[4400];
			snprintf(p, sizeof p, "%s/%06u%s", all_dir, i, s->ext);
			write_file(p, m.data, m.len);
		}
		struct verdict v;
		struct run_result run;
		enum disagreement dis;
		bool compared;
		int j = judge(&w, s, m.data, m.len, &v, &run, &dis, &compared);
		c->done++;
		c->oracle_failed += !compared;
		if (j != 0) {
			snprintf(err, errlen, "cannot run the reader on mutant %u", i);
			mutant_free(&m);
			rc = -1;
			break;
		}
		c->oracle_reject += v.reject;
		c->dis_count[dis]++;
		if (cfg->progress_every && c->done % cfg->progress_every == 0)
			fprintf(stderr, "tracelint-conform: %u of %u mutants, %u disagree, %.0f s\n", c->done,
				slice, c->done - c->dis_count[DIS_AGREE], now_seconds() - start);
		if (dis != DIS_AGREE) {
			char key[96];
			group_key(dis, &v, &run, w.path, key, sizeof key);
			struct find_group *g = find_group(c, dis, key);
			g->count++;
			if (i < g->first)
				g->first = i;
			if (g->kept < cfg->keep_per_group) {
				g->kept++;
				c->finds = xrealloc(c->finds, (c->n_finds + 1) * sizeof *c->finds);
				struct mutant_find *f = &c->finds[c->n_finds++];
				memset(f, 0, sizeof *f);
				f->index = i;
				f->seed_case = s->c->name;
				f->dis = dis;
				f->group_dis = dis;
				snprintf(f->key, sizeof f->key, "%s", key);
				f->size = m.len;
				f->min_size = minimise(&w, s, m.data, m.len, dis, key);
				f->reader_runs = w.runs;
				/* The verdicts reported are those of the file kept. */
				if (judge(&w, s, m.data, f->min_size, &f->ours, &f->run, &f->dis, &f->compared) != 0) {
					f->ours = v;
					f->run = run;
					f->dis = dis;
					f->compared = compared;
				}
				char p[4400];
				snprintf(f->file, sizeof f->file, "%s-%06u%s", disagreement_name(dis), i, s->ext);
				snprintf(p, sizeof p, "%s/%s", cfg->out_dir, f->file);
				write_file(p, m.data, f->min_size);
				snprintf(p, sizeof p, "%s/%s-%06u.txt", cfg->out_dir, disagreement_name(dis), i);
				write_info(p, f, cfg->seed, cfg->format, s, m.data);
			}
		}
		mutant_free(&m);
	}
	c->seconds = now_seconds() - start;
	unlink(w.path);
	for (size_t k = 0; k < n_seeds; k++) {
		char p[4200];
		snprintf(p, sizeof p, "%s/input%s", work_dir, seeds[k].ext);
		unlink(p);
	}
	rmdir(work_dir);
	free_seeds(seeds, n_seeds);
	return rc;
}

void campaign_free(struct campaign *c)
{
	free(c->finds);
	free(c->groups);
	memset(c, 0, sizeof *c);
}
