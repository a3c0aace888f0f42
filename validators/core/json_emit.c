/* See json_emit.h; the escapes are json_out.c's. */
#include "json_emit.h"
#include "safe_text.h"

#include <inttypes.h>
#include <string.h>

static void indent(FILE *f, int level)
{
	for (int i = 0; i < level; i++)
		fputs("  ", f);
}

void tl_je_key(FILE *f, bool *first, int level, const char *key)
{
	tl_je_item(f, first, level);
	tl_je_str(f, key);
	putc(':', f);
}

void tl_je_item(FILE *f, bool *first, int level)
{
	if (!*first)
		fputs(",\n", f);
	*first = false;
	indent(f, level);
}

void tl_je_close(FILE *f, bool first, int level, char c)
{
	if (!first)
		putc('\n', f);
	indent(f, level);
	putc(c, f);
}

void tl_je_str(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	putc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;
		switch (c) {
		case '\b': fputs("\\b", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\f': fputs("\\f", f); break;
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		default:
			if (c < ' ')
				fprintf(f, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
			else
				putc(c, f);
		}
	}
	putc('"', f);
}

void tl_je_text(FILE *f, const char *s)
{
	char out[2 * 4096 + 1];
	tl_utf8_repair(out, sizeof out, s);
	tl_je_str(f, out);
}

void tl_je_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64, v);
}

void tl_je_bool(FILE *f, bool v)
{
	fputs(v ? "true" : "false", f);
}

void tl_je_kstr(FILE *f, bool *first, int level, const char *key, const char *s)
{
	tl_je_key(f, first, level, key);
	tl_je_str(f, s);
}

void tl_je_ktext(FILE *f, bool *first, int level, const char *key, const char *s)
{
	tl_je_key(f, first, level, key);
	tl_je_text(f, s);
}

void tl_je_ku64(FILE *f, bool *first, int level, const char *key, uint64_t v)
{
	tl_je_key(f, first, level, key);
	tl_je_u64(f, v);
}
