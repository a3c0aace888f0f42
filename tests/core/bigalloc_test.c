/* bigalloc.h: the large-array allocators behave as malloc, calloc and
 * realloc (zeroed, contents kept), and a large array is
 * marked for huge pages: its mapping carries the "hg" flag in
 * /proc/self/smaps (the mark, not whether the kernel found a free huge
 * page, which depends on the machine). */
#include <atf-c.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigalloc.h"

#define MIB ((size_t)1 << 20)

/* The VmFlags of the mapping holding addr, or "" when not found. */
static void flags_of(const void *addr, char *out, size_t outlen)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool inside = false;
	out[0] = 0;
	ATF_REQUIRE(f != NULL);
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') == line + strspn(line, "0123456789abcdef"))
			inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(out, outlen, "%s", line + 8);
			break;
		}
	}
	fclose(f);
}

static bool thp_available(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";
	if (!f)
		return false;
	bool ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
	fclose(f);
	return ok;
}

ATF_TC_WITHOUT_HEAD(behaves_like_libc);
ATF_TC_BODY(behaves_like_libc, tc)
{
	uint32_t *z = tl_big_calloc(5 * MIB, sizeof *z);
	ATF_REQUIRE(z != NULL);
	for (size_t i = 0; i < 5 * MIB; i += 4093)
		ATF_REQUIRE_EQ(z[i], 0u);
	for (size_t i = 0; i < 5 * MIB; i++)
		z[i] = (uint32_t)i;
	z = tl_big_realloc(z, 9 * MIB * sizeof *z);
	ATF_REQUIRE(z != NULL);
	for (size_t i = 0; i < 5 * MIB; i += 4093)
		ATF_REQUIRE_EQ(z[i], (uint32_t)i);
	free(z);
	char *small = tl_big_malloc(16);
	ATF_REQUIRE(small != NULL);
	memcpy(small, "fifteen chars..", 16);
	free(small);
}

ATF_TC_WITHOUT_HEAD(large_arrays_marked_for_huge_pages);
ATF_TC_BODY(large_arrays_marked_for_huge_pages, tc)
{
	if (!thp_available())
		atf_tc_skip("transparent huge pages are off on this machine");
	char flags[256];
	char *big = tl_big_malloc(16 * MIB);
	ATF_REQUIRE(big != NULL);
	flags_of(big + 8 * MIB, flags, sizeof flags);
	ATF_REQUIRE_MSG(strstr(flags, " hg") != NULL, "VmFlags of a 16 MiB array: %s", flags);
	free(big);
	char *mid = tl_big_calloc(1, 512 * 1024); /* too small to be worth a huge page */
	ATF_REQUIRE(mid != NULL);
	flags_of(mid, flags, sizeof flags);
	ATF_REQUIRE_MSG(strstr(flags, " hg") == NULL, "VmFlags of a 512 KiB array: %s", flags);
	free(mid);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, behaves_like_libc);
	ATF_TP_ADD_TC(tp, large_arrays_marked_for_huge_pages);
	return atf_no_error();
}
