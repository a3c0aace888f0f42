/* mmap for the WebAssembly build. The browser's file systems (Emscripten's
 * WORKERFS, which reads a dropped File by slices) cannot map a file, and
 * WebAssembly has no page faults to fill a mapping lazily: a file mapping is
 * a heap copy read through the descriptor, unmapped by freeing it. Anonymous
 * mappings are zeroed heap. The library maps whole files read-only and
 * unmaps them whole, which is all this supports. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)prot;
	if (addr || (flags & MAP_FIXED) || len == 0) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	uint8_t *m = aligned_alloc(16, (len + 15) / 16 * 16);
	if (!m) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	if (flags & MAP_ANONYMOUS) {
		memset(m, 0, len);
		return m;
	}
	/* in steps: each read is one slice of the browser's File, held twice
	 * while it is copied, and the page's progress bar moves per read */
	enum { STEP = 8 << 20 };
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, m + got, len - got < STEP ? len - got : STEP, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(m);
			errno = e;
			return MAP_FAILED;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	/* past the end of the file a mapping reads as zeros */
	memset(m + got, 0, len - got);
	return m;
}

int munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}
