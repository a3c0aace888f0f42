/* Fuzz target for UMTracer trace directories.
 *
 * Container layout (one fuzzer input = one trace directory):
 *   repeated: u8 member index (taken modulo 11, order of the list below),
 *             u32 little-endian length, then that many bytes of the member;
 *   a length running past the end takes what is left. Members not present
 *   are absent from the directory; a later copy of a member replaces it.
 *   Members: exec.vtable exec.offsets exec.prev_next.column ins.itable
 *   syscall.vtable syscall.offsets module.itable thread.itable
 *   context_map.itable address_space.itable trace.xml.
 * Any bytes are a valid input: plain corpus files exercise the parser too,
 * and are also validated as a single table with the format forced. */
#include "fuzz_invariants.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[11] = {
	"exec.vtable",    "exec.offsets",   "exec.prev_next.column", "ins.itable",
	"syscall.vtable", "syscall.offsets", "module.itable",        "thread.itable",
	"context_map.itable", "address_space.itable", "trace.xml",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tl_member members[11];
	size_t count = 0, pos = 0;
	while (pos + 5 <= size) {
		const char *name = names[data[pos] % 11];
		uint32_t len = (uint32_t)data[pos + 1] | (uint32_t)data[pos + 2] << 8 |
			       (uint32_t)data[pos + 3] << 16 | (uint32_t)data[pos + 4] << 24;
		pos += 5;
		size_t n = len < size - pos ? len : size - pos;
		size_t k = 0;
		while (k < count && strcmp(members[k].name, name) != 0)
			k++;
		members[k] = (struct tl_member){ name, data + pos, n };
		if (k == count)
			count++;
		pos += n;
	}
	struct tl_options opts;
	struct tl_result result;
	char err[256] = "";
	struct fuzz_expect expect = { "UMT-", NULL, false, size, 0 };
	tl_options_init(&opts);
	opts.format = TL_FORMAT_UMTRACE;
	opts.max_errors = 0;
	fuzz_begin(&opts, &expect, size);
	enum tl_status st = tl_validate_members(members, count, "fuzz", &opts, &result, err, sizeof err);
	fuzz_check_result(&opts, &expect, st, &result, err);
	fuzz_begin(&opts, &expect, size);
	st = tl_validate_buffer(data, size, "fuzz.itable", &opts, &result, err, sizeof err);
	fuzz_check_result(&opts, &expect, st, &result, err);
	return 0;
}
