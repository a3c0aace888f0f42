/* A walk inside a git work tree leaves out what the repository ignores
 * (.gitignore, .git/info/exclude, core.excludesFile), as git itself does:
 * the paths a walk found are given to `git check-ignore --stdin -z`, run in
 * the walked directory, and the ones it prints are dropped. Outside a work
 * tree, or when git cannot run, nothing is dropped. */
#include "cli.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Runs git in dir with in as its standard input; its standard output, or NULL. */
static FILE *run_git(const char *dir, FILE *in, pid_t *pid)
{
	int out[2];
	if (pipe(out) != 0)
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char git[] = "git", at[] = "-C", check[] = "check-ignore", from_stdin[] = "--stdin", nul[] = "-z";
	char *where = strdup(dir);
	char *argv[] = { git, at, where, check, from_stdin, nul, NULL };
	int rc = where ? posix_spawnp(pid, "git", &fa, NULL, argv, environ) : -1;
	free(where);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	if (rc != 0) {
		close(out[0]);
		return NULL;
	}
	return fdopen(out[0], "r");
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A found path relative to the walked root; NULL for the root itself (a
 * trace directory that is the walk's own argument), which is never left out. */
static const char *below_root(const char *path, size_t skip, bool slash)
{
	return strlen(path) > skip + slash ? path + skip + slash : NULL;
}

bool cli_drop_ignored(struct cli_targets *t, size_t first, const char *root)
{
	size_t skip = strlen(root);
	bool slash = skip > 0 && root[skip - 1] != '/';
	FILE *in = tmpfile();
	if (!in)
		return true;
	for (size_t i = first; i < t->count; i++) {
		const char *rel = below_root(t->items[i].path, skip, slash);
		if (rel)
			fprintf(in, "%s%c", rel, '\0');
	}
	pid_t pid;
	FILE *out = fflush(in) == 0 && fseek(in, 0, SEEK_SET) == 0 ? run_git(root, in, &pid) : NULL;
	fclose(in);
	if (!out)
		return true;
	char **ignored = NULL, *line = NULL;
	size_t n = 0, cap = 0, linecap = 0;
	bool ok = true;
	while (ok && getdelim(&line, &linecap, '\0', out) > 0) {
		char **more = n < cap ? ignored : realloc(ignored, (cap = cap ? 2 * cap : 64) * sizeof *more);
		ok = more != NULL;
		if (ok && (more[n] = line) != NULL) {
			ignored = more;
			n++;
			line = NULL;
			linecap = 0;
		}
	}
	free(line);
	fclose(out);
	int status;
	waitpid(pid, &status, 0);
	/* git check-ignore: 0 some ignored, 1 none, 128 not a work tree */
	if (ok && n && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		qsort(ignored, n, sizeof *ignored, by_path);
		size_t kept = first;
		for (size_t i = first; i < t->count; i++) {
			const char *rel = below_root(t->items[i].path, skip, slash);
			if (rel && bsearch(&rel, ignored, n, sizeof *ignored, by_path))
				free(t->items[i].path);
			else
				t->items[kept++] = t->items[i];
		}
		t->count = kept;
	}
	for (size_t i = 0; i < n; i++)
		free(ignored[i]);
	free(ignored);
	return ok;
}
