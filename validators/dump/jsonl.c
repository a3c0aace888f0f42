/* JSON Lines writer (jsonl.h). */
#include "jsonl.h"

#include <inttypes.h>
#include <string.h>

static void key_of(struct jl *j, const char *key)
{
	if (j->need_comma)
		putc(',', j->out);
	j->need_comma = true;
	if (key)
		fprintf(j->out, "\"%s\":", key);
}

static void chars_of(FILE *out, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		if (b == '"' || b == '\\') {
			putc('\\', out);
			putc(b, out);
		} else if (b >= 0x20 && b < 0x7f) {
			putc(b, out);
		} else {
			fprintf(out, "\\u%04x", b);
		}
	}
}

static void string_of(FILE *out, const uint8_t *p, size_t n)
{
	putc('"', out);
	chars_of(out, p, n);
	putc('"', out);
}

void jl_begin(struct jl *j, const char *kind)
{
	fputs("{\"kind\":", j->out);
	string_of(j->out, (const uint8_t *)kind, strlen(kind));
	j->need_comma = true;
}

void jl_end(struct jl *j)
{
	fputs("}\n", j->out);
	j->need_comma = false;
	j->lines++;
}

void jl_u64(struct jl *j, const char *key, uint64_t v)
{
	key_of(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void jl_i64(struct jl *j, const char *key, int64_t v)
{
	key_of(j, key);
	fprintf(j->out, "%" PRId64, v);
}

void jl_bool(struct jl *j, const char *key, bool v)
{
	key_of(j, key);
	fputs(v ? "true" : "false", j->out);
}

void jl_null(struct jl *j, const char *key)
{
	key_of(j, key);
	fputs("null", j->out);
}

void jl_str(struct jl *j, const char *key, const char *s)
{
	key_of(j, key);
	string_of(j->out, (const uint8_t *)s, strlen(s));
}

void jl_bytes(struct jl *j, const char *key, const uint8_t *p, size_t n)
{
	key_of(j, key);
	string_of(j->out, p, n);
}

void jl_array_begin(struct jl *j, const char *key)
{
	key_of(j, key);
	putc('[', j->out);
	j->need_comma = false;
}

void jl_array_end(struct jl *j)
{
	putc(']', j->out);
	j->need_comma = true;
}

void jl_object_begin(struct jl *j, const char *key)
{
	key_of(j, key);
	putc('{', j->out);
	j->need_comma = false;
}

void jl_object_end(struct jl *j)
{
	putc('}', j->out);
	j->need_comma = true;
}

void jl_bytes_open(struct jl *j, const char *key)
{
	key_of(j, key);
	putc('"', j->out);
}

void jl_bytes_part(struct jl *j, const uint8_t *p, size_t n)
{
	chars_of(j->out, p, n);
}

void jl_bytes_close(struct jl *j)
{
	putc('"', j->out);
}
