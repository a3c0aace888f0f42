/* See safe_file.h. */
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files a signal must remove: the process's own, so a static
 * table (the handler may only use what is reachable without the caller). */
enum { PENDING_MAX = 4 };
static char *volatile pending[PENDING_MAX];

static void remove_pending(int sig)
{
	for (int i = 0; i < PENDING_MAX; i++)
		if (pending[i])
			unlink(pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool track(char *path)
{
	static bool handlers;
	if (!handlers) {
		static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = remove_pending;
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
			sigaction(signals[i], &sa, NULL);
		handlers = true;
	}
	for (int i = 0; i < PENDING_MAX; i++) {
		if (!pending[i]) {
			pending[i] = path;
			return true;
		}
	}
	return false;
}

static void untrack(const char *path)
{
	for (int i = 0; i < PENDING_MAX; i++)
		if (pending[i] == path)
			pending[i] = NULL;
}

static bool safe_file_make(struct safe_file *f, const char *target, char *err, size_t errlen);

static void clear(struct safe_file *f)
{
	if (f->temporary)
		untrack(f->temporary);
	free(f->target);
	free(f->temporary);
	memset(f, 0, sizeof *f);
}

bool safe_file_open(struct safe_file *f, const char *target, bool follow_symlink, char *err,
		    size_t errlen)
{
	memset(f, 0, sizeof *f);
	struct stat st;
	char *resolved = NULL;
	if (follow_symlink && lstat(target, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!(resolved = realpath(target, NULL))) {
			snprintf(err, errlen, "the symbolic link names no file: %s", strerror(errno));
			return false;
		}
		target = resolved;
	}
	bool ok = safe_file_make(f, target, err, errlen);
	free(resolved);
	return ok;
}

static bool safe_file_make(struct safe_file *f, const char *target, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s",
			 S_ISLNK(st.st_mode) ? "it is a symbolic link (name the file it points to, or give --write-through-symlink)"
			 : S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file");
		return false;
	}
	const char *slash = strrchr(target, '/');
	int dir_len = slash ? (int)(slash - target) + 1 : 0;
	const char *base = slash ? slash + 1 : target;
	size_t n = strlen(target) + 32;
	f->target = strdup(target);
	f->temporary = malloc(n);
	if (!f->target || !f->temporary) {
		snprintf(err, errlen, "out of memory");
		clear(f);
		return false;
	}
	snprintf(f->temporary, n, "%.*s.%s.XXXXXX", dir_len, target, base);
	int fd = mkstemp(f->temporary);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		clear(f);
		return false;
	}
	/* mkstemp's mode is 0600; the file gets what a plain creation would */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	bool tracked = track(f->temporary);
	if (!tracked || !(f->out = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s", tracked ? strerror(errno) : "too many files at once");
		close(fd);
		unlink(f->temporary);
		clear(f);
		return false;
	}
	return true;
}

bool safe_file_commit(struct safe_file *f, char *err, size_t errlen)
{
	bool ok = fflush(f->out) == 0 && !ferror(f->out) && fsync(fileno(f->out)) == 0;
	int saved = errno;
	if (fclose(f->out) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	f->out = NULL;
	if (ok && rename(f->temporary, f->target) != 0) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		unlink(f->temporary);
		snprintf(err, errlen, "%s", strerror(saved));
	}
	clear(f);
	return ok;
}

void safe_file_abort(struct safe_file *f)
{
	if (f->out)
		fclose(f->out);
	if (f->temporary)
		unlink(f->temporary);
	clear(f);
}
