/* Where a value inside a row is, found only when a diagnostic about it is
 * shown. Readers keep a row (a node, or a pin once the row is gone) and the
 * value's position in it, not a node per value: locating rescans the row's
 * text from its start, which a pinned table remembers, so the cost is the
 * row's length, not its place in the document. */
#include "json_internal.h"
#include "json_lex.h"

#include <stdio.h>
#include <string.h>

/* Offset of element pos of the array whose '[' is at off, or UINT64_MAX. */
static uint64_t element_at(struct tl_json_doc *d, uint64_t off, uint32_t pos)
{
	const uint8_t *end = d->buf + d->size;
	if (off >= d->size || d->buf[off] != '[')
		return UINT64_MAX;
	const uint8_t *p = jlex_blank_end(d->buf + off + 1, end);
	for (uint32_t i = 0; i < pos; i++) {
		if (p >= end || *p == ']')
			return UINT64_MAX;
		uint64_t past = tl_json_skip_value(d, (uint64_t)(p - d->buf));
		if (past == UINT64_MAX)
			return UINT64_MAX;
		p = jlex_blank_end(d->buf + past, end);
		if (p >= end || *p != ',')
			return UINT64_MAX;
		p = jlex_blank_end(p + 1, end);
	}
	if (p >= end || *p == ']')
		return UINT64_MAX;
	return (uint64_t)(p - d->buf);
}

bool tl_json_locate(struct tl_json_doc *d, uint32_t i, const uint32_t *path, size_t depth, uint64_t *off, char *out,
		    size_t outlen)
{
	uint64_t at = tl_json_text_off(d, i);
	for (size_t k = 0; k < depth && at != UINT64_MAX; k++)
		at = element_at(d, at, path[k]);
	if (at == UINT64_MAX)
		return false;
	char ptr[256];
	tl_json_pointer(d, i, ptr, sizeof ptr);
	size_t pos = strlen(ptr);
	for (size_t k = 0; k < depth; k++) {
		char num[16];
		int len = snprintf(num, sizeof num, "%lu", (unsigned long)path[k]);
		pos = tl_json_pointer_segment(ptr, pos, sizeof ptr, (const uint8_t *)num, (size_t)len);
	}
	if (outlen)
		snprintf(out, outlen, "%s", ptr);
	*off = at;
	return true;
}
