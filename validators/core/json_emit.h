/* Writing JSON as it is produced, laid out as json_out.c's tl_jprint lays
 * out a document (two spaces a level, "key":value, '/' not escaped), so that
 * the JSON and SARIF reports can be streamed and still be the documents a
 * tree would give. A container is opened with its bracket; each member is
 * placed with tl_je_key or tl_je_item, which track whether it is the first;
 * tl_je_close ends it. */
#ifndef TL_JSON_EMIT_H
#define TL_JSON_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ",\n" unless first, the indent of level, and "\"key\":". */
void tl_je_key(FILE *f, bool *first, int level, const char *key);
/* ",\n" unless first, and the indent of level. */
void tl_je_item(FILE *f, bool *first, int level);
/* "\n" unless the container is empty, the indent of level, and c. */
void tl_je_close(FILE *f, bool first, int level, char c);
/* A string of bytes as given (UTF-8 already). */
void tl_je_str(FILE *f, const char *s);
/* Any bytes: invalid UTF-8 read as Latin-1 (tl_utf8_repair). */
void tl_je_text(FILE *f, const char *s);
void tl_je_u64(FILE *f, uint64_t v);
void tl_je_bool(FILE *f, bool v);
/* key, then a string value: tl_je_str or tl_je_text. */
void tl_je_kstr(FILE *f, bool *first, int level, const char *key, const char *s);
void tl_je_ktext(FILE *f, bool *first, int level, const char *key, const char *s);
void tl_je_ku64(FILE *f, bool *first, int level, const char *key, uint64_t v);

#endif
