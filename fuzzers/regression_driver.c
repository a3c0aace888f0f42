/* Runs a fuzz target over files and directories (recursively), without
 * libFuzzer, so every target is exercised by `make check` with gcc too.
 * A crash or sanitizer report fails the run; the file being run is printed
 * first so the culprit is named. REGRESSION_RSS_LIMIT_MB fails an input after
 * which the process's peak resident size is over that many MiB, as
 * libFuzzer's -rss_limit_mb does. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long runs;
static long rss_limit_kib; /* 0: none */

/* The peak resident size so far is within the limit, or path is named. */
static int check_rss(const char *path, size_t len)
{
	struct rusage ru;
	if (!rss_limit_kib || getrusage(RUSAGE_SELF, &ru) != 0 || ru.ru_maxrss <= rss_limit_kib)
		return 0;
	fprintf(stderr, "%s (%zu bytes): peak resident size %ld KiB, over the limit of %ld KiB\n", path,
		len, ru.ru_maxrss, rss_limit_kib);
	return 1;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
			}
			buf = bigger;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return 1;
	}
	if (getenv("REGRESSION_VERBOSE"))
		fprintf(stderr, "running %s (%zu bytes)\n", path, len);
	/* An exact-size copy, so ASan catches any read past the input. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	runs++;
	return check_rss(path, len);
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	DIR *d = opendir(path);
	if (!d) {
		perror(path);
		return 1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char child[4096];
		if ((size_t)snprintf(child, sizeof child, "%s/%s", path, e->d_name) >= sizeof child)
			continue;
		rc |= run_path(child);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	const char *limit = getenv("REGRESSION_RSS_LIMIT_MB");
	rss_limit_kib = limit ? atol(limit) * 1024 : 0;
	int rc = 0;
	for (int i = 1; i < argc; i++)
		rc |= run_path(argv[i]);
	printf("%lu inputs run\n", runs);
	return rc;
}
