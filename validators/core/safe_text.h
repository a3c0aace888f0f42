/* Text from outside (file names, member names, messages quoting them) made
 * safe for each output: valid UTF-8 for JSON and SARIF, percent-encoded for
 * URIs, and no raw control characters for a terminal or a log parser. Each
 * writes a NUL-terminated result into out, cut (never mid-sequence) when
 * outlen is too small. */
#ifndef TL_SAFE_TEXT_H
#define TL_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* True when s is valid UTF-8. */
bool tl_utf8_valid(const char *s);

/* Valid UTF-8 is kept; every byte of an invalid sequence becomes the code
 * point of the same number (0xFF -> U+00FF, as Latin-1 reads it). */
void tl_utf8_repair(char *out, size_t outlen, const char *s);

/* Control characters (below 0x20, and 0x7F) become \xNN; everything else is
 * kept (messages quote file bytes with tl_quote, which escapes backslashes
 * already). */
void tl_text_escape(char *out, size_t outlen, const char *s);

/* Every byte but A-Z a-z 0-9 - . _ ~ / becomes %XX (RFC 3986). */
void tl_uri_encode(char *out, size_t outlen, const char *s);

/* The bytes of s as lowercase hex digits. */
void tl_hex_of(char *out, size_t outlen, const char *s);

#endif
