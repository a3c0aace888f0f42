/* Directory arguments: a directory that is not a UMTracer trace (detect.h)
 * is walked recursively in name order, as deep as it goes; every file in it
 * and every trace directory below it becomes a path to validate. Files
 * found by the walk whose format is not recognised are skipped (named and
 * counted), where a file named on the command line would be an error; links,
 * FIFOs and devices are named as skipped. A file named inside a trace
 * directory stands for the trace. */
#include "cli.h"
#include "detect.h"
#include "grow.h"

#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A UMTracer trace, also one that lost some of its files (detect.h). */
static bool is_trace_dir(const char *dir)
{
	return tl_is_trace_directory(dir);
}

static bool add_target(struct cli_targets *t, const char *path, bool walked, bool folded)
{
	struct cli_target *more = tl_grow_array(t->items, &t->cap, t->count, sizeof *more, 64);
	if (!more)
		return false;
	t->items = more;
	char *copy = strdup(path);
	if (!copy)
		return false;
	t->items[t->count++] = (struct cli_target){ copy, walked, folded, NULL };
	return true;
}

/* A path a walk names without validating it. */
static bool add_skipped(struct cli_targets *t, const char *path, const char *reason)
{
	if (!add_target(t, path, true, false))
		return false;
	t->items[t->count - 1].skip_reason = reason;
	return true;
}

static bool add(struct cli_targets *t, const char *path, bool walked)
{
	return add_target(t, path, walked, false);
}

/* A file inside a UMTracer trace directory ("t/exec.vtable", as pre-commit
 * passes the files of a commit) stands for its trace, validated once. */
static bool add_member_or_file(struct cli_targets *t, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int n = snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (n <= 0 || (size_t)n >= sizeof dir || (slash && slash[1] == '\0') ||
	    stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !is_trace_dir(dir))
		return add(t, path, false);
	return cli_expand_trace(t, dir);
}

bool cli_expand_trace(struct cli_targets *t, const char *dir)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->items[i].folded && strcmp(t->items[i].path, dir) == 0)
			return true;
	return add_target(t, dir, false, true);
}

static bool is_vcs_dir(const char *name)
{
	static const char *const stores[] = { ".git", ".hg", ".svn", ".bzr", "_darcs", ".jj" };
	for (size_t i = 0; i < sizeof stores / sizeof *stores; i++)
		if (strcmp(name, stores[i]) == 0)
			return true;
	return false;
}

/* dir/name on the heap: a walk may go past PATH_MAX, and what lies there
 * must be reported (the system refuses the name), not left out. */
static char *join(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);
	bool slash = d > 0 && dir[d - 1] != '/';
	char *path = malloc(d + slash + n + 1);
	if (path) {
		memcpy(path, dir, d);
		path[d] = '/';
		memcpy(path + d + slash, name, n + 1);
	}
	return path;
}

/* The directories from the walk's root down to the current one: a directory
 * met again below itself (a bind mount of its parent) would never end. */
struct walk_path {
	dev_t dev;
	ino_t ino;
	const struct walk_path *up;
};

static bool on_path(const struct walk_path *p, const struct stat *st)
{
	for (; p; p = p->up)
		if (p->dev == st->st_dev && p->ino == st->st_ino)
			return true;
	return false;
}

/* Depth-first in name order, so that the output does not depend on the file
 * system; as deep as the tree goes. */
static bool walk(struct cli_targets *t, const char *dir, const struct walk_path *up)
{
	struct stat self;
	if (stat(dir, &self) != 0)
		return add(t, dir, false); /* validating it reports why it cannot be read */
	if (on_path(up, &self))
		return add_skipped(t, dir, "a directory met again inside itself (a loop of mounts)");
	const struct walk_path here = { self.st_dev, self.st_ino, up };
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0 && errno == ENOMEM)
		return false;
	if (n < 0)
		return add(t, dir, false); /* validating it reports why it cannot be read */
	bool ok = true;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *path = NULL;
		struct stat st;
		if (ok && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
			path = join(dir, name);
			if (!path)
				ok = false;
			else if (lstat(path, &st) != 0)
				/* gone since the listing: nothing to say; anything
				 * else (a name past PATH_MAX): validating it says why */
				ok = errno == ENOENT || add(t, path, false);
			else if (S_ISDIR(st.st_mode) && is_vcs_dir(name))
				; /* a repository's own store holds no traces of its files */
			else if (S_ISDIR(st.st_mode))
				ok = is_trace_dir(path) ? add(t, path, true) : walk(t, path, &here);
			else if (S_ISREG(st.st_mode))
				ok = add(t, path, true);
			else if (S_ISLNK(st.st_mode))
				ok = add_skipped(t, path, "a symbolic link, not followed inside a walk (name it to validate it)");
			else
				ok = add_skipped(t, path, "not a regular file or directory (a FIFO, socket or device)");
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return ok;
}

bool cli_expand(struct cli_targets *t, char *const *paths, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		struct stat st;
		const char *p = paths[i];
		bool walkable = strcmp(p, "-") != 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode) && !is_trace_dir(p);
		size_t first = t->count;
		if (!(walkable ? walk(t, p, NULL) && cli_drop_ignored(t, first, p) : add_member_or_file(t, p)))
			return false;
	}
	return true;
}

bool cli_expand_list(struct cli_targets *t, const char *list, bool nul_separated)
{
	FILE *f = strcmp(list, "-") == 0 ? stdin : fopen(list, "r");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool ok = true;
	while (ok && (n = getdelim(&line, &cap, nul_separated ? '\0' : '\n', f)) > 0) {
		if (line[n - 1] == (nul_separated ? '\0' : '\n'))
			line[--n] = '\0';
		if (n > 0)
			ok = cli_expand(t, &line, 1);
	}
	ok = ok && !ferror(f);
	free(line);
	if (f != stdin)
		fclose(f);
	return ok;
}

void cli_targets_free(struct cli_targets *t)
{
	tl_free_array(t->items, t->count, sizeof *t->items, offsetof(struct cli_target, path));
	memset(t, 0, sizeof *t);
}
