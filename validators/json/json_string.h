/* JSON string text compared as a reader sees it: escapes decoded
 * ("PROCESSE\u0053" is "PROCESSES"). The text is between the quotes and
 * already validated by the lexer. A lone surrogate escape decodes to its
 * three-byte (WTF-8) form, so it equals only itself. */
#ifndef TL_JSON_STRING_H
#define TL_JSON_STRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Decodes into out (at most outlen bytes); returns the bytes written. */
size_t tl_json_decode(const uint8_t *s, size_t n, uint8_t *out, size_t outlen);

/* Bytes of the decoded text. */
size_t tl_json_decoded_len(const uint8_t *s, size_t n);

/* Decoded a against decoded b, as memcmp then length. */
int tl_json_decoded_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn);

/* Decoded s equals the bytes c[0, cn) (the escaped case). */
bool tl_json_decoded_eq_slow(const uint8_t *s, size_t n, const char *c, size_t cn);

/* Decoded s equals the bytes c[0, cn). An escape always decodes shorter
 * than it is written: text as long as c is compared as it stands, shorter
 * text cannot match, only longer text is decoded. */
static inline bool tl_json_decoded_eq(const uint8_t *s, size_t n, const char *c, size_t cn)
{
	if (n <= cn)
		return n == cn && !memcmp(s, c, n);
	return tl_json_decoded_eq_slow(s, n, c, cn);
}

#endif
