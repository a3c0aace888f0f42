/* Input mapping (see input.h). */
#define _GNU_SOURCE
#include "input.h"
#include "decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_err(char *err, size_t errlen, const char *what, const char *path, int e)
{
	if (err && errlen)
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(e));
}

static bool map_fd(struct tl_input *in, int fd, size_t size)
{
	in->size = size;
	if (size == 0)
		return true;
	void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return false;
	/* Validators read front to back: let the kernel read ahead. */
	(void)madvise(m, size, MADV_SEQUENTIAL);
	in->map = m;
	in->map_size = size;
	in->data = m;
	return true;
}

/* Standard input may be a pipe: copy it into an unlinked temporary file so it
 * can be mapped like any other file and never sits on the heap. */
static int spool_stdin(char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		set_err(err, errlen, "cannot create a spool file for", "standard input", errno);
		return -1;
	}
	unlink(tmpl);
	char buf[1 << 16]; /* on the stack: the library keeps no static state */
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			set_err(err, errlen, "cannot read", "standard input", errno);
			close(fd);
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				set_err(err, errlen, "cannot spool", "standard input", errno);
				close(fd);
				return -1;
			}
			done += w;
		}
	}
	return fd;
}

/* The mapped file is compressed: map its decompressed copy instead. Returns
 * the copy's descriptor (fd is closed either way), or -1 with a message. */
static int replace_with_decompressed(struct tl_input *in, int fd, enum tl_compression kind,
				     const char *path, char *err, size_t errlen)
{
	int out = tl_decompress_to_file(kind, in->data, in->size, path, err, errlen);
	munmap(in->map, in->map_size);
	in->map = NULL;
	in->map_size = 0;
	in->data = NULL;
	in->size = 0;
	close(fd);
	if (out < 0)
		return -1;
	struct stat st;
	if (fstat(out, &st) != 0 || (uintmax_t)st.st_size > SIZE_MAX) {
		set_err(err, errlen, "cannot stat the decompressed copy of", path, errno);
		close(out);
		return -1;
	}
	if (!map_fd(in, out, (size_t)st.st_size)) {
		set_err(err, errlen, "cannot map the decompressed copy of", path, errno);
		close(out);
		return -1;
	}
	in->compression = (uint8_t)kind;
	return out;
}

bool tl_input_open(struct tl_input *in, const char *path, char *err, size_t errlen)
{
	memset(in, 0, sizeof *in);
	in->name = path;
	int fd;
	if (strcmp(path, "-") == 0) {
		fd = spool_stdin(err, errlen);
		if (fd < 0)
			return false;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			set_err(err, errlen, "cannot open", path, errno);
			return false;
		}
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		set_err(err, errlen, "cannot stat", path, errno);
		close(fd);
		return false;
	}
	if (S_ISDIR(st.st_mode)) {
		in->is_directory = true;
		close(fd);
		return true;
	}
	if (!S_ISREG(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read %s: not a regular file or directory", path);
		close(fd);
		return false;
	}
	if ((uintmax_t)st.st_size > SIZE_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "cannot map %s: file too large for this machine", path);
		close(fd);
		return false;
	}
	bool ok = map_fd(in, fd, (size_t)st.st_size);
	int e = errno;
	if (!ok) {
		close(fd);
		set_err(err, errlen, "cannot map", path, e);
		return false;
	}
	enum tl_compression kind = tl_compression_sniff(in->data, in->size);
	if (kind != TL_COMPRESSION_NONE) {
		fd = replace_with_decompressed(in, fd, kind, path, err, errlen);
		if (fd < 0)
			return false;
	}
	/* Kept open for windowed reading (window.h). */
	in->fd = fd;
	in->has_fd = true;
	return true;
}

void tl_input_from_memory(struct tl_input *in, const void *data, size_t size, const char *name)
{
	memset(in, 0, sizeof *in);
	in->data = size ? data : NULL;
	in->size = size;
	in->name = name;
}

/* Page release is bookkeeping of the mapping, not part of the input's
 * content, so validators holding a const input may call it. */
static struct tl_input *mapping_of(const struct tl_input *in)
{
	return (struct tl_input *)(uintptr_t)in;
}

void tl_input_release(const struct tl_input *input, uint64_t upto)
{
	struct tl_input *in = mapping_of(input);
	if (!in->map)
		return;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return;
	if (upto > in->map_size)
		upto = in->map_size;
	uint64_t end = upto - upto % (uint64_t)page;
	/* Release in large steps only: each call is a system call. */
	if (end <= in->released || end - in->released < (16u << 20))
		return;
	(void)madvise((char *)in->map + in->released, end - in->released, MADV_DONTNEED);
	in->released = end;
}

void tl_input_restart(const struct tl_input *input)
{
	struct tl_input *in = mapping_of(input);
	if (!in->map)
		return;
	(void)madvise(in->map, in->map_size, MADV_DONTNEED);
	in->released = 0;
}

void tl_input_close(struct tl_input *in)
{
	if (in->map)
		munmap(in->map, in->map_size);
	if (in->has_fd)
		close(in->fd);
	memset(in, 0, sizeof *in);
}
