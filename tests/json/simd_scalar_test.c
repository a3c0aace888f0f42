/* The SSE2 scans and the portable ones they replace give the same answer:
 * the JSON lexer's run of plain string bytes and the DCFG-trace sequence
 * parser's run of modified-Base64 characters, for every byte value at every
 * position of runs around the 16-byte step, and on random text. (Without
 * SSE2 both names are the portable scan and the test still holds.) */
#include <atf-c.h>
#include <stdint.h>
#include <string.h>

#include "validators/json/json_lex.h"
#include "validators/dcfg/trace_seq.h"

static uint32_t plain_len(const uint8_t *t, uint32_t n, bool simd)
{
	const uint8_t *end = simd ? jlex_plain_end(t, t + n) : jlex_plain_end_scalar(t, t + n);
	return (uint32_t)(end - t);
}

/* Runs of a plain byte with one byte value b at position k: both scans stop
 * at k exactly when b is not plain. */
ATF_TC_WITHOUT_HEAD(plain_every_byte_every_position);
ATF_TC_BODY(plain_every_byte_every_position, tc)
{
	uint8_t buf[80];
	uint32_t stops = 0;
	for (uint32_t n = 1; n <= 70; n++)
		for (uint32_t k = 0; k < n; k++)
			for (uint32_t b = 0; b < 256; b++) {
				memset(buf, 'x', sizeof buf);
				buf[k] = (uint8_t)b;
				uint32_t scalar = plain_len(buf, n, false), simd = plain_len(buf, n, true);
				if (scalar != simd)
					ATF_CHECK_MSG(false, "length %u, byte %#x at %u: scalar %u, simd %u", n, b, k, scalar, simd);
				bool plain = b >= 0x20 && b < 0x80 && b != '"' && b != '\\';
				ATF_CHECK_EQ(scalar, plain ? n : k);
				stops += !plain;
			}
	/* 0x00-0x1f, '"', '\\', 0x80-0xff: 162 values stop a run */
	ATF_CHECK_EQ(stops, 162u * (70u * 71u / 2u));
}

static uint32_t literal_len(const uint8_t *t, uint32_t n, bool simd)
{
	return simd ? tl_dcfg_literal_end(t, 0, n) : tl_dcfg_literal_end_scalar(t, 0, n);
}

ATF_TC_WITHOUT_HEAD(base64_every_byte_every_position);
ATF_TC_BODY(base64_every_byte_every_position, tc)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
	uint8_t buf[80];
	uint32_t in_alphabet = 0;
	for (uint32_t n = 1; n <= 70; n++)
		for (uint32_t k = 0; k < n; k++)
			for (uint32_t b = 0; b < 256; b++) {
				for (uint32_t i = 0; i < sizeof buf; i++)
					buf[i] = (uint8_t)alphabet[(i * 7 + n) % 64];
				buf[k] = (uint8_t)b;
				uint32_t scalar = literal_len(buf, n, false), simd = literal_len(buf, n, true);
				if (scalar != simd)
					ATF_CHECK_MSG(false, "length %u, byte %#x at %u: scalar %u, simd %u", n, b, k, scalar, simd);
				bool b64 = b && strchr(alphabet, (int)b) != NULL;
				ATF_CHECK_EQ(scalar, b64 ? n : k);
				in_alphabet += b64 && k == 0 && n == 1;
			}
	ATF_CHECK_EQ(in_alphabet, 64);
}

/* Random text over a mix of plain, stopping and alphabet bytes, scanned
 * from every offset. */
ATF_TC_WITHOUT_HEAD(random_text);
ATF_TC_BODY(random_text, tc)
{
	uint64_t x = 0x853c49e6748fea9bull;
	uint8_t buf[4096];
	for (uint32_t round = 0; round < 64; round++) {
		for (size_t i = 0; i < sizeof buf; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly runs that pass, now and then a byte that stops them */
			buf[i] = (x & 0x3f) == 0 ? (uint8_t)(x >> 8) : (uint8_t)"AZaz09+-xQ~ "[(x >> 8) % 12];
		}
		for (uint32_t at = 0; at < 600; at++) {
			uint32_t n = (uint32_t)sizeof buf - at;
			ATF_REQUIRE_EQ(plain_len(buf + at, n, false), plain_len(buf + at, n, true));
			ATF_REQUIRE_EQ(literal_len(buf + at, n, false), literal_len(buf + at, n, true));
		}
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, plain_every_byte_every_position);
	ATF_TP_ADD_TC(tp, base64_every_byte_every_position);
	ATF_TP_ADD_TC(tp, random_text);
	return atf_no_error();
}
