/* Explanations of known disagreements (--explain=FILE): a reader's author
 * writes down once why their reader differs on a case or a rule, and every
 * later report shows the reason next to the disagreement, so only new,
 * unexplained ones need a look.
 *
 * File: one explanation a line, "KEY TEXT" (KEY ends at the first blank).
 * KEY is a shell glob matched against the case name ("invalid/foo.tf") and
 * against the rule tracelint cites; an optional "lenient:", "strict:",
 * "crash:" or "hang:" prefix limits it to that class. The first matching line
 * wins; blank lines and lines starting with # are skipped. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"

static bool class_from_prefix(const char *key, size_t len, enum disagreement *dis, size_t *skip)
{
	for (int d = DIS_LENIENT; d < DIS_COUNT; d++) {
		const char *name = disagreement_name((enum disagreement)d);
		size_t n = strlen(name);
		if (len > n + 1 && strncmp(key, name, n) == 0 && key[n] == ':') {
			*dis = (enum disagreement)d;
			*skip = n + 1;
			return true;
		}
	}
	return false;
}

int explanations_load(struct explanations *ex, const char *path, char *err, size_t errlen)
{
	size_t size;
	char *text = read_file(path, &size);
	if (!text) {
		snprintf(err, errlen, "%s: cannot read the explanations", path);
		return -1;
	}
	memset(ex, 0, sizeof *ex);
	ex->text = text;
	unsigned lineno = 0;
	for (char *line = text, *next; line && *line; line = next) {
		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		size_t klen = strcspn(line, " \t");
		char *why = line + klen;
		while (*why == ' ' || *why == '\t')
			*why++ = '\0';
		size_t wlen = strlen(why);
		while (wlen && isspace((unsigned char)why[wlen - 1]))
			why[--wlen] = '\0';
		if (!wlen) {
			snprintf(err, errlen, "%s:%u: a key without an explanation", path, lineno);
			explanations_free(ex);
			return -1;
		}
		struct explanation e = { .dis = DIS_AGREE, .key = line, .why = why };
		size_t skip = 0;
		if (class_from_prefix(line, klen, &e.dis, &skip))
			e.key += skip;
		ex->items = xrealloc(ex->items, (ex->count + 1) * sizeof *ex->items);
		ex->items[ex->count++] = e;
	}
	return 0;
}

const char *explanation_for(const struct explanations *ex, enum disagreement dis,
			    const char *case_name, const char *rule)
{
	if (!ex)
		return NULL;
	for (size_t i = 0; i < ex->count; i++) {
		const struct explanation *e = &ex->items[i];
		if (e->dis != DIS_AGREE && e->dis != dis)
			continue;
		if ((case_name && fnmatch(e->key, case_name, 0) == 0) ||
		    (rule && *rule && fnmatch(e->key, rule, 0) == 0))
			return e->why;
	}
	return NULL;
}

void explanations_free(struct explanations *ex)
{
	free(ex->items);
	free(ex->text);
	memset(ex, 0, sizeof *ex);
}
