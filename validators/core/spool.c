/* See spool.h. */
#include "spool.h"

#include <stdlib.h>
#include <unistd.h>

FILE *tl_spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-spool-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmpl);
	if (fd < 0 && dir && *dir) {
		/* a report should not fail for a TMPDIR that is gone: /tmp will do */
		snprintf(tmpl, sizeof tmpl, "/tmp/tracelint-spool-XXXXXX");
		fd = mkstemp(tmpl);
	}
	if (fd < 0)
		return NULL;
	unlink(tmpl);
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		close(fd);
	return f;
}

bool tl_spool_copy(FILE *spool, long n, FILE *out)
{
	char buf[65536];
	bool ok = fflush(spool) == 0 && fseek(spool, 0, SEEK_SET) == 0;
	while (ok && n > 0) {
		size_t want = n < (long)sizeof buf ? (size_t)n : sizeof buf;
		size_t got = fread(buf, 1, want, spool);
		ok = got == want && fwrite(buf, 1, got, out) == got;
		n -= (long)got;
	}
	return fseek(spool, 0, SEEK_SET) == 0 && ok;
}
