/* The path a diagnostic is shown under: the input, or the member of a trace
 * directory. Used by the writers; kept apart from writer.c, which picks a
 * writer, so that the writers and their selector do not depend on each other. */
#include "writer.h"

#include <stdio.h>
#include <string.h>

void tl_diag_path(char *buf, size_t len, const char *path, const struct tl_diagnostic *d)
{
	const char *m = d->loc.member;
	size_t n = strlen(path), k = m ? strlen(m) : 0;
	/* a single member given as the path already names it: no "x/t.itable/t.itable" */
	bool named = m && n >= k && strcmp(path + n - k, m) == 0 && (n == k || path[n - k - 1] == '/');
	if (!m || named)
		snprintf(buf, len, "%s", path);
	else if (n && path[n - 1] == '/') /* "dir/" + member, not "dir//member" */
		snprintf(buf, len, "%s%s", path, m);
	else
		snprintf(buf, len, "%s/%s", path, m);
}
