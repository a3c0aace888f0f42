/* Decodes a bzip2 file with 1 and N threads (decompress.h) and says whether
 * the bytes are equal: run under ThreadSanitizer by equiv_test.sh.
 * usage: bzip2-par FILE N */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"

static char *decoded(const uint8_t *data, size_t size, unsigned threads, size_t *len)
{
	char err[512];
	int fd = tl_decompress_to_file(TL_COMPRESSION_BZIP2, data, size, "input", threads, err, sizeof err);
	if (fd < 0) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf = malloc((size_t)end + 1);
	if (end < 0 || !buf || pread(fd, buf, (size_t)end, 0) != end)
		exit(1);
	close(fd);
	*len = (size_t)end;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0)
		return 2;
	const uint8_t *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		return 2;
	unsigned n = (unsigned)atoi(argv[2]);
	size_t one_len, many_len;
	char *one = decoded(data, (size_t)st.st_size, 1, &one_len);
	char *many = decoded(data, (size_t)st.st_size, n, &many_len);
	bool same = one_len == many_len && memcmp(one, many, one_len) == 0;
	printf("%u threads: %zu bytes, %s 1 thread\n", n, many_len, same ? "equal to" : "NOT equal to");
	free(one);
	free(many);
	return same ? 0 : 1;
}
