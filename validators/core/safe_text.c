#include "safe_text.h"

#include <stdint.h>

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t cp, min;
	if ((c & 0xe0) == 0xc0) { n = 2; cp = c & 0x1f; min = 0x80; }
	else if ((c & 0xf0) == 0xe0) { n = 3; cp = c & 0x0f; min = 0x800; }
	else if ((c & 0xf8) == 0xf0) { n = 4; cp = c & 0x07; min = 0x10000; }
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool tl_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = utf8_len(p);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

/* Appends n bytes if they fit with room for the NUL; false once full. */
static bool put(char *out, size_t outlen, size_t *o, const char *bytes, size_t n)
{
	if (*o + n + 1 > outlen)
		return false;
	for (size_t i = 0; i < n; i++)
		out[(*o)++] = bytes[i];
	return true;
}

static void finish(char *out, size_t outlen, size_t o)
{
	if (outlen)
		out[o < outlen ? o : outlen - 1] = '\0';
}

void tl_utf8_repair(char *out, size_t outlen, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	while (*p) {
		size_t n = utf8_len(p);
		if (n) {
			if (!put(out, outlen, &o, (const char *)p, n))
				break;
			p += n;
			continue;
		}
		char two[2] = { (char)(0xc0 | *p >> 6), (char)(0x80 | (*p & 0x3f)) };
		if (!put(out, outlen, &o, two, 2))
			break;
		p++;
	}
	finish(out, outlen, o);
}

static const char hex[] = "0123456789abcdef";

void tl_text_escape(char *out, size_t outlen, const char *s)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool ok;
		if (*p < 0x20 || *p == 0x7f) {
			char e[4] = { '\\', 'x', hex[*p >> 4], hex[*p & 15] };
			ok = put(out, outlen, &o, e, 4);
		} else {
			ok = put(out, outlen, &o, (const char *)p, 1);
		}
		if (!ok)
			break;
	}
	finish(out, outlen, o);
}

static bool unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

void tl_uri_encode(char *out, size_t outlen, const char *s)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char e[3] = { '%', "0123456789ABCDEF"[*p >> 4], "0123456789ABCDEF"[*p & 15] };
		if (!(unreserved(*p) ? put(out, outlen, &o, (const char *)p, 1) : put(out, outlen, &o, e, 3)))
			break;
	}
	finish(out, outlen, o);
}

void tl_hex_of(char *out, size_t outlen, const char *s)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char e[2] = { hex[*p >> 4], hex[*p & 15] };
		if (!put(out, outlen, &o, e, 2))
			break;
	}
	finish(out, outlen, o);
}
