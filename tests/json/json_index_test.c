/* The structural index against a byte-at-a-time reference, on every path
 * the CPU runs: random texts over an alphabet rich in quotes, backslashes,
 * structurals, control and non-ASCII bytes, strings spanning blocks, and
 * tails shorter than a block. */
#include <atf-c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "validators/json/json_index.h"

struct ref {
	uint64_t quote, string, scalar, tokens, ws, nl, ctrl, high, digit;
};

static bool is_op(uint8_t b) { return b && strchr("[]{},:", b); }
static bool is_ws(uint8_t b) { return b == ' ' || b == '\t' || b == '\r' || b == '\n'; }

/* The reference over the whole text: a byte is escaped when an odd run of
 * backslashes stands just before it; unescaped quotes toggle the string. */
static void reference(const uint8_t *t, size_t n, struct ref *r)
{
	size_t run = 0;
	bool in = false, prev_scalar = false;
	for (size_t i = 0; i < n; i++) {
		struct ref *b = &r[i / 64];
		uint64_t bit = (uint64_t)1 << (i % 64);
		uint8_t c = t[i];
		bool escaped = run % 2 == 1;
		run = c == '\\' ? run + 1 : 0;
		bool quote = c == '"' && !escaped;
		if (quote) {
			b->quote |= bit;
			in = !in;
		}
		bool str = in; /* the opening quote is in, the closing one out */
		if (str)
			b->string |= bit;
		bool scalar = !str && c != '"' && !is_op(c) && !is_ws(c);
		if (scalar)
			b->scalar |= bit;
		if ((!str && is_op(c)) || (quote && str) || (scalar && !prev_scalar))
			b->tokens |= bit;
		prev_scalar = scalar;
		if (is_ws(c))
			b->ws |= bit;
		if (c == '\n')
			b->nl |= bit;
		if (c < 0x20)
			b->ctrl |= bit;
		if (c >= 0x80)
			b->high |= bit;
		if (c >= '0' && c <= '9')
			b->digit |= bit;
	}
	/* the padding of the last block: blanks */
	for (size_t i = n; i % 64; i++)
		r[i / 64].ws |= (uint64_t)1 << (i % 64);
}

static void check_text(const uint8_t *t, size_t n, enum tl_json_simd path)
{
	size_t nb = (n + 63) / 64;
	struct ref *r = calloc(nb + 1, sizeof *r);
	ATF_REQUIRE(r);
	reference(t, n, r);
	struct jindex x;
	tl_json_index_init(&x, path);
	for (size_t k = 0; k < nb; k++) {
		struct jblock b;
		tl_json_index_block(&x, t + 64 * k, n - 64 * k, &b);
		uint64_t valid = n - 64 * k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (n - 64 * k)) - 1;
		ATF_REQUIRE_EQ_MSG(b.quote, r[k].quote, "quote, block %zu, %s", k, tl_json_simd_name(path));
		ATF_REQUIRE_EQ_MSG(b.string & valid, r[k].string, "string, block %zu, %s", k, tl_json_simd_name(path));
		ATF_REQUIRE_EQ_MSG(b.scalar & valid, r[k].scalar, "scalar, block %zu, %s", k, tl_json_simd_name(path));
		ATF_REQUIRE_EQ_MSG(b.tokens & valid, r[k].tokens, "tokens, block %zu, %s", k, tl_json_simd_name(path));
		ATF_REQUIRE_EQ_MSG(b.c.ws, r[k].ws, "ws, block %zu", k);
		ATF_REQUIRE_EQ_MSG(b.c.nl, r[k].nl, "nl, block %zu", k);
		ATF_REQUIRE_EQ_MSG(b.c.ctrl, r[k].ctrl, "ctrl, block %zu", k);
		ATF_REQUIRE_EQ_MSG(b.c.high, r[k].high, "high, block %zu", k);
		ATF_REQUIRE_EQ_MSG(b.c.digit, r[k].digit, "digit, block %zu", k);
	}
	free(r);
}

static const enum tl_json_simd paths[] = { TL_JSON_SIMD_SCALAR, TL_JSON_SIMD_SSE2, TL_JSON_SIMD_AVX2 };

ATF_TC_WITHOUT_HEAD(random_texts);
ATF_TC_BODY(random_texts, tc)
{
	static const uint8_t alphabet[] = "\"\"\"\\\\\\\\[]{},: \n\t\r09a-e\x01\x1f\x7f\x80\xc3\xff";
	enum tl_json_simd best = tl_json_simd_choose();
	uint8_t t[700];
	srandom(20261125); /* deterministic: a failure can be replayed */
	for (int round = 0; round < 3000; round++) {
		size_t n = 1 + (uint64_t)random() % sizeof t;
		/* some texts are mostly backslashes: long runs across blocks */
		size_t skew = (uint64_t)random() % 4;
		for (size_t i = 0; i < n; i++)
			t[i] = skew == 0 && (uint64_t)random() % 2 ? '\\' : alphabet[(uint64_t)random() % (sizeof alphabet - 1)];
		for (size_t k = 0; k < sizeof paths / sizeof *paths && paths[k] <= best; k++)
			check_text(t, n, paths[k]);
	}
}

/* Runs of 1 to 130 backslashes before a quote, ending anywhere in a block. */
ATF_TC_WITHOUT_HEAD(backslash_runs);
ATF_TC_BODY(backslash_runs, tc)
{
	enum tl_json_simd best = tl_json_simd_choose();
	uint8_t t[300];
	for (size_t start = 0; start < 70; start++)
		for (size_t run = 1; run <= 130; run++) {
			size_t n = 0;
			memset(t, 'x', start);
			n = start;
			t[n++] = '"';
			memset(t + n, '\\', run);
			n += run;
			t[n++] = '"';
			t[n++] = ',';
			t[n++] = '"';
			for (size_t k = 0; k < sizeof paths / sizeof *paths && paths[k] <= best; k++)
				check_text(t, n, paths[k]);
		}
}

/* TRACELINT_SIMD forces a path, never one the CPU lacks. */
ATF_TC_WITHOUT_HEAD(forced_path);
ATF_TC_BODY(forced_path, tc)
{
	unsetenv("TRACELINT_SIMD");
	enum tl_json_simd best = tl_json_simd_choose();
	setenv("TRACELINT_SIMD", "scalar", 1);
	ATF_CHECK_EQ(tl_json_simd_choose(), TL_JSON_SIMD_SCALAR);
	setenv("TRACELINT_SIMD", "sse2", 1);
	ATF_CHECK_EQ(tl_json_simd_choose(), best < TL_JSON_SIMD_SSE2 ? best : TL_JSON_SIMD_SSE2);
	setenv("TRACELINT_SIMD", "avx2", 1);
	ATF_CHECK_EQ(tl_json_simd_choose(), best);
	ATF_CHECK_STREQ(tl_json_simd_name(TL_JSON_SIMD_SCALAR), "scalar");
	ATF_CHECK_STREQ(tl_json_simd_name(TL_JSON_SIMD_SSE2), "sse2");
	ATF_CHECK_STREQ(tl_json_simd_name(TL_JSON_SIMD_AVX2), "avx2");
	unsetenv("TRACELINT_SIMD");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, random_texts);
	ATF_TP_ADD_TC(tp, backslash_runs);
	ATF_TP_ADD_TC(tp, forced_path);
	return atf_no_error();
}
