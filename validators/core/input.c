/* Input mapping (see input.h). */
#define _GNU_SOURCE
#include "input.h"
#include "write_cap.h"
#include "decompress.h"
#include "guard.h"
#include "threads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* "what path: reason". A path too long for err is cut in its middle
 * ("...") so that the OS reason, which says what went wrong, still shows. */
static void set_err(char *err, size_t errlen, const char *what, const char *path, int e)
{
	if (!err || !errlen)
		return;
	const char *why = strerror(e);
	size_t fixed = strlen(what) + strlen(why) + 4, n = strlen(path); /* " ", ": ", NUL */
	if (fixed + n <= errlen || errlen < fixed + 16) {
		snprintf(err, errlen, "%s %s: %s", what, path, why);
		return;
	}
	size_t keep = errlen - fixed - 3, head = keep / 2; /* 3: "..." */
	snprintf(err, errlen, "%s %.*s...%s: %s", what, (int)head, path, path + n - (keep - head), why);
}

static bool map_fd(struct tl_input *in, int fd, size_t size)
{
	in->size = size;
	if (size == 0)
		return true;
	void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return false;
	/* A file shrinking under us must read as zeros, not kill the process. */
	in->guard = tl_guard_add(m, size);
	if (!in->guard) {
		munmap(m, size);
		errno = ENOMEM; /* no memory for one more slot */
		return false;
	}
	/* Validators read front to back: let the kernel read ahead. */
	(void)madvise(m, size, MADV_SEQUENTIAL);
	in->map = m;
	in->map_size = size;
	in->data = m;
	return true;
}

/* Standard input may be a pipe: copy it into an unlinked temporary file so it
 * can be mapped like any other file and never sits on the heap. */
static int spool_stdin(uint64_t limit, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-stdin-XXXXXX", dir);
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		if (err && errlen)
			snprintf(err, errlen,
				 "cannot create a spool file for standard input in %s: %s (set TMPDIR to a writable directory)",
				 dir, strerror(errno));
		return -1;
	}
	unlink(tmpl);
	bool by_rlimit;
	uint64_t cap = tl_write_cap(limit, &by_rlimit), total = 0;
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
		if ((uint64_t)n > cap - total) {
			if (err && errlen)
				snprintf(err, errlen,
					 "cannot read standard input: expected at most %" PRIu64
					 " bytes (%s), found more",
					 cap, by_rlimit ? "the file size limit, ulimit -f"
							: "--stdin-limit");
			close(fd);
			return -1;
		}
		total += (uint64_t)n;
		if (!tl_write_all(fd, buf, (size_t)n)) {
			if (err && errlen)
				snprintf(err, errlen,
					 "cannot spool standard input to %s: %s (set TMPDIR to a larger file system)",
					 dir, strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Only regular files (and directories, for trace directories) are read: a
 * FIFO or a device could block forever or never end. */
static const char *kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO (named pipe); give its content on standard input instead";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* The mapped file is compressed: map its decompressed copy instead. Returns
 * the copy's descriptor (fd is closed either way), or -1 with a message. */
static int replace_with_decompressed(struct tl_input *in, int fd, enum tl_compression kind,
				     const char *path, char *err, size_t errlen)
{
	int out = tl_decompress_to_file_at(kind, in->data, in->size, path, tl_threads_resolve(in->threads), err,
					   errlen, &in->defect);
	struct stat now;
	if (out >= 0 && (tl_guard_tripped(in->guard) ||
			 (fstat(fd, &now) == 0 && (uintmax_t)now.st_size < in->size))) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read %s: %s", path, tl_input_change_reason(in));
		close(out);
		out = -1;
	}
	tl_guard_remove(in->guard);
	in->guard = 0;
	uint64_t given = in->size;
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
	in->given_size = given;
	return out;
}

bool tl_input_open(struct tl_input *in, const char *path, char *err, size_t errlen)
{
	return tl_input_open_limited(in, path, TL_STDIN_LIMIT_DEFAULT, err, errlen);
}

/* Fails the open with errno e (kept in in->error for callers that tell
 * "absent" from "unreadable"). */
static bool refuse(struct tl_input *in, int fd, int e)
{
	if (fd >= 0)
		close(fd);
	in->error = e ? e : EIO;
	return false;
}

bool tl_input_open_limited(struct tl_input *in, const char *path, uint64_t stdin_limit,
			   char *err, size_t errlen)
{
	return tl_input_open_threads(in, path, stdin_limit, 0, err, errlen);
}

bool tl_input_open_threads(struct tl_input *in, const char *path, uint64_t stdin_limit, unsigned threads,
			   char *err, size_t errlen)
{
	memset(in, 0, sizeof *in);
	in->name = path;
	in->threads = threads;
	int fd;
	if (strcmp(path, "-") == 0) {
		fd = spool_stdin(stdin_limit ? stdin_limit : UINT64_MAX, err, errlen);
		if (fd < 0)
			return refuse(in, -1, errno);
	} else {
		/* O_NONBLOCK: opening a FIFO without a writer must not hang; the
		 * type is checked right after. */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			int e = errno;
			set_err(err, errlen, "cannot open", path, e);
			return refuse(in, -1, e);
		}
	}
	return tl_input_from_fd(in, fd, path, err, errlen);
}

bool tl_input_from_fd(struct tl_input *in, int fd, const char *path, char *err, size_t errlen)
{
	in->name = path;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		set_err(err, errlen, "cannot stat", path, e);
		return refuse(in, fd, e);
	}
	if (S_ISDIR(st.st_mode)) {
		in->is_directory = true;
		close(fd);
		return true;
	}
	if (!S_ISREG(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read %s: it is %s", path, kind_of(st.st_mode));
		return refuse(in, fd, EINVAL);
	}
	/* Regular files ignore O_NONBLOCK; cleared all the same for clarity. */
	(void)fcntl(fd, F_SETFL, 0);
	if ((uintmax_t)st.st_size > SIZE_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "cannot map %s: file too large for this machine", path);
		return refuse(in, fd, EFBIG);
	}
	bool ok = map_fd(in, fd, (size_t)st.st_size);
	int e = errno;
	if (!ok) {
		set_err(err, errlen, "cannot map", path, e);
		return refuse(in, fd, e);
	}
	enum tl_compression kind = tl_compression_sniff(in->data, in->size);
	if (kind != TL_COMPRESSION_NONE) {
		fd = replace_with_decompressed(in, fd, kind, path, err, errlen);
		if (fd < 0 && in->defect.fault) {
			in->compression = (uint8_t)kind;
			return refuse(in, -1, EBADMSG);
		}
		if (fd < 0)
			return refuse(in, -1, EINVAL);
	}
	/* Kept open for windowed reading (window.h). */
	in->fd = fd;
	in->has_fd = true;
	return true;
}

bool tl_input_changed(const struct tl_input *in)
{
	if (tl_guard_tripped(in->guard))
		return true;
	/* A file cut inside its last mapped page reads as zeros without a
	 * fault: its size tells. */
	struct stat st;
	return in->has_fd && fstat(in->fd, &st) == 0 && (uintmax_t)st.st_size < in->size;
}

bool tl_input_changed_fast(const struct tl_input *in)
{
	return tl_guard_tripped(in->guard);
}

void tl_input_mark_changed(const struct tl_input *in)
{
	tl_guard_mark(in->guard);
}

void tl_input_mark_failed(const struct tl_input *in, int error)
{
	tl_guard_mark_error(in->guard, error);
}

const char *tl_input_change_reason(const struct tl_input *in)
{
	int error = tl_guard_error(in->guard);
	return error ? strerror(error) : "it changed (shrank) while being read";
}

size_t tl_input_read_at(const struct tl_input *in, uint64_t off, void *buf, size_t n)
{
	if (off >= in->size)
		return 0;
	if (n > in->size - off)
		n = (size_t)(in->size - off);
	if (in->data) {
		memcpy(buf, in->data + off, n);
		return n;
	}
	if (!in->has_fd)
		return 0;
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(in->fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			tl_input_mark_failed(in, errno);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
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
	if (end <= in->released || end - in->released < TL_INPUT_RELEASE_STEP)
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

/* The same for an input with only a descriptor: read in steps of a bounded
 * buffer (large, as each read may cost a system call or a browser call). */
static uint64_t scan_read_zeros(const struct tl_input *in, uint64_t from, uint64_t to)
{
	uint8_t small[512];
	size_t cap = (size_t)1 << 20;
	uint8_t *buf = malloc(cap);
	if (!buf) {
		buf = small;
		cap = sizeof small;
	}
	uint64_t found = to;
	while (from < to) {
		size_t want = to - from < cap ? (size_t)(to - from) : cap;
		size_t got = tl_input_read_at(in, from, buf, want);
		size_t i = 0;
		while (i < got && !buf[i])
			i++;
		if (i < got) {
			found = from + i;
			break;
		}
		if (got < want)
			break; /* shrunk or failed: tl_input_changed says so */
		from += got;
	}
	if (buf != small)
		free(buf);
	return found;
}

/* Scans mapped bytes [from, to) for a non-zero byte, releasing the pages
 * behind it so a long run of zeros does not pile up in memory. */
static uint64_t scan_zeros(const struct tl_input *in, uint64_t from, uint64_t to)
{
	const uint64_t step = (uint64_t)1 << 20;
	if (!in->data)
		return scan_read_zeros(in, from, to);
	while (from < to) {
		uint64_t end = to - from > step ? from + step : to;
		const uint8_t *p = in->data + from;
		for (uint64_t i = 0; i < end - from; i++)
			if (p[i])
				return from + i;
		from = end;
		tl_input_release(in, from);
	}
	return to;
}

uint64_t tl_input_first_nonzero(const struct tl_input *in, uint64_t from)
{
	uint64_t size = in->size;
	if (!in->has_fd || in->compression != 0)
		return scan_zeros(in, from, size);
	/* Holes of a sparse file are zeros by definition: skip them unread, so
	 * a file padded with `truncate -s` costs time for its data only. */
	while (from < size) {
		off_t data = lseek(in->fd, (off_t)from, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? size : scan_zeros(in, from, size);
		if ((uint64_t)data >= size)
			return size;
		off_t hole = lseek(in->fd, data, SEEK_HOLE);
		uint64_t end = hole < 0 || (uint64_t)hole > size ? size : (uint64_t)hole;
		uint64_t at = scan_zeros(in, (uint64_t)data, end);
		if (at < end)
			return at;
		from = end;
	}
	return size;
}

void tl_input_close(struct tl_input *in)
{
	tl_guard_remove(in->guard);
	if (in->map)
		munmap(in->map, in->map_size);
	if (in->has_fd)
		close(in->fd);
	memset(in, 0, sizeof *in);
}
