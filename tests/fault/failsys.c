/* An LD_PRELOAD library for the system-call failure sweep (failsys_test.sh):
 * with TL_FAIL_SYS=NAME:N:ERRNO the Nth call of NAME (open, fopen, fstat,
 * mmap, pread, read, write, fsync, close, rename, mkstemp, ftruncate, lseek)
 * fails with errno ERRNO (a number); with TL_FAIL_SYS_COUNT=FILE the calls
 * of each function are written to FILE, "NAME COUNT" a line, so the test
 * knows how far to sweep. As in failalloc.c, only calls made while main runs
 * count (main is wrapped through __libc_start_main): neither the runtime's
 * start-up nor the coverage counters written at exit. stdio's own reads and
 * writes do not go through these symbols; fopen does, and is listed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum { F_OPEN, F_FOPEN, F_FSTAT, F_MMAP, F_PREAD, F_READ, F_WRITE, F_FSYNC, F_CLOSE, F_RENAME,
       F_MKSTEMP, F_FTRUNCATE, F_LSEEK, F_COUNT };
static const char *const names[F_COUNT] = { "open", "fopen", "fstat", "mmap", "pread", "read", "write",
					    "fsync", "close", "rename", "mkstemp", "ftruncate", "lseek" };

static atomic_long calls[F_COUNT];
static int fail_fn = -1;
static long fail_at;
static int fail_errno = EIO;
static atomic_int armed;
static const char *count_path;

/* The next definition of NAME (libc's, or a sanitizer runtime's). */
static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* True when this call of function FN is the one to fail; errno is set. */
static int fails(int fn)
{
	if (!atomic_load(&armed))
		return 0;
	long n = atomic_fetch_add(&calls[fn], 1) + 1;
	if (fn != fail_fn || n != fail_at)
		return 0;
	errno = fail_errno;
	return 1;
}

static void disarm(void)
{
	if (!atomic_exchange(&armed, 0) || !count_path)
		return;
	FILE *(*real_fopen)(const char *, const char *) = next("fopen");
	FILE *f = real_fopen(count_path, "w");
	if (!f)
		return;
	for (int i = 0; i < F_COUNT; i++)
		fprintf(f, "%s %ld\n", names[i], (long)atomic_load(&calls[i]));
	fclose(f);
}

/* TL_FAIL_SYS=NAME:N:ERRNO */
static void parse_spec(const char *s)
{
	if (!s)
		return;
	const char *colon = strchr(s, ':');
	if (!colon)
		return;
	for (int i = 0; i < F_COUNT; i++)
		if (strlen(names[i]) == (size_t)(colon - s) && strncmp(s, names[i], (size_t)(colon - s)) == 0)
			fail_fn = i;
	char *end;
	fail_at = strtol(colon + 1, &end, 10);
	if (*end == ':')
		fail_errno = atoi(end + 1);
}

typedef int main_fn(int, char **, char **);
static main_fn *real_main;

static int counted_main(int argc, char **argv, char **envp)
{
	parse_spec(getenv("TL_FAIL_SYS"));
	count_path = getenv("TL_FAIL_SYS_COUNT");
	/* Registered after the coverage runtime's handler, so it runs first. */
	atexit(disarm);
	atomic_store(&armed, 1);
	int rc = real_main(argc, argv, envp);
	disarm();
	return rc;
}

int __libc_start_main(main_fn *main, int argc, char **argv, void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	int (*start)(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void), void *) =
		(int (*)(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void), void *))
			next("__libc_start_main");
	real_main = main;
	return start(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

static int open_impl(const char *sym, const char *path, int flags, va_list ap)
{
	mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
	if (fails(F_OPEN))
		return -1;
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))next(sym);
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_impl("open", path, flags, ap);
	va_end(ap);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_impl("open64", path, flags, ap);
	va_end(ap);
	return fd;
}

FILE *fopen(const char *path, const char *mode)
{
	if (fails(F_FOPEN))
		return NULL;
	FILE *(*real)(const char *, const char *) = next("fopen");
	return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

int fstat(int fd, struct stat *st)
{
	if (fails(F_FSTAT))
		return -1;
	int (*real)(int, struct stat *) = next("fstat");
	return real(fd, st);
}

int fstat64(int fd, struct stat64 *st)
{
	if (fails(F_FSTAT))
		return -1;
	int (*real)(int, struct stat64 *) = next("fstat64");
	return real(fd, st);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	/* Anonymous mappings are the allocator's business, not file reading. */
	if (fd >= 0 && !(flags & MAP_ANONYMOUS) && fails(F_MMAP))
		return MAP_FAILED;
	void *(*real)(void *, size_t, int, int, int, off_t) = next("mmap");
	return real(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (fails(F_PREAD))
		return -1;
	ssize_t (*real)(int, void *, size_t, off_t) = next("pread");
	return real(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	if (fails(F_READ))
		return -1;
	ssize_t (*real)(int, void *, size_t) = next("read");
	return real(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (fails(F_WRITE))
		return -1;
	ssize_t (*real)(int, const void *, size_t) = next("write");
	return real(fd, buf, n);
}

int fsync(int fd)
{
	if (fails(F_FSYNC))
		return -1;
	int (*real)(int) = next("fsync");
	return real(fd);
}

int close(int fd)
{
	/* The descriptor is released all the same, as Linux does on EINTR/EIO. */
	int (*real)(int) = next("close");
	int rc = real(fd);
	int e = errno;
	if (fails(F_CLOSE))
		return -1;
	errno = e;
	return rc;
}

int rename(const char *from, const char *to)
{
	if (fails(F_RENAME))
		return -1;
	int (*real)(const char *, const char *) = next("rename");
	return real(from, to);
}

int mkstemp(char *tmpl)
{
	if (fails(F_MKSTEMP))
		return -1;
	int (*real)(char *) = next("mkstemp");
	return real(tmpl);
}

int mkstemp64(char *tmpl)
{
	return mkstemp(tmpl);
}

int ftruncate(int fd, off_t len)
{
	if (fails(F_FTRUNCATE))
		return -1;
	int (*real)(int, off_t) = next("ftruncate");
	return real(fd, len);
}

int ftruncate64(int fd, off_t len)
{
	return ftruncate(fd, len);
}

off_t lseek(int fd, off_t off, int whence)
{
	if (fails(F_LSEEK))
		return -1;
	off_t (*real)(int, off_t, int) = next("lseek");
	return real(fd, off, whence);
}

off_t lseek64(int fd, off_t off, int whence)
{
	return lseek(fd, off, whence);
}
