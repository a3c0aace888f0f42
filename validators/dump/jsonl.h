/* JSON Lines output for tracelint dump: one object a line, written field by
 * field into a buffer that goes to stdio in large writes (no document is
 * built, so memory stays flat however many lines are written; integers are
 * formatted by hand, as printf's formatting dominated the cost of a line).
 * Every line starts with its "kind". */
#ifndef TL_DUMP_JSONL_H
#define TL_DUMP_JSONL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define JL_BUFFER (64u << 10)

struct jl {
	FILE *out;
	bool need_comma;        /* a value was written in the current object or array */
	uint64_t lines;
	size_t n;               /* bytes waiting in buf */
	char buf[JL_BUFFER];
};

/* The line's kind, and integers: the wrappers below pass the length of a
 * literal name as a constant (strlen folds), so no line measures its names. */
void jl_begin_n(struct jl *j, const char *kind, size_t len);
void jl_u64_n(struct jl *j, const char *key, size_t klen, uint64_t v);
void jl_i64_n(struct jl *j, const char *key, size_t klen, int64_t v);
static inline void jl_begin(struct jl *j, const char *kind) { jl_begin_n(j, kind, strlen(kind)); }
static inline void jl_u64(struct jl *j, const char *key, uint64_t v)
{
	jl_u64_n(j, key, key ? strlen(key) : 0, v);
}
static inline void jl_i64(struct jl *j, const char *key, int64_t v)
{
	jl_i64_n(j, key, key ? strlen(key) : 0, v);
}
void jl_end(struct jl *j);
/* Writes what waits in the buffer; false on a write error. */
bool jl_flush(struct jl *j);
void jl_bool(struct jl *j, const char *key, bool v);
void jl_null(struct jl *j, const char *key);
/* A string key: value of NUL-terminated text (bytes escaped as below). */
void jl_str(struct jl *j, const char *key, const char *s);
/* Bytes as a JSON string, one character per byte: printable ASCII as itself,
 * every other byte b as \u00XX, so the string's code points are the bytes. */
void jl_bytes(struct jl *j, const char *key, const uint8_t *p, size_t n);
/* A string value written in parts (an event payload larger than what is
 * read at once): open, any number of parts, close. */
void jl_bytes_open(struct jl *j, const char *key);
void jl_bytes_part(struct jl *j, const uint8_t *p, size_t n);
void jl_bytes_close(struct jl *j);
/* Text that is JSON already (a value copied from a JSON document), and a
 * key of a value to be written that way. */
void jl_raw(struct jl *j, const char *text, size_t n);
void jl_key(struct jl *j, const char *key);
/* Arrays and nested objects: key NULL inside an array. */
void jl_array_begin(struct jl *j, const char *key);
void jl_array_end(struct jl *j);
void jl_object_begin(struct jl *j, const char *key);
void jl_object_end(struct jl *j);

#endif
