/* See rule_index.h. */
#include "rule_index.h"
#include "rule_table.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const char *id_of(size_t rule) { return tl_rule_at(rule)->id; }

/* Insertion sort of at most a few hundred entries by key(rule): no
 * comparator context needed. */
static void sort_by(uint16_t *a, size_t n, const char *const *key)
{
	for (size_t i = 1; i < n; i++) {
		uint16_t v = a[i];
		size_t j = i;
		for (; j > 0 && strcmp(key[a[j - 1]], key[v]) > 0; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

bool tl_rule_index_init(struct tl_rule_index *x)
{
	memset(x, 0, sizeof *x);
	x->n = tl_rule_count();
	x->by_id = malloc(x->n * sizeof *x->by_id);
	x->renamed = malloc(x->n * sizeof *x->renamed);
	x->former = malloc(x->n * sizeof *x->former);
	const char **ids = malloc(x->n * sizeof *ids);
	if (!x->by_id || !x->renamed || !x->former || !ids) {
		free(ids);
		tl_rule_index_free(x);
		return false;
	}
	for (size_t i = 0; i < x->n; i++) {
		x->by_id[i] = (uint16_t)i;
		ids[i] = id_of(i);
		x->former[i] = tl_rule_former_id(tl_rule_at(i));
		if (x->former[i])
			x->renamed[x->nrenamed++] = (uint16_t)i;
	}
	sort_by(x->by_id, x->n, ids);
	sort_by(x->renamed, x->nrenamed, x->former);
	free(ids);
	return true;
}

void tl_rule_index_free(struct tl_rule_index *x)
{
	free(x->by_id);
	free(x->renamed);
	free(x->former);
	memset(x, 0, sizeof *x);
}

/* The first position of order[0..n) whose name (key) is not below key's first len bytes. */
static size_t lower_bound(const uint16_t *order, size_t n, const char *const *names, const char *key, size_t len)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strncmp(names ? names[order[mid]] : id_of(order[mid]), key, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t tl_rule_index_match(const struct tl_rule_index *x, const char *pattern, void (*each)(size_t, void *),
			   void *user)
{
	size_t found = 0, literal = strcspn(pattern, "*?[\\");
	bool glob = pattern[literal] != '\0';
	/* By ID: only those starting with the literal prefix can match. */
	for (size_t i = lower_bound(x->by_id, x->n, NULL, pattern, literal); i < x->n; i++) {
		size_t r = x->by_id[i];
		const char *id = id_of(r);
		if (strncmp(id, pattern, literal) != 0 || (!glob && id[literal] != '\0'))
			break;
		if (!glob || fnmatch(pattern, id, 0) == 0) {
			found++;
			if (each)
				each(r, user);
		}
	}
	/* By former ID (sorted likewise), for the rules not matched by their ID already. */
	for (size_t i = lower_bound(x->renamed, x->nrenamed, x->former, pattern, literal); i < x->nrenamed; i++) {
		size_t r = x->renamed[i];
		const char *id = id_of(r), *former = x->former[r];
		if (strncmp(former, pattern, literal) != 0 || (!glob && former[literal] != '\0'))
			break;
		bool by_id = glob ? fnmatch(pattern, id, 0) == 0 : strcmp(pattern, id) == 0;
		bool by_former = !glob || fnmatch(pattern, former, 0) == 0;
		if (by_former && !by_id) {
			found++;
			if (each)
				each(r, user);
		}
	}
	/* By format name (never a glob: compared as a string); an ID is no format. */
	if (!glob && !found)
		for (size_t r = 0; r < x->n; r++)
			if (strcmp(pattern, tl_rule_at(r)->format) == 0) {
				found++;
				if (each)
					each(r, user);
			}
	return found;
}
