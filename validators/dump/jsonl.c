/* JSON Lines writer (jsonl.h). */
#include "jsonl.h"

#include <string.h>

bool jl_flush(struct jl *j)
{
	bool ok = j->n == 0 || fwrite(j->buf, 1, j->n, j->out) == j->n;
	j->n = 0;
	return ok;
}

/* Room for n more bytes (n at most JL_BUFFER). */
static char *room(struct jl *j, size_t n)
{
	if (JL_BUFFER - j->n < n)
		jl_flush(j);
	return j->buf + j->n;
}

static void put(struct jl *j, const char *s, size_t n)
{
	while (n) {
		size_t k = n < JL_BUFFER ? n : JL_BUFFER;
		memcpy(room(j, k), s, k);
		j->n += k;
		s += k;
		n -= k;
	}
}

static void put_char(struct jl *j, char c)
{
	*room(j, 1) = c;
	j->n++;
}

static void key_of(struct jl *j, const char *key)
{
	if (j->need_comma)
		put_char(j, ',');
	j->need_comma = true;
	if (key) {
		put_char(j, '"');
		put(j, key, strlen(key));
		put(j, "\":", 2);
	}
}

static void chars_of(struct jl *j, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		char *w = room(j, 6);
		if (b == '"' || b == '\\') {
			w[0] = '\\';
			w[1] = (char)b;
			j->n += 2;
		} else if (b >= 0x20 && b < 0x7f) {
			w[0] = (char)b;
			j->n += 1;
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

static void number_of(struct jl *j, uint64_t v, bool negative)
{
	char digits[24];
	size_t k = sizeof digits;
	do {
		digits[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		digits[--k] = '-';
	put(j, digits + k, sizeof digits - k);
}

void jl_begin(struct jl *j, const char *kind)
{
	put(j, "{\"kind\":", 8);
	string_of(j, (const uint8_t *)kind, strlen(kind));
	j->need_comma = true;
}

void jl_end(struct jl *j)
{
	put(j, "}\n", 2);
	j->need_comma = false;
	j->lines++;
}

void jl_u64(struct jl *j, const char *key, uint64_t v)
{
	key_of(j, key);
	number_of(j, v, false);
}

void jl_i64(struct jl *j, const char *key, int64_t v)
{
	key_of(j, key);
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
