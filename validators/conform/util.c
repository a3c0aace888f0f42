/* Small helpers: allocation that exits on failure, whole-file I/O, and
 * keeping one printable line of a reader's output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"

static void out_of_memory(void)
{
	fputs("tracelint-conform: out of memory\n", stderr);
	exit(2);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		out_of_memory();
	return d;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory();
	return q;
}

char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = xrealloc(NULL, cap);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0'; /* len < cap always: callers may treat text as a string */
	*size = len;
	return buf;
}

int write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	bool ok = fwrite(data, 1, size, f) == size;
	if (fclose(f) != 0)
		ok = false;
	return ok ? 0 : -1;
}

/* The first non-blank line of src, trimmed, with control bytes and bytes
 * above 0x7f replaced (a reader may print binary data, which would make the
 * JSON report invalid UTF-8), so it can go into a Markdown table or a JSON
 * string unharmed. */
void copy_line(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	size_t i = 0;
	while (i < srclen) {
		size_t start = i;
		while (i < srclen && src[i] != '\n')
			i++;
		size_t end = i++;
		while (start < end && (src[start] == ' ' || src[start] == '\t' || src[start] == '\r'))
			start++;
		while (end > start && (src[end - 1] == ' ' || src[end - 1] == '\t' || src[end - 1] == '\r'))
			end--;
		if (start == end)
			continue;
		size_t o = 0;
		for (size_t k = start; k < end && o + 1 < dstlen; k++) {
			unsigned char ch = (unsigned char)src[k];
			dst[o++] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
		}
		dst[o] = '\0';
		return;
	}
	if (dstlen)
		dst[0] = '\0';
}
