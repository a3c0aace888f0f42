/* Structural indexing 64 bytes at a time: three classifiers (scalar, SSE2,
 * AVX2) and the bit arithmetic they share (see json_index.h). */
#include "json_index.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TL_JSON_X86 1
#include <immintrin.h>
#endif

static void classify_scalar(const uint8_t *p, struct jclass *c)
{
	memset(c, 0, sizeof *c);
	for (unsigned i = 0; i < 64; i++) {
		uint64_t bit = (uint64_t)1 << i;
		uint8_t b = p[i];
		if (b == '"')
			c->quote |= bit;
		else if (b == '\\')
			c->backslash |= bit;
		else if (b == '[' || b == ']' || b == '{' || b == '}' || b == ',' || b == ':')
			c->op |= bit;
		else if (b == ' ' || b == '\t' || b == '\r' || b == '\n')
			c->ws |= bit;
		if (b == '\n')
			c->nl |= bit;
		if (b < 0x20)
			c->ctrl |= bit;
		if (b >= 0x80)
			c->high |= bit;
		if (b >= '0' && b <= '9')
			c->digit |= bit;
	}
}

#ifdef TL_JSON_X86
/* The masks in the order the SIMD classifiers compute them. */
static inline void set_classes(struct jclass *c, const uint64_t w[8])
{
	*c = (struct jclass){ .quote = w[0], .backslash = w[1], .op = w[2], .ws = w[3],
			      .nl = w[4], .ctrl = w[5], .high = w[6], .digit = w[7] };
}

/* 16 bytes: each class as 16 bits. */
static inline void classify16(__m128i v, uint32_t m[8])
{
#define EQ(ch) _mm_cmpeq_epi8(v, _mm_set1_epi8(ch))
	__m128i op = _mm_or_si128(_mm_or_si128(EQ('['), EQ(']')), _mm_or_si128(_mm_or_si128(EQ('{'), EQ('}')),
									     _mm_or_si128(EQ(','), EQ(':'))));
	__m128i nl = EQ('\n');
	__m128i ws = _mm_or_si128(_mm_or_si128(EQ(' '), EQ('\t')), _mm_or_si128(EQ('\r'), nl));
	/* unsigned compares by min: v < 0x20 iff min(v, 0x1f) == v */
	__m128i ctrl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
	__m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
	__m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	m[0] = (uint32_t)_mm_movemask_epi8(EQ('"'));
	m[1] = (uint32_t)_mm_movemask_epi8(EQ('\\'));
	m[2] = (uint32_t)_mm_movemask_epi8(op);
	m[3] = (uint32_t)_mm_movemask_epi8(ws);
	m[4] = (uint32_t)_mm_movemask_epi8(nl);
	m[5] = (uint32_t)_mm_movemask_epi8(ctrl);
	m[6] = (uint32_t)_mm_movemask_epi8(v);
	m[7] = (uint32_t)_mm_movemask_epi8(digit);
#undef EQ
}

static void classify_sse2(const uint8_t *p, struct jclass *c)
{
	uint32_t m[4][8];
	uint64_t w[8];
	for (int k = 0; k < 4; k++)
		classify16(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k)), m[k]);
	for (int j = 0; j < 8; j++)
		w[j] = (uint64_t)m[0][j] | (uint64_t)m[1][j] << 16 | (uint64_t)m[2][j] << 32 | (uint64_t)m[3][j] << 48;
	set_classes(c, w);
}

__attribute__((target("avx2"))) static inline void classify32(__m256i v, uint32_t m[8])
{
#define EQ(ch) _mm256_cmpeq_epi8(v, _mm256_set1_epi8(ch))
	__m256i op = _mm256_or_si256(_mm256_or_si256(EQ('['), EQ(']')),
				     _mm256_or_si256(_mm256_or_si256(EQ('{'), EQ('}')), _mm256_or_si256(EQ(','), EQ(':'))));
	__m256i nl = EQ('\n');
	__m256i ws = _mm256_or_si256(_mm256_or_si256(EQ(' '), EQ('\t')), _mm256_or_si256(EQ('\r'), nl));
	__m256i ctrl = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
	__m256i d = _mm256_sub_epi8(v, _mm256_set1_epi8('0'));
	__m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
	m[0] = (uint32_t)_mm256_movemask_epi8(EQ('"'));
	m[1] = (uint32_t)_mm256_movemask_epi8(EQ('\\'));
	m[2] = (uint32_t)_mm256_movemask_epi8(op);
	m[3] = (uint32_t)_mm256_movemask_epi8(ws);
	m[4] = (uint32_t)_mm256_movemask_epi8(nl);
	m[5] = (uint32_t)_mm256_movemask_epi8(ctrl);
	m[6] = (uint32_t)_mm256_movemask_epi8(v);
	m[7] = (uint32_t)_mm256_movemask_epi8(digit);
#undef EQ
}

__attribute__((target("avx2"))) static void classify_avx2(const uint8_t *p, struct jclass *c)
{
	uint32_t lo[8], hi[8];
	uint64_t w[8];
	classify32(_mm256_loadu_si256((const __m256i *)(const void *)p), lo);
	classify32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32)), hi);
	for (int j = 0; j < 8; j++)
		w[j] = (uint64_t)lo[j] | (uint64_t)hi[j] << 32;
	set_classes(c, w);
}
#endif

static enum tl_json_simd best_path(void)
{
#ifdef TL_JSON_X86
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") ? TL_JSON_SIMD_AVX2 : TL_JSON_SIMD_SSE2;
#else
	return TL_JSON_SIMD_SCALAR;
#endif
}

enum tl_json_simd tl_json_simd_choose(void)
{
	enum tl_json_simd best = best_path(), want = best;
	const char *env = getenv("TRACELINT_SIMD");
	if (env && !strcmp(env, "scalar"))
		want = TL_JSON_SIMD_SCALAR;
	else if (env && !strcmp(env, "sse2"))
		want = TL_JSON_SIMD_SSE2;
	return want < best ? want : best;
}

const char *tl_json_simd_name(enum tl_json_simd path)
{
	return path == TL_JSON_SIMD_AVX2 ? "avx2" : path == TL_JSON_SIMD_SSE2 ? "sse2" : "scalar";
}

void tl_json_index_init(struct jindex *x, enum tl_json_simd path)
{
	memset(x, 0, sizeof *x);
	x->path = path;
	x->classify = classify_scalar;
#ifdef TL_JSON_X86
	if (path == TL_JSON_SIMD_SSE2)
		x->classify = classify_sse2;
	else if (path == TL_JSON_SIMD_AVX2)
		x->classify = classify_avx2;
#endif
}

/* Bits of the bytes escaped by a backslash (a run of backslashes escapes
 * every second one, and the byte after an odd run); *carry is 1 when the
 * next block's first byte is escaped. simdjson's escape scanner. */
static inline uint64_t escaped_bits(uint64_t backslash, uint64_t *carry)
{
	if (!backslash) {
		uint64_t e = *carry;
		*carry = 0;
		return e;
	}
	const uint64_t odd = 0xAAAAAAAAAAAAAAAAull;
	uint64_t potential = backslash & ~*carry;
	uint64_t codes = (((potential << 1) | odd) - potential) ^ odd;
	uint64_t escaped = codes ^ (backslash | *carry);
	*carry = (codes & backslash) >> 63;
	return escaped;
}

static inline uint64_t prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

void tl_json_index_block(struct jindex *x, const uint8_t *p, size_t n, struct jblock *b)
{
	if (n >= 64)
		x->classify(p, &b->c);
	else {
		uint8_t pad[64];
		memset(pad, ' ', sizeof pad);
		memcpy(pad, p, n);
		x->classify(pad, &b->c);
	}
	const struct jclass *c = &b->c;
	uint64_t escaped = escaped_bits(c->backslash, &x->escaped);
	b->quote = c->quote & ~escaped;
	b->string = prefix_xor(b->quote) ^ x->in_string;
	x->in_string = (uint64_t)((int64_t)b->string >> 63);
	b->scalar = ~(b->string | c->quote | c->op | c->ws);
	uint64_t starts = b->scalar & ~(b->scalar << 1 | x->scalar);
	x->scalar = b->scalar >> 63;
	b->tokens = (c->op & ~b->string) | (b->quote & b->string) | starts;
}
