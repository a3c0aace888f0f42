/* The file size limit of the files the library writes (see write_cap.h). */
#include "write_cap.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

uint64_t tl_write_cap(uint64_t limit, bool *by_rlimit)
{
	struct rlimit rl;
	*by_rlimit = false;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_cur < limit) {
		*by_rlimit = true;
		return (uint64_t)rl.rlim_cur;
	}
	return limit;
}

bool tl_write_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return false;
		}
		done += (size_t)w;
	}
	return true;
}
