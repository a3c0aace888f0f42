/* The labelled corpus (corpus/README.md): cases under valid/, invalid/ and
 * regressions/, their .args options and the verdict their .expected gives. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "validators/conform/conform.h"

static const char *const kind_dirs[] = { "valid", "invalid", "regressions" };

const char *case_kind_name(enum case_kind k)
{
	static const char *const names[CASE_KIND_COUNT] = { "valid", "invalid", "regression", "unlabelled" };
	return k < CASE_KIND_COUNT ? names[k] : "?";
}

const char *case_intent_name(enum case_intent i)
{
	static const char *const names[INTENT_COUNT] = { "", "must-accept", "must-reject", "either" };
	return i < INTENT_COUNT ? names[i] : "";
}

const char *case_intent_explanation(const struct corpus_case *c)
{
	if (c->intent != INTENT_EITHER)
		return NULL;
	return c->intent_why ? c->intent_why : "the case's intent is either: readers may accept or reject it";
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_case_name(const char *name)
{
	static const char *const sidecars[] = { ".expected", ".args", ".env", ".md", ".sh", ".py" };
	if (name[0] == '.' || strncmp(name, "README", 6) == 0)
		return false;
	for (size_t i = 0; i < sizeof sidecars / sizeof *sidecars; i++)
		if (ends_with(name, sidecars[i]))
			return false;
	return true;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = xrealloc(NULL, n);
	snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* The text of the case's sidecar named by suffix, or NULL when there is none. */
static char *read_sidecar(const char *case_path, const char *suffix, size_t *size)
{
	size_t n = strlen(case_path) + strlen(suffix) + 1;
	char *p = xrealloc(NULL, n);
	snprintf(p, n, "%s%s", case_path, suffix);
	char *text = read_file(p, size);
	free(p);
	return text;
}

/* The options of a .args sidecar, one a line, comments and blanks dropped. */
static char *read_args(const char *case_path)
{
	size_t size;
	char *text = read_sidecar(case_path, ".args", &size);
	if (!text)
		return NULL;
	char *out = xrealloc(NULL, size + 1), *o = out;
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		if (o != out)
			*o++ = '\n';
		size_t n = strlen(line);
		memcpy(o, line, n);
		o += n;
	}
	*o = '\0';
	free(text);
	if (o == out) {
		free(out);
		return NULL;
	}
	return out;
}

/* From the .expected sidecar: does the case produce an error, and which rule
 * comes first ("<location> <severity> <RULE-ID>" lines). */
static void read_expected(const char *case_path, struct verdict *v)
{
	size_t size;
	char *text = read_sidecar(case_path, ".expected", &size);
	if (!text)
		return;
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		char loc[256], sev[32], rule[64];
		if (line[0] == '#' || sscanf(line, "%255s %31s %63s", loc, sev, rule) != 3)
			continue;
		if (strcmp(sev, "error") == 0) {
			v->reject = true;
			snprintf(v->rule, sizeof v->rule, "%s", rule);
			break;
		}
	}
	free(text);
}

/* The "# intent: WORD [why]" line of the .expected sidecar, when there is one. */
static void read_intent(const char *case_path, struct corpus_case *k)
{
	size_t size;
	char *text = read_sidecar(case_path, ".expected", &size);
	if (!text)
		return;
	static const char prefix[] = "# intent: ";
	for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
		if (strncmp(line, prefix, sizeof prefix - 1) != 0)
			continue;
		char *word = line + sizeof prefix - 1;
		size_t n = strcspn(word, " \t");
		for (int i = INTENT_MUST_ACCEPT; i < INTENT_COUNT; i++)
			if (strlen(case_intent_name((enum case_intent)i)) == n &&
			    strncmp(word, case_intent_name((enum case_intent)i), n) == 0)
				k->intent = (enum case_intent)i;
		const char *why = word + n + strspn(word + n, " \t");
		if (k->intent == INTENT_EITHER && *why)
			k->intent_why = xstrdup(why);
		break;
	}
	free(text);
}

static void add_case(struct corpus *c, const char *path, const char *name, enum case_kind kind)
{
	c->cases = xrealloc(c->cases, (c->count + 1) * sizeof *c->cases);
	struct corpus_case *k = &c->cases[c->count++];
	memset(k, 0, sizeof *k);
	k->path = xstrdup(path);
	k->name = xstrdup(name);
	k->kind = kind;
	k->args = read_args(path);
	k->labelled = kind != CASE_UNLABELLED;
	if (kind == CASE_INVALID)
		k->label.reject = true;
	if (kind == CASE_INVALID || kind == CASE_REGRESSION)
		read_expected(path, &k->label);
	read_intent(path, k);
}

/* Every case of one directory, sorted by name so runs are reproducible. */
static int add_dir(struct corpus *c, const char *dir, const char *prefix, enum case_kind kind)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *entry = list[i]->d_name;
		if (is_case_name(entry)) {
			char *path = join(dir, entry);
			char *name = prefix ? join(prefix, entry) : xstrdup(entry);
			add_case(c, path, name, kind);
			free(path);
			free(name);
		}
		free(list[i]);
	}
	free(list);
	return 0;
}

static enum case_kind kind_of_dir_name(const char *name)
{
	for (size_t i = 0; i < 3; i++)
		if (strcmp(name, kind_dirs[i]) == 0)
			return (enum case_kind)i;
	return CASE_UNLABELLED;
}

static const char *base_name(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s", path);
	size_t n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	char *slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}

/* PATH is a format directory (with valid/ invalid/ regressions/), one of
 * those directories, a single case, or any other directory (unlabelled). */
int corpus_add(struct corpus *c, const char *path, char *err, size_t errlen)
{
	char buf[4096];
	if (!is_dir(path)) {
		FILE *f = fopen(path, "rb");
		if (!f) {
			snprintf(err, errlen, "%s: cannot open", path);
			return -1;
		}
		fclose(f);
		char parent[4096];
		snprintf(parent, sizeof parent, "%s", path);
		char *slash = strrchr(parent, '/');
		enum case_kind kind = CASE_UNLABELLED;
		if (slash) {
			*slash = '\0';
			kind = kind_of_dir_name(base_name(parent, buf, sizeof buf));
		}
		add_case(c, path, base_name(path, buf, sizeof buf), kind);
		return 0;
	}
	bool found = false;
	for (size_t i = 0; i < 3; i++) {
		char *sub = join(path, kind_dirs[i]);
		if (is_dir(sub)) {
			found = true;
			add_dir(c, sub, kind_dirs[i], (enum case_kind)i);
		}
		free(sub);
	}
	if (found)
		return 0;
	const char *base = base_name(path, buf, sizeof buf);
	enum case_kind kind = kind_of_dir_name(base);
	if (add_dir(c, path, kind == CASE_UNLABELLED ? NULL : kind_dirs[kind], kind) != 0) {
		snprintf(err, errlen, "%s: cannot read directory", path);
		return -1;
	}
	return 0;
}

void corpus_free(struct corpus *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->cases[i].path);
		free(c->cases[i].name);
		free(c->cases[i].args);
		free(c->cases[i].intent_why);
	}
	free(c->cases);
	c->cases = NULL;
	c->count = 0;
}
