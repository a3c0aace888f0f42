/* Sharded campaigns. `--shard=K/N` runs mutants i with i % N == K - 1 and
 * writes everything the report needs as a shard file: one record a line,
 * tab-separated fields, \t \n \\ escaped. `--merge` reads the N files back:
 * counts add up, groups are merged by class and key and listed by their
 * first mutant, and of each group's kept mutants only the first K by mutant
 * number stay, which are exactly those one run would have kept (each of
 * them is among the first K of its own shard). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "validators/conform/conform.h"

#define SHARD_MAGIC "tracelint-conform-shard\t2"
#define MAX_FIELDS 20

static void put_field(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; *s; s++) {
		if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\\')
			fputs("\\\\", f);
		else
			fputc(*s, f);
	}
}

static void put_run(FILE *f, const struct run_result *r)
{
	fprintf(f, "\t%s\t%d", run_outcome_name(r->outcome), r->code);
}

void shard_write(FILE *f, const struct report *r, const struct shard_spec *s)
{
	fprintf(f, "%s\nshard\t%u\t%u\t%u\nformat", SHARD_MAGIC, s->index, s->count, s->keep_per_group);
	put_field(f, r->format);
	fputs("\nreader", f);
	put_field(f, r->reader->command);
	fputs("\naccept_rc\t", f);
	for (size_t i = 0; i < r->reader->n_accept_rc; i++)
		fprintf(f, "%s%d", i ? "," : "", r->reader->accept_rc[i]);
	fprintf(f, "\ntimeout\t%.17g\ncorpus", r->reader->timeout);
	put_field(f, r->corpus_desc);
	fprintf(f, "\ncorpus_run\t%d\n", r->corpus_run);
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct corpus_row *row = &r->rows[i];
		fputs("row", f);
		put_field(f, row->c->name);
		fprintf(f, "\t%s\t%d", case_kind_name(row->c->kind), row->ours.reject);
		put_field(f, row->ours.rule);
		fprintf(f, "\t%s", disagreement_name(row->dis));
		put_run(f, &row->run);
		put_field(f, row->run.message);
		/* what the report says of the case beyond the verdict */
		put_field(f, row->ours.where);
		put_field(f, row->ours.message);
		put_field(f, case_intent_name(row->c->intent));
		put_field(f, row->c->intent_why ? row->c->intent_why : "");
		fputc('\n', f);
	}
	const struct campaign *c = r->campaign;
	fprintf(f, "campaign\t%llu\t%u\t%u\t%u", c->seed, c->requested, c->done, c->seeds);
	put_field(f, c->mutator);
	fprintf(f, "\t%d", c->time_limited);
	put_field(f, c->no_oracle);
	fprintf(f, "\t%u\t%u\t%.6f", c->oracle_reject, c->oracle_failed, c->seconds);
	put_field(f, c->out_dir);
	fputs("\ncounts", f);
	for (int d = 0; d < DIS_COUNT; d++)
		fprintf(f, "\t%u", c->dis_count[d]);
	fputc('\n', f);
	for (size_t i = 0; i < c->n_groups; i++) {
		const struct find_group *g = &c->groups[i];
		fprintf(f, "group\t%s\t%u\t%u\t%u", disagreement_name(g->dis), g->first, g->count, g->kept);
		put_field(f, g->key);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->n_finds; i++) {
		const struct mutant_find *m = &c->finds[i];
		fprintf(f, "find\t%u\t%s\t%s\t%d", m->index, disagreement_name(m->group_dis),
			disagreement_name(m->dis), m->ours.reject);
		put_field(f, m->ours.rule);
		fprintf(f, "\t%d", m->compared);
		put_run(f, &m->run);
		fprintf(f, "\t%zu\t%zu", m->size, m->min_size);
		put_field(f, m->seed_case);
		put_field(f, m->file);
		put_field(f, m->key);
		put_field(f, m->run.message);
		put_field(f, m->ours.where);
		put_field(f, m->ours.message);
		fputc('\n', f);
	}
	fputs("end\n", f);
}

/* Reading. */

struct shard_file {
	const char *path;
	unsigned index, count, keep;
	char *format, *reader, *accept_rc, *timeout, *corpus;
	bool corpus_run, has_campaign;
	struct campaign camp;
	struct corpus_row *rows;
	size_t n_rows;
	struct corpus cases;
};

/* Room for one more element in an array of `count`: its capacity is
 * implied (16, then doubled at each power of two), so appending is
 * amortised constant time. */
static void *room_for_one(void *array, size_t count, size_t size)
{
	if (count && (count < 16 || (count & (count - 1))))
		return array;
	return xrealloc(array, (count < 16 ? 16 : 2 * count) * size);
}

static char *own(struct merged *m, const char *s)
{
	char *d = xstrdup(s);
	m->owned = room_for_one(m->owned, m->n_owned, sizeof *m->owned);
	m->owned[m->n_owned++] = d;
	return d;
}

/* Splits one line in place into unescaped fields. */
static size_t split(char *line, char **fields)
{
	size_t n = 0;
	char *p = line;
	while (n < MAX_FIELDS) {
		fields[n++] = p;
		char *o = p;
		for (; *p && *p != '\t'; p++) {
			if (*p == '\\' && p[1]) {
				p++;
				*o++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p;
			} else {
				*o++ = *p;
			}
		}
		bool more = *p == '\t';
		*o = '\0';
		if (!more)
			break;
		p++;
	}
	return n;
}

static int name_index(const char *name, const char *(*namer)(int), int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(name, namer(i)) == 0)
			return i;
	return -1;
}

static const char *dis_namer(int i) { return disagreement_name((enum disagreement)i); }
static const char *outcome_namer(int i) { return run_outcome_name((enum run_outcome)i); }
static const char *kind_namer(int i) { return case_kind_name((enum case_kind)i); }
static const char *intent_namer(int i) { return case_intent_name((enum case_intent)i); }

static bool to_uint(const char *s, unsigned long long *v)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && errno == 0;
}

static bool to_u(const char *s, unsigned *v)
{
	unsigned long long x;
	if (!to_uint(s, &x) || x > UINT32_MAX)
		return false;
	*v = (unsigned)x;
	return true;
}

static bool to_run(char **f, struct run_result *r)
{
	int o = name_index(f[0], outcome_namer, RUN_OUTCOME_COUNT);
	char *end;
	long code = strtol(f[1], &end, 10);
	if (o < 0 || *end || !*f[1])
		return false;
	r->outcome = (enum run_outcome)o;
	r->code = (int)code;
	return true;
}

static int parse_line(struct merged *m, struct shard_file *s, char **f, size_t n)
{
	const char *tag = f[0];
	if (strcmp(tag, "shard") == 0 && n == 4)
		return to_u(f[1], &s->index) && to_u(f[2], &s->count) && to_u(f[3], &s->keep) ? 0 : -1;
	if (n == 2 && strcmp(tag, "format") == 0)
		return (s->format = own(m, f[1])), 0;
	if (n == 2 && strcmp(tag, "reader") == 0)
		return (s->reader = own(m, f[1])), 0;
	if (n == 2 && strcmp(tag, "accept_rc") == 0)
		return (s->accept_rc = own(m, f[1])), 0;
	if (n == 2 && strcmp(tag, "timeout") == 0)
		return (s->timeout = own(m, f[1])), 0;
	if (n == 2 && strcmp(tag, "corpus") == 0)
		return (s->corpus = own(m, f[1])), 0;
	if (n == 2 && strcmp(tag, "corpus_run") == 0)
		return (s->corpus_run = strcmp(f[1], "1") == 0), 0;
	if (n == 13 && strcmp(tag, "row") == 0) {
		int kind = name_index(f[2], kind_namer, CASE_KIND_COUNT);
		int dis = name_index(f[5], dis_namer, DIS_COUNT);
		int intent = name_index(f[11], intent_namer, INTENT_COUNT);
		struct run_result run = { 0 };
		if (kind < 0 || dis < 0 || intent < 0 || !to_run(f + 6, &run))
			return -1;
		s->cases.cases = room_for_one(s->cases.cases, s->cases.count, sizeof *s->cases.cases);
		struct corpus_case *c = &s->cases.cases[s->cases.count++];
		memset(c, 0, sizeof *c);
		c->path = xstrdup(f[1]);
		c->name = xstrdup(f[1]);
		c->kind = (enum case_kind)kind;
		c->intent = (enum case_intent)intent;
		c->intent_why = *f[12] ? xstrdup(f[12]) : NULL;
		s->rows = room_for_one(s->rows, s->n_rows, sizeof *s->rows);
		struct corpus_row *row = &s->rows[s->n_rows++];
		memset(row, 0, sizeof *row);
		row->ours.reject = strcmp(f[3], "1") == 0;
		snprintf(row->ours.rule, sizeof row->ours.rule, "%s", f[4]);
		row->dis = (enum disagreement)dis;
		row->run = run;
		snprintf(row->run.message, sizeof row->run.message, "%s", f[8]);
		snprintf(row->ours.where, sizeof row->ours.where, "%s", f[9]);
		snprintf(row->ours.message, sizeof row->ours.message, "%s", f[10]);
		return 0;
	}
	struct campaign *c = &s->camp;
	if (n == 12 && strcmp(tag, "campaign") == 0) {
		s->has_campaign = true;
		char *end;
		c->seconds = strtod(f[10], &end);
		c->mutator = own(m, f[5]);
		c->time_limited = strcmp(f[6], "1") == 0;
		snprintf(c->no_oracle, sizeof c->no_oracle, "%s", f[7]);
		c->out_dir = own(m, f[11]);
		return to_uint(f[1], &c->seed) && to_u(f[2], &c->requested) && to_u(f[3], &c->done) &&
		       to_u(f[4], &c->seeds) && to_u(f[8], &c->oracle_reject) && to_u(f[9], &c->oracle_failed) &&
		       end != f[10] && !*end && c->seconds >= 0 ? 0 : -1;
	}
	if (n == 1 + DIS_COUNT && strcmp(tag, "counts") == 0) {
		for (int d = 0; d < DIS_COUNT; d++)
			if (!to_u(f[1 + d], &c->dis_count[d]))
				return -1;
		return 0;
	}
	if (n == 6 && strcmp(tag, "group") == 0) {
		c->groups = room_for_one(c->groups, c->n_groups, sizeof *c->groups);
		struct find_group *g = &c->groups[c->n_groups++];
		memset(g, 0, sizeof *g);
		int dis = name_index(f[1], dis_namer, DIS_COUNT);
		g->dis = (enum disagreement)dis;
		snprintf(g->key, sizeof g->key, "%s", f[5]);
		return dis >= 0 && to_u(f[2], &g->first) && to_u(f[3], &g->count) && to_u(f[4], &g->kept) ? 0 : -1;
	}
	if (n == 17 && strcmp(tag, "find") == 0) {
		c->finds = room_for_one(c->finds, c->n_finds, sizeof *c->finds);
		struct mutant_find *x = &c->finds[c->n_finds++];
		memset(x, 0, sizeof *x);
		int gdis = name_index(f[2], dis_namer, DIS_COUNT), dis = name_index(f[3], dis_namer, DIS_COUNT);
		unsigned long long size, min_size;
		if (gdis < 0 || dis < 0 || !to_u(f[1], &x->index) || !to_run(f + 7, &x->run) ||
		    !to_uint(f[9], &size) || !to_uint(f[10], &min_size))
			return -1;
		x->group_dis = (enum disagreement)gdis;
		x->dis = (enum disagreement)dis;
		x->ours.reject = strcmp(f[4], "1") == 0;
		snprintf(x->ours.rule, sizeof x->ours.rule, "%s", f[5]);
		x->compared = strcmp(f[6], "1") == 0;
		x->size = (size_t)size;
		x->min_size = (size_t)min_size;
		x->seed_case = own(m, f[11]);
		snprintf(x->file, sizeof x->file, "%s", f[12]);
		snprintf(x->key, sizeof x->key, "%s", f[13]);
		snprintf(x->run.message, sizeof x->run.message, "%s", f[14]);
		snprintf(x->ours.where, sizeof x->ours.where, "%s", f[15]);
		snprintf(x->ours.message, sizeof x->ours.message, "%s", f[16]);
		return 0;
	}
	return -1;
}

static int read_shard(struct merged *m, struct shard_file *s, char *err, size_t errlen)
{
	size_t size;
	char *text = read_file(s->path, &size);
	if (!text) {
		snprintf(err, errlen, "%s: cannot read: %s", s->path, strerror(errno));
		return -1;
	}
	if (strncmp(text, SHARD_MAGIC "\n", sizeof SHARD_MAGIC) != 0) {
		snprintf(err, errlen, "%s: not a shard file (written by --shard=K/N)", s->path);
		free(text);
		return -1;
	}
	char *line = text + sizeof SHARD_MAGIC;
	unsigned lineno = 1;
	bool ended = false;
	while (*line) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		char *f[MAX_FIELDS];
		size_t n = split(line, f);
		if (strcmp(f[0], "end") == 0 && n == 1) {
			ended = true;
		} else if (ended || parse_line(m, s, f, n) != 0) {
			snprintf(err, errlen, "%s:%u: unreadable shard record", s->path, lineno);
			free(text);
			return -1;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	free(text);
	if (!ended || !s->has_campaign || !s->format || !s->reader || !s->accept_rc || !s->timeout || !s->corpus ||
	    !s->count) {
		snprintf(err, errlen, "%s: incomplete shard file (the run did not finish?)", s->path);
		return -1;
	}
	return 0;
}

/* Must be the same in every shard of one campaign. */
static bool same_campaign(const struct shard_file *a, const struct shard_file *b)
{
	return a->count == b->count && a->keep == b->keep && strcmp(a->format, b->format) == 0 &&
	       strcmp(a->reader, b->reader) == 0 && strcmp(a->accept_rc, b->accept_rc) == 0 &&
	       strcmp(a->timeout, b->timeout) == 0 && strcmp(a->corpus, b->corpus) == 0 &&
	       a->camp.seed == b->camp.seed && a->camp.requested == b->camp.requested &&
	       a->camp.seeds == b->camp.seeds && strcmp(a->camp.mutator, b->camp.mutator) == 0 &&
	       strcmp(a->camp.no_oracle, b->camp.no_oracle) == 0;
}

static int by_first(const void *a, const void *b)
{
	unsigned x = ((const struct find_group *)a)->first, y = ((const struct find_group *)b)->first;
	return x < y ? -1 : x > y;
}

static int by_index(const void *a, const void *b)
{
	unsigned x = ((const struct mutant_find *)a)->index, y = ((const struct mutant_find *)b)->index;
	return x < y ? -1 : x > y;
}

/* The merged groups by class and key: open addressing over their
 * numbers + 1, so merging is linear in the groups. */
struct group_index {
	size_t *slot;
	size_t cap;
};

static size_t group_hash(enum disagreement dis, const char *key)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)dis;
	for (; *key; key++)
		h = (h ^ (uint8_t)*key) * 1099511628211ull;
	return (size_t)(h ^ (h >> 31));
}

static size_t *group_slot(const struct group_index *x, const struct campaign *c, enum disagreement dis,
			  const char *key)
{
	for (size_t i = group_hash(dis, key) & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
		size_t g = x->slot[i];
		if (!g || (c->groups[g - 1].dis == dis && strcmp(c->groups[g - 1].key, key) == 0))
			return &x->slot[i];
	}
}

/* Indexes every group of c, in a table with room for `most` of them. */
static void group_index_build(struct group_index *x, const struct campaign *c, size_t most)
{
	free(x->slot);
	for (x->cap = 16; x->cap < 2 * most; x->cap *= 2)
		;
	x->slot = xrealloc(NULL, x->cap * sizeof *x->slot);
	memset(x->slot, 0, x->cap * sizeof *x->slot);
	for (size_t i = 0; i < c->n_groups; i++)
		*group_slot(x, c, c->groups[i].dis, c->groups[i].key) = i + 1;
}

static struct find_group *lookup(const struct group_index *x, struct campaign *c, enum disagreement dis,
				 const char *key)
{
	size_t g = *group_slot(x, c, dis, key);
	return g ? &c->groups[g - 1] : NULL;
}

/* A file name the kit itself gives a kept mutant of this find: CLASS-NNNNNN
 * and the seed's extension, one component, nothing a shard could point
 * elsewhere with. */
static bool own_find_name(const struct mutant_find *f, const char *name)
{
	char prefix[64];
	int n = snprintf(prefix, sizeof prefix, "%s-%06u", disagreement_name(f->group_dis), f->index);
	const char *ext = name + n;
	return strncmp(name, prefix, (size_t)n) == 0 && !strchr(name, '/') && (!*ext || (*ext == '.' && strlen(ext) < 32));
}

/* Removes the regular file `name` of the open directory, never through a
 * symbolic link. */
static void remove_in(int dir, const char *name)
{
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		unlinkat(dir, name, 0);
}

/* A kept mutant one run would not have kept: its files go, when they are
 * where this merge writes (out_fd, the --out directory the shards were run
 * with) and named as the kit names them; anything else is left alone. */
static void drop_find(int out_fd, const struct mutant_find *f)
{
	if (out_fd < 0 || !own_find_name(f, f->file))
		return;
	char p[64];
	remove_in(out_fd, f->file);
	snprintf(p, sizeof p, "%s-%06u.txt", disagreement_name(f->group_dis), f->index);
	remove_in(out_fd, p);
}

/* The --out directory opened when a shard's recorded directory is that
 * very directory (same device and inode), else -1: a shard file names
 * nothing outside it. */
static int shard_out_dir(const char *merge_out, const char *shard_out)
{
	struct stat a, b;
	int fd = open(merge_out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &a) != 0 || stat(shard_out, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void merge_campaigns(struct shard_file *sh, size_t n, unsigned keep, const char *out_dir, struct campaign *c)
{
	struct group_index x = { NULL, 0 };
	size_t most = 0;
	for (size_t k = 0; k < n; k++)
		most += sh[k].camp.n_groups;
	*c = sh[0].camp;
	c->done = c->oracle_reject = c->oracle_failed = 0;
	c->seconds = 0;
	c->time_limited = false;
	memset(c->dis_count, 0, sizeof c->dis_count);
	c->groups = NULL;
	c->n_groups = 0;
	c->finds = NULL;
	c->n_finds = 0;
	group_index_build(&x, c, most);
	for (size_t k = 0; k < n; k++) {
		const struct campaign *s = &sh[k].camp;
		c->done += s->done;
		c->oracle_reject += s->oracle_reject;
		c->oracle_failed += s->oracle_failed;
		c->seconds += s->seconds;
		c->time_limited |= s->time_limited;
		for (int d = 0; d < DIS_COUNT; d++)
			c->dis_count[d] += s->dis_count[d];
		for (size_t i = 0; i < s->n_groups; i++) {
			size_t *slot = group_slot(&x, c, s->groups[i].dis, s->groups[i].key);
			if (!*slot) {
				c->groups = room_for_one(c->groups, c->n_groups, sizeof *c->groups);
				c->groups[c->n_groups++] = s->groups[i];
				*slot = c->n_groups;
				continue;
			}
			struct find_group *g = &c->groups[*slot - 1];
			g->count += s->groups[i].count;
			if (s->groups[i].first < g->first)
				g->first = s->groups[i].first;
		}
	}
	if (c->n_groups)
		qsort(c->groups, c->n_groups, sizeof *c->groups, by_first);
	group_index_build(&x, c, c->n_groups);
	for (size_t i = 0; i < c->n_groups; i++)
		c->groups[i].kept = 0;
	/* Every shard's kept mutants, in mutant order; the first `keep` of each group stay. */
	size_t total = 0;
	for (size_t k = 0; k < n; k++)
		total += sh[k].camp.n_finds;
	struct { struct mutant_find f; size_t shard; } *all = xrealloc(NULL, total * sizeof *all);
	size_t t = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < sh[k].camp.n_finds; i++) {
			all[t].f = sh[k].camp.finds[i];
			all[t++].shard = k;
		}
	/* by_index compares the leading mutant_find. */
	if (total)
		qsort(all, total, sizeof *all, by_index);
	c->finds = xrealloc(NULL, (total ? total : 1) * sizeof *c->finds);
	int *out_fd = xrealloc(NULL, n * sizeof *out_fd);
	for (size_t k = 0; k < n; k++)
		out_fd[k] = -2; /* not opened yet */
	for (size_t i = 0; i < total; i++) {
		struct find_group *g = lookup(&x, c, all[i].f.group_dis, all[i].f.key);
		if (g && g->kept < keep) {
			g->kept++;
			c->finds[c->n_finds++] = all[i].f;
			continue;
		}
		size_t k = all[i].shard;
		if (out_fd[k] == -2 && (out_fd[k] = shard_out_dir(out_dir, sh[k].camp.out_dir)) < 0)
			fprintf(stderr, "tracelint-conform: --merge: %s: its mutants are not in --out %s: none removed\n",
				sh[k].path, out_dir);
		drop_find(out_fd[k], &all[i].f);
	}
	for (size_t k = 0; k < n; k++)
		if (out_fd[k] >= 0)
			close(out_fd[k]);
	free(out_fd);
	free(all);
	free(x.slot);
}

static bool parse_accept_list(const char *s, struct reader *r)
{
	r->n_accept_rc = 0;
	for (const char *p = s; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > 255 || r->n_accept_rc == sizeof r->accept_rc / sizeof *r->accept_rc)
			return false;
		r->accept_rc[r->n_accept_rc++] = (int)v;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return false;
	}
	return r->n_accept_rc > 0;
}

static void shard_file_free(struct shard_file *s)
{
	free(s->rows);
	corpus_free(&s->cases);
	campaign_free(&s->camp);
}

int shard_merge(char *const *paths, size_t n, const char *out_dir, struct merged *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	struct shard_file *sh = xrealloc(NULL, n * sizeof *sh);
	memset(sh, 0, n * sizeof *sh);
	int rc = -1;
	for (size_t k = 0; k < n; k++) {
		sh[k].path = paths[k];
		if (read_shard(m, &sh[k], err, errlen) != 0)
			goto out;
	}
	/* Exactly the shards 1..N of one campaign, each once. */
	if (sh[0].count != n) {
		snprintf(err, errlen, "%s is one of %u shards, %zu given", sh[0].path, sh[0].count, n);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		if (!same_campaign(&sh[0], &sh[k])) {
			snprintf(err, errlen, "%s and %s are not shards of the same campaign", sh[0].path, sh[k].path);
			goto out;
		}
		for (size_t j = 0; j < k; j++)
			if (sh[j].index == sh[k].index) {
				snprintf(err, errlen, "%s and %s are both shard %u", sh[j].path, sh[k].path, sh[k].index);
				goto out;
			}
	}
	struct shard_file *first = NULL;
	for (size_t k = 0; k < n; k++)
		if (sh[k].index == 1)
			first = &sh[k];
	if (!first || !parse_accept_list(first->accept_rc, &m->reader)) {
		snprintf(err, errlen, "%s", first ? "bad accept_rc record" : "shard 1 is missing");
		goto out;
	}
	/* Shard 1 ran the corpus cases (unless --no-corpus) and names the out directory. */
	struct shard_file tmp = *first;
	*first = sh[0];
	sh[0] = tmp;
	m->reader.command = own(m, sh[0].reader);
	m->reader.timeout = strtod(sh[0].timeout, NULL);
	merge_campaigns(sh, n, sh[0].keep, out_dir, &m->camp);
	m->has_campaign = true;
	m->corpus = sh[0].cases;
	sh[0].cases = (struct corpus){ 0 };
	m->rep.format = own(m, sh[0].format);
	m->rep.reader = &m->reader;
	m->rep.corpus_desc = own(m, sh[0].corpus);
	m->rep.corpus_run = sh[0].corpus_run;
	m->rep.rows = sh[0].rows;
	m->rep.n_rows = sh[0].n_rows;
	sh[0].rows = NULL;
	for (size_t i = 0; i < m->rep.n_rows; i++)
		m->rep.rows[i].c = &m->corpus.cases[i];
	m->rep.campaign = &m->camp;
	rc = 0;
out:
	for (size_t k = 0; k < n; k++)
		shard_file_free(&sh[k]);
	free(sh);
	return rc;
}

void merged_free(struct merged *m)
{
	free(m->rep.rows);
	corpus_free(&m->corpus);
	if (m->has_campaign)
		campaign_free(&m->camp);
	for (size_t i = 0; i < m->n_owned; i++)
		free(m->owned[i]);
	free(m->owned);
	memset(m, 0, sizeof *m);
}
