/* The structure-aware mutators of validators/mutate/: outputs stay within
 * max_size and never write past it, the same input and seed give the same
 * output, the synthesized starting traces are well formed, and most outputs
 * keep their framing (which byte-level mutation does not). */
#include <atf-c.h>

#include <stdlib.h>
#include <string.h>

#include "tracelint.h"
#include "validators/mutate/mutator.h"

typedef size_t (*mutate_fn)(uint8_t *, size_t, size_t, uint64_t, const struct tlm_bytes *);

enum { CAP = 8192, GUARD = 64 };

/* Starts from whatever the mutator synthesizes out of an empty input. */
static size_t seed_input(mutate_fn m, uint8_t *buf, size_t max)
{
	return m(buf, 0, max, 1, NULL);
}

static void check_bounds(mutate_fn m, size_t extra)
{
	static uint8_t buf[CAP + GUARD];
	uint8_t start[CAP];
	size_t n0 = seed_input(m, start, CAP);
	ATF_REQUIRE(n0 > 0);
	for (uint64_t seed = 0; seed < 3000; seed++) {
		size_t max = n0 + extra;
		memset(buf, 0xa5, sizeof buf);
		memcpy(buf, start, n0);
		size_t n = m(buf, n0, max, seed, NULL);
		ATF_REQUIRE_MSG(n <= max, "seed %llu: %zu bytes for max_size %zu",
				(unsigned long long)seed, n, max);
		for (size_t i = max; i < sizeof buf; i++)
			ATF_REQUIRE_MSG(buf[i] == 0xa5, "seed %llu wrote past max_size at %zu",
					(unsigned long long)seed, i);
	}
}

static void check_deterministic(mutate_fn m)
{
	uint8_t start[CAP], a[CAP], b[CAP];
	size_t n0 = seed_input(m, start, CAP);
	size_t differ = 0;
	for (uint64_t seed = 0; seed < 500; seed++) {
		memcpy(a, start, n0);
		memcpy(b, start, n0);
		size_t na = m(a, n0, CAP, seed, NULL), nb = m(b, n0, CAP, seed, NULL);
		ATF_REQUIRE_EQ(na, nb);
		ATF_REQUIRE(memcmp(a, b, na) == 0);
		differ += na != n0 || memcmp(a, start, na) != 0;
	}
	/* A mutator that returns its input unchanged would pass the rest. */
	ATF_REQUIRE_MSG(differ > 450, "only %zu of 500 seeds changed the input", differ);
}

static unsigned xray_errors(const uint8_t *data, size_t size)
{
	struct tl_options opts;
	tl_options_init(&opts);
	opts.format = TL_FORMAT_XRAY;
	struct tl_result r;
	char err[128];
	ATF_REQUIRE_EQ(tl_validate_buffer(data, size, "m.xray", &opts, &r, err, sizeof err), TL_OK);
	return (unsigned)r.errors;
}

/* Frames of a little-endian tfile chain exactly from the text to the end marker. */
static bool tfile_framed(const uint8_t *d, size_t n)
{
	if (n < 8 || memcmp(d, "\x7fTRACE0\n", 8) != 0)
		return false;
	size_t off = 8;
	while (off < n && d[off] != '\n') {
		const uint8_t *nl = memchr(d + off, '\n', n - off);
		if (!nl)
			return false;
		off = (size_t)(nl - d) + 1;
	}
	off++; /* the empty line that ends the text */
	while (off + 2 <= n) {
		if (tlm_get(d + off, 2, false) == 0)
			return true;
		if (off + 6 > n)
			return false;
		uint64_t body = tlm_get(d + off + 2, 4, false);
		if (body > n - off - 6)
			return false;
		off += 6 + (size_t)body;
	}
	return false;
}

ATF_TC_WITHOUT_HEAD(xray_within_max_size);
ATF_TC_BODY(xray_within_max_size, tc)
{
	check_bounds(tlm_xray_mutate, 0);
	check_bounds(tlm_xray_mutate, 40);
}

ATF_TC_WITHOUT_HEAD(tfile_within_max_size);
ATF_TC_BODY(tfile_within_max_size, tc)
{
	check_bounds(tlm_tfile_mutate, 0);
	check_bounds(tlm_tfile_mutate, 40);
}

ATF_TC_WITHOUT_HEAD(umtrace_within_max_size);
ATF_TC_BODY(umtrace_within_max_size, tc)
{
	static uint8_t buf[256 + GUARD];
	for (uint64_t seed = 0; seed < 3000; seed++) {
		memset(buf, 0xa5, sizeof buf);
		/* A table header: version 0, 2 rows of 16 bytes at offset 32. */
		memset(buf, 0, 64);
		buf[8] = 2, buf[16] = 16, buf[24] = 32;
		size_t n = tlm_umtrace_mutate(buf, 64, 64 + seed % 9, seed, NULL);
		ATF_REQUIRE(n <= 64 + seed % 9);
		for (size_t i = 64 + seed % 9; i < sizeof buf; i++)
			ATF_REQUIRE(buf[i] == 0xa5);
	}
}

ATF_TC_WITHOUT_HEAD(deterministic_for_a_seed);
ATF_TC_BODY(deterministic_for_a_seed, tc)
{
	check_deterministic(tlm_xray_mutate);
	check_deterministic(tlm_tfile_mutate);
}

ATF_TC_WITHOUT_HEAD(xray_synthesized_trace_is_valid);
ATF_TC_BODY(xray_synthesized_trace_is_valid, tc)
{
	uint8_t buf[CAP];
	size_t n = seed_input(tlm_xray_mutate, buf, CAP);
	ATF_REQUIRE_EQ(xray_errors(buf, n), 0);
}

/* Starting from a valid trace, a large share of single mutations keeps the
 * trace free of errors or frames it well enough to reach the later rules;
 * the validator runs over every output without a crash either way. */
ATF_TC_WITHOUT_HEAD(xray_outputs_stay_parseable);
ATF_TC_BODY(xray_outputs_stay_parseable, tc)
{
	uint8_t start[CAP], buf[CAP];
	size_t n0 = seed_input(tlm_xray_mutate, start, CAP), clean = 0;
	for (uint64_t seed = 0; seed < 400; seed++) {
		memcpy(buf, start, n0);
		size_t n = tlm_xray_mutate(buf, n0, CAP, seed, NULL);
		ATF_REQUIRE(n >= 32);
		clean += xray_errors(buf, n) == 0;
	}
	ATF_REQUIRE_MSG(clean >= 40, "only %zu of 400 outputs without error", clean);
}

ATF_TC_WITHOUT_HEAD(tfile_outputs_keep_frames);
ATF_TC_BODY(tfile_outputs_keep_frames, tc)
{
	uint8_t start[CAP], buf[CAP];
	size_t n0 = seed_input(tlm_tfile_mutate, start, CAP), framed = 0;
	ATF_REQUIRE(tfile_framed(start, n0));
	for (uint64_t seed = 0; seed < 400; seed++) {
		memcpy(buf, start, n0);
		size_t n = tlm_tfile_mutate(buf, n0, CAP, seed, NULL);
		framed += tfile_framed(buf, n);
	}
	ATF_REQUIRE_MSG(framed >= 200, "only %zu of 400 outputs keep their frames", framed);
}

/* Byte-level edits write only inside min(size + 64, max_size), change the
 * input for most generator states, and replay from the same stream. */
ATF_TC_WITHOUT_HEAD(bytes_edit_bounded_and_replayable);
ATF_TC_BODY(bytes_edit_bounded_and_replayable, tc)
{
	uint8_t start[256], a[256 + 64 + GUARD], b[256 + 64 + GUARD];
	for (size_t i = 0; i < sizeof start; i++)
		start[i] = (uint8_t)(i * 7);
	size_t changed = 0;
	for (uint64_t stream = 0; stream < 2000; stream++) {
		size_t n0 = (size_t)(stream % 200), max = n0 + (stream % 3 == 0 ? 0 : 64);
		struct tlm_rng r1, r2;
		tlm_rng_stream(&r1, 99, stream);
		tlm_rng_stream(&r2, 99, stream);
		memset(a, 0xa5, sizeof a);
		memset(b, 0xa5, sizeof b);
		memcpy(a, start, n0);
		memcpy(b, start, n0);
		size_t na = tlm_bytes_edit(&r1, a, n0, max), nb = tlm_bytes_edit(&r2, b, n0, max);
		ATF_REQUIRE_MSG(na <= max, "stream %llu: %zu bytes for max_size %zu", (unsigned long long)stream, na, max);
		ATF_REQUIRE_EQ(na, nb);
		ATF_REQUIRE(memcmp(a, b, sizeof a) == 0);
		for (size_t i = max; i < sizeof a; i++)
			ATF_REQUIRE_MSG(a[i] == 0xa5, "stream %llu wrote past max_size at %zu", (unsigned long long)stream, i);
		changed += na != n0 || memcmp(a, start, na) != 0;
	}
	ATF_REQUIRE_MSG(changed > 1500, "only %zu of 2000 edits changed the input", changed);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, bytes_edit_bounded_and_replayable);
	ATF_TP_ADD_TC(tp, xray_within_max_size);
	ATF_TP_ADD_TC(tp, tfile_within_max_size);
	ATF_TP_ADD_TC(tp, umtrace_within_max_size);
	ATF_TP_ADD_TC(tp, deterministic_for_a_seed);
	ATF_TP_ADD_TC(tp, xray_synthesized_trace_is_valid);
	ATF_TP_ADD_TC(tp, xray_outputs_stay_parseable);
	ATF_TP_ADD_TC(tp, tfile_outputs_keep_frames);
	return 0;
}
