/* JSON Lines writer (jsonl.h). */
#include "jsonl.h"

#include <string.h>

bool jl_flush(struct jl *j)
{
	bool ok = j->n == 0 || fwrite(j->buf, 1, j->n, j->out) == j->n;
	j->n = 0;
	return ok;
}

/* Room for n more bytes (n at most JL_BUFFER): one test per field, not per byte. */
static inline char *room(struct jl *j, size_t n)
{
	if (JL_BUFFER - j->n < n)
		jl_flush(j);
	return j->buf + j->n;
}

static void put(struct jl *j, const char *s, size_t n)
{
	if (n <= JL_BUFFER) {
		memcpy(room(j, n), s, n);
		j->n += n;
		return;
	}
	jl_flush(j);
	if (fwrite(s, 1, n, j->out) != n)
		return;
}

static inline void put_char(struct jl *j, char c)
{
	*room(j, 1) = c;
	j->n++;
}

/* ,"key": (the keys are the dump's own names: nothing to escape); k is
 * the key's length, which the header's wrappers know at compile time. */
static void key_len_of(struct jl *j, const char *key, size_t k)
{
	char *w = room(j, k + 4);
	size_t n = 0;
	if (j->need_comma)
		w[n++] = ',';
	j->need_comma = true;
	if (key) {
		w[n++] = '"';
		memcpy(w + n, key, k);
		n += k;
		w[n++] = '"';
		w[n++] = ':';
	}
	j->n += n;
}

static void key_of(struct jl *j, const char *key)
{
	key_len_of(j, key, key ? strlen(key) : 0);
}

/* A byte that stands for itself inside a JSON string. */
static inline bool plain_byte(uint8_t b)
{
	return b >= 0x20 && b < 0x7f && b != '"' && b != '\\';
}

static void chars_of(struct jl *j, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	while (n) {
		/* a run of plain bytes is copied whole */
		size_t run = 0;
		while (run < n && run < JL_BUFFER && plain_byte(p[run]))
			run++;
		if (run) {
			put(j, (const char *)p, run);
			p += run;
			n -= run;
			continue;
		}
		uint8_t b = *p++;
		n--;
		char *w = room(j, 6);
		if (b == '"' || b == '\\') {
			w[0] = '\\';
			w[1] = (char)b;
			j->n += 2;
		} else {
			memcpy(w, "\\u00", 4);
			w[4] = hex[b >> 4];
			w[5] = hex[b & 15];
			j->n += 6;
		}
	}
}

static void string_of(struct jl *j, const uint8_t *p, size_t n)
{
	put_char(j, '"');
	chars_of(j, p, n);
	put_char(j, '"');
}

/* Decimal digits written straight into the buffer, two at a time. */
static void number_of(struct jl *j, uint64_t v, bool negative)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	static const uint64_t powers[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	size_t len = 1;
	while (len < 20 && v >= powers[len])
		len++;
	char *w = room(j, len + 1);
	if (negative)
		*w++ = '-';
	j->n += len + negative;
	char *e = w + len;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;
		v /= 100;
		*--e = pairs[d + 1];
		*--e = pairs[d];
	}
	if (v >= 10) {
		*--e = pairs[v * 2 + 1];
		*--e = pairs[v * 2];
	} else {
		*--e = (char)('0' + v);
	}
}

void jl_begin_n(struct jl *j, const char *kind, size_t k)
{
	/* {"kind":"KIND" (the kinds are the dump's own names: nothing to escape) */
	char *w = room(j, k + 10);
	memcpy(w, "{\"kind\":\"", 9);
	memcpy(w + 9, kind, k);
	w[9 + k] = '"';
	j->n += k + 10;
	j->need_comma = true;
}

void jl_end(struct jl *j)
{
	put(j, "}\n", 2);
	j->need_comma = false;
	j->lines++;
}

void jl_u64_n(struct jl *j, const char *key, size_t klen, uint64_t v)
{
	key_len_of(j, key, klen);
	number_of(j, v, false);
}

void jl_i64_n(struct jl *j, const char *key, size_t klen, int64_t v)
{
	key_len_of(j, key, klen);
	number_of(j, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void jl_bool(struct jl *j, const char *key, bool v)
{
	key_of(j, key);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void jl_null(struct jl *j, const char *key)
{
	key_of(j, key);
	put(j, "null", 4);
}

void jl_str(struct jl *j, const char *key, const char *s)
{
	key_of(j, key);
	string_of(j, (const uint8_t *)s, strlen(s));
}

void jl_bytes(struct jl *j, const char *key, const uint8_t *p, size_t n)
{
	key_of(j, key);
	string_of(j, p, n);
}

void jl_bytes_open(struct jl *j, const char *key)
{
	key_of(j, key);
	put_char(j, '"');
}

void jl_bytes_part(struct jl *j, const uint8_t *p, size_t n)
{
	chars_of(j, p, n);
}

void jl_bytes_close(struct jl *j)
{
	put_char(j, '"');
}

void jl_raw(struct jl *j, const char *text, size_t n)
{
	put(j, text, n);
	j->need_comma = true;
}

void jl_key(struct jl *j, const char *key)
{
	key_of(j, key);
	j->need_comma = false;
}

void jl_array_begin(struct jl *j, const char *key)
{
	key_of(j, key);
	put_char(j, '[');
	j->need_comma = false;
}

void jl_array_end(struct jl *j)
{
	put_char(j, ']');
	j->need_comma = true;
}

void jl_object_begin(struct jl *j, const char *key)
{
	key_of(j, key);
	put_char(j, '{');
	j->need_comma = false;
}

void jl_object_end(struct jl *j)
{
	put_char(j, '}');
	j->need_comma = true;
}
