/* The file size limit of the files the library writes (see write_cap.h). */
#include "write_cap.h"

#include <sys/resource.h>

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
