/* The path a diagnostic is shown under: the input, or the member of a trace
 * directory. Used by the writers; kept apart from writer.c, which picks a
 * writer, so that the writers and their selector do not depend on each other. */
#include "writer.h"

#include <stdio.h>

void tl_diag_path(char *buf, size_t len, const char *path, const struct tl_diagnostic *d)
{
	if (d->loc.member)
		snprintf(buf, len, "%s/%s", path, d->loc.member);
	else
		snprintf(buf, len, "%s", path);
}
