/* Anchored paths of baselines (see baseline.h): a validated path made
 * absolute, its directory resolved, and written relative to the anchor. */
#include "baseline.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory part of path, resolved (the file itself may not exist yet). */
static char *resolved_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	return realpath(dir, NULL);
}

bool baseline_anchor_init(struct baseline_anchor *a, const char *baseline_file)
{
	a->root = resolved_dir(baseline_file);
	if (!a->root)
		return false;
	/* the closest directory up from the file's that holds .git */
	size_t n = strlen(a->root);
	char probe[PATH_MAX + 8];
	for (size_t end = n;;) {
		snprintf(probe, sizeof probe, "%.*s/.git", (int)end, a->root);
		struct stat st;
		if (stat(probe, &st) == 0) {
			a->root[end ? end : 1] = '\0';
			return true;
		}
		if (end <= 1)
			break;
		while (end > 0 && a->root[end - 1] != '/')
			end--;
		if (end > 1)
			end--; /* drop the '/' too, but keep "/" itself */
	}
	return true;
}

void baseline_anchor_free(struct baseline_anchor *a)
{
	free(a->root);
	a->root = NULL;
}

/* Appends the components of path to out (at *n), folding ".", ".." and
 * repeated '/'. */
static void append_components(char *out, size_t len, size_t *n, const char *path)
{
	while (*path) {
		while (*path == '/')
			path++;
		const char *end = strchr(path, '/');
		size_t k = end ? (size_t)(end - path) : strlen(path);
		if (k == 0)
			break;
		if (k == 1 && path[0] == '.') {
			/* nothing */
		} else if (k == 2 && path[0] == '.' && path[1] == '.') {
			while (*n > 1 && out[*n - 1] != '/')
				(*n)--;
			if (*n > 1)
				(*n)--;
		} else if (*n + k + 2 < len) {
			if (*n > 1 || out[0] != '/')
				out[(*n)++] = '/';
			memcpy(out + *n, path, k);
			*n += k;
		}
		out[*n] = '\0';
		path += k;
	}
}

void baseline_key_path(const struct baseline_anchor *a, const char *path, char *out, size_t len)
{
	if (strcmp(path, "-") == 0 || !a->root) {
		snprintf(out, len, "%s", path);
		return;
	}
	/* the path's directory resolved (symbolic links, ".."), its last part kept */
	char trimmed[PATH_MAX], abs[2 * PATH_MAX];
	snprintf(trimmed, sizeof trimmed, "%s", path);
	for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
		trimmed[n - 1] = '\0';
	char *dir = is_dir(trimmed) ? realpath(trimmed, NULL) : NULL;
	if (dir) {
		snprintf(abs, sizeof abs, "%s", dir);
	} else {
		const char *slash = strrchr(trimmed, '/');
		dir = resolved_dir(trimmed);
		if (dir)
			snprintf(abs, sizeof abs, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir,
				 slash ? slash + 1 : trimmed);
		else if (trimmed[0] == '/' || !getcwd(abs, sizeof abs))
			snprintf(abs, sizeof abs, "%s", trimmed);
		else {
			size_t n = strlen(abs);
			abs[n] = '\0';
			append_components(abs, sizeof abs, &n, trimmed);
		}
	}
	free(dir);
	/* relative to the root: the common directories dropped, "../" for each
	 * of the root's left */
	const char *r = a->root, *p = abs;
	size_t common = 0;
	for (size_t i = 0;; i++) {
		bool r_end = r[i] == '\0' || r[i] == '/', p_end = p[i] == '\0' || p[i] == '/';
		if (r_end && p_end)
			common = i;
		if (r[i] != p[i] || r[i] == '\0')
			break;
	}
	bool at_top = strcmp(r, "/") == 0;
	if (at_top)
		common = 0;
	size_t o = 0;
	for (const char *s = r + common; !at_top && *s; s++)
		if (*s == '/' && o + 4 < len) {
			memcpy(out + o, "../", 3);
			o += 3;
		}
	const char *rest = p + common;
	while (*rest == '/')
		rest++;
	snprintf(out + o, len - o, "%s", *rest ? rest : (o ? "" : "."));
	if (o && !*rest)
		out[o - 1] = '\0'; /* "../.." rather than "../../" */
}
