/* AFL++ persistent-mode driver for the LLVMFuzzerTestOneInput targets:
 * test cases arrive in shared memory (__AFL_FUZZ_TESTCASE_BUF) and one
 * process runs many of them (__AFL_LOOP). Outside afl-fuzz it reads standard
 * input, or the files named on the command line (afl-tmin, triage). Built
 * only by afl-clang-fast, which defines the __AFL_ macros. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

__AFL_FUZZ_INIT();

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, len = 0, n;
	uint8_t *buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap * 2);
			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return 1;
	/* An exact-size copy, so ASan sees any read past the input. */
	uint8_t *exact = malloc(len ? len : 1);
	if (exact) {
		memcpy(exact, buf, len);
		LLVMFuzzerTestOneInput(exact, len);
	}
	free(exact);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		int rc = 0;
		for (int i = 1; i < argc; i++)
			rc |= run_file(argv[i]);
		return rc;
	}
	__AFL_INIT();
	unsigned char *shared = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(10000)) {
		size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
		/* Copy out of shared memory so ASan bounds the input exactly. */
		uint8_t *copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, shared, len);
		LLVMFuzzerTestOneInput(copy, len);
		free(copy);
	}
	return 0;
}
