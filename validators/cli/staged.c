/* --staged-deletions: a commit that deletes a member of a UMTracer trace
 * passes no file of that trace to a pre-commit hook (deleted files are not
 * passed), yet leaves the trace broken. The staged deletions of the git work
 * tree around the current directory name those traces. */
#include "cli.h"
#include "detect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The directory a deleted member was in, when it is still a trace. */
static bool add_trace_of(struct cli_targets *t, const char *deleted)
{
	const struct tl_format *f = tl_format_by_name(deleted);
	if (!f || f->id != TL_FORMAT_UMTRACE)
		return true;
	const char *slash = strrchr(deleted, '/');
	char *dir = slash ? strndup(deleted, (size_t)(slash - deleted)) : strdup(".");
	if (!dir)
		return false;
	struct stat st;
	/* a trace deleted whole is gone, not broken */
	bool ok = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !tl_is_trace_directory(dir) ||
		  cli_expand_trace(t, dir);
	free(dir);
	return ok;
}

bool cli_expand_staged_deletions(struct cli_targets *t, char *err, size_t errlen)
{
	FILE *git = popen("git diff --cached --name-only --relative -z --diff-filter=D", "r");
	if (!git) {
		snprintf(err, errlen, "--staged-deletions: cannot run git: %s", strerror(errno));
		return false;
	}
	char *path = NULL;
	size_t cap = 0;
	ssize_t n;
	bool ok = true;
	while (ok && (n = getdelim(&path, &cap, '\0', git)) > 0)
		if ((ok = add_trace_of(t, path)) == false)
			snprintf(err, errlen, "out of memory");
	free(path);
	int status = pclose(git);
	if (ok && status != 0) {
		snprintf(err, errlen, "--staged-deletions: git diff --cached failed (not inside a git work tree?)");
		ok = false;
	}
	return ok;
}
