/* Which corpus cases a run covers (--only, --exclude, --skip-compressed),
 * and the check that the reader command works at all before any
 * disagreement is counted: a reader that rejects every valid case is far
 * more likely run wrongly (a quoting mistake, a missing option) than
 * strict about all of them. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"

#define BROKEN_MIN_VALID 3

static bool any_match(const char *const *globs, size_t n, const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], name, 0) == 0 || fnmatch(globs[i], base, 0) == 0)
			return true;
	return false;
}

/* gzip, bzip2 or zstd by its first bytes, as tracelint recognises them. */
static bool is_compressed(const char *path)
{
	unsigned char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t n = fread(m, 1, sizeof m, f);
	fclose(f);
	return (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) ||
	       (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') ||
	       (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd);
}

static void case_free(struct corpus_case *c)
{
	free(c->path);
	free(c->name);
	free(c->args);
	free(c->intent_why);
}

size_t corpus_select(struct corpus *c, const struct case_filter *f)
{
	size_t kept = 0, dropped = 0;
	for (size_t i = 0; i < c->count; i++) {
		struct corpus_case *k = &c->cases[i];
		bool keep = (!f->n_only || any_match(f->only, f->n_only, k->name)) &&
			    !any_match(f->exclude, f->n_exclude, k->name) &&
			    !(f->skip_compressed && is_compressed(k->path));
		if (keep) {
			c->cases[kept++] = *k;
		} else {
			case_free(k);
			dropped++;
		}
	}
	c->count = kept;
	return dropped;
}

bool reader_looks_broken(const struct report *r, char *why, size_t whylen)
{
	size_t valid = 0, accepted = 0;
	const struct corpus_row *first = NULL;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct corpus_row *row = &r->rows[i];
		if (row->c->kind != CASE_VALID || row->ours.reject)
			continue;
		valid++;
		accepted += row->run.outcome == RUN_ACCEPTED;
		if (!first)
			first = row;
	}
	/* With one or two valid cases, rejecting them may be the reader's honest
	 * strictness; the corpora have dozens. */
	if (valid < BROKEN_MIN_VALID || accepted)
		return false;
	snprintf(why, whylen, "the reader rejected all %zu valid cases (the first, %s: %s, \"%s\")", valid,
		 first->c->name, run_outcome_name(first->run.outcome), first->run.message);
	return true;
}
