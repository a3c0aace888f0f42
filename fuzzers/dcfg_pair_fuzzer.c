/* Fuzz target for DCFG <-> DCFG-trace pairing. The input is a DCFG, the
 * separator line "\n%%TRACE%%\n", then a DCFG-trace; without the separator
 * the whole input is used as both. The DCFG part goes to a private
 * temporary file because --pair names a path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_invariants.h"

static const char separator[] = "\n%%TRACE%%\n";

static size_t find_separator(const uint8_t *data, size_t size)
{
	size_t n = sizeof separator - 1;
	for (size_t i = 0; i + n <= size; i++)
		if (!memcmp(data + i, separator, n))
			return i;
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cut = find_separator(data, size);
	const uint8_t *trace = data;
	size_t trace_size = size;
	if (cut < size) {
		trace = data + cut + sizeof separator - 1;
		trace_size = size - cut - (sizeof separator - 1);
	}
	char path[64];
	snprintf(path, sizeof path, "/tmp/dcfg_pair_fuzz.%ld.json", (long)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	if (cut && fwrite(data, 1, cut, f) != cut) {
		fclose(f);
		remove(path);
		return 0;
	}
	fclose(f);
	/* Diagnostics may point into either part: bound them by the whole input,
	 * and allow every family the DCFG and the trace can report. */
	struct fuzz_expect expect = { NULL, NULL, true, size, 0 };
	fuzz_validate(trace, trace_size, TL_FORMAT_DCFG_TRACE, TL_ENDIAN_AUTO, path, &expect);
	remove(path);
	return 0;
}
