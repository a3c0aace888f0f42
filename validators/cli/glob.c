/* See glob.h. Matching runs over (pattern component, path component) pairs,
 * each tried once, so that a pattern of many '**' stays linear in the
 * product of the two lengths. */
#include "glob.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct parts {
	char *text;      /* a copy, its '/' replaced by NULs */
	char **part;
	size_t count;
};

static bool split(struct parts *p, const char *s)
{
	size_t n = strlen(s);
	p->text = malloc(n + 1);
	p->part = malloc((n / 2 + 2) * sizeof *p->part);
	p->count = 0;
	if (!p->text || !p->part)
		return false;
	memcpy(p->text, s, n + 1);
	for (char *save = NULL, *t = strtok_r(p->text, "/", &save); t; t = strtok_r(NULL, "/", &save))
		if (strcmp(t, ".") != 0)
			p->part[p->count++] = t;
	return true;
}

static void parts_free(struct parts *p)
{
	free(p->text);
	free(p->part);
}

enum { UNKNOWN = 0, NO, YES };

static bool match_from(const struct parts *pat, const struct parts *path, size_t pi, size_t si,
		       unsigned char *memo)
{
	unsigned char *m = &memo[pi * (path->count + 1) + si];
	if (*m != UNKNOWN)
		return *m == YES;
	bool ok;
	if (pi == pat->count)
		ok = true; /* the pattern named a directory holding the rest of the path */
	else if (strcmp(pat->part[pi], "**") == 0)
		ok = match_from(pat, path, pi + 1, si, memo) ||
		     (si < path->count && match_from(pat, path, pi, si + 1, memo));
	else
		ok = si < path->count && fnmatch(pat->part[pi], path->part[si], 0) == 0 &&
		     match_from(pat, path, pi + 1, si + 1, memo);
	*m = ok ? YES : NO;
	return ok;
}

bool cli_glob_match(const char *pattern, const char *path)
{
	struct parts pat = { 0 }, p = { 0 };
	bool ok = false;
	if (split(&pat, pattern) && split(&p, path) && pat.count && p.count) {
		/* a trailing '/' only says "a directory"; the walk gives files below it */
		const char *inner = strchr(pattern, '/');
		bool anchored = inner && inner[1] != '\0';
		if (!anchored) {
			for (size_t i = 0; i < p.count && !ok; i++)
				ok = fnmatch(pat.part[0], p.part[i], 0) == 0;
		} else {
			unsigned char *memo = calloc((pat.count + 1) * (p.count + 1), 1);
			ok = memo && match_from(&pat, &p, 0, 0, memo);
			free(memo);
		}
	}
	parts_free(&pat);
	parts_free(&p);
	return ok;
}
