/* Where a node is: its RFC 6901 pointer (in O(depth): each node knows its
 * place among its siblings) and its line and column (from a line index of
 * one entry per 64 KiB, so at most 64 KiB is scanned). */
#include "json_internal.h"
#include "json_string.h"

#include <stdio.h>
#include <string.h>

size_t tl_json_pointer_segment(char *out, size_t pos, size_t outlen, const uint8_t *s, size_t n)
{
	size_t i = 0;
	if (pos + 1 < outlen)
		out[pos++] = '/';
	for (; i < n && pos + 2 < outlen; i++) {
		if (s[i] == '~' || s[i] == '/') {
			out[pos++] = '~';
			out[pos++] = s[i] == '~' ? '0' : '1';
		} else if (s[i] >= 0x20 && s[i] < 0x7f)
			out[pos++] = (char)s[i];
		else
			out[pos++] = '?';
	}
	if (pos < outlen)
		out[pos] = 0;
	/* Cut short: later segments must not follow, or the prefix would read
	 * as the pointer of another value. */
	return i < n ? outlen : pos;
}

/* A key as a pointer segment: RFC 6901 names members as decoded. */
size_t tl_json_key_segment(char *out, size_t pos, size_t outlen, const uint8_t *s, size_t n)
{
	uint8_t text[256];
	if (!memchr(s, '\\', n))
		return tl_json_pointer_segment(out, pos, outlen, s, n);
	return tl_json_pointer_segment(out, pos, outlen, text, tl_json_decode(s, n, text, sizeof text));
}

void tl_json_line_col(const struct tl_json_doc *d, uint64_t off, uint32_t *line, uint32_t *col)
{
	if (off > d->size)
		off = d->size;
	if (!d->nblk) {
		*line = 1;
		*col = (uint32_t)off + 1;
		return;
	}
	/* b < nblk: off <= size and a parsed document has (size >> BLOCK_SHIFT) + 1 blocks */
	size_t b = (size_t)(off >> BLOCK_SHIFT);
	uint64_t from = (uint64_t)b << BLOCK_SHIFT, start = d->blk_start[b];
	uint32_t n = d->blk_line[b];
	for (const uint8_t *p = d->buf + from, *end = d->buf + off;
	     p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		n++;
		start = (uint64_t)(p - d->buf) + 1;
	}
	*line = n + 1;
	*col = (uint32_t)(off - start) + 1;
}

/* Index of child in array parent (built nodes only), in constant time. */
static uint64_t index_in(const struct tl_json_doc *d, uint32_t parent, uint32_t child)
{
	if (d->nodes[parent].flags & JF_LAZY)
		return d->cur_row; /* child is the current row */
	return d->nodes[child].idx;
}

/* The key of value child in object parent: built right before its value
 * by both passes, so the node just before it (a child is never the root,
 * node 0). */
static uint32_t key_of(const struct tl_json_doc *d, uint32_t parent, uint32_t child)
{
	if (d->nodes[child].flags & JF_KEY)
		return child; /* a key stands for itself */
	const struct tl_json_node *k = &d->nodes[child - 1];
	if (k->parent == parent && k->next == child && (k->flags & JF_KEY))
		return child - 1;
	return JNONE;
}

static size_t put_index(char *out, size_t pos, size_t outlen, uint64_t idx)
{
	char num[24];
	int len = snprintf(num, sizeof num, "%llu", (unsigned long long)idx);
	return tl_json_pointer_segment(out, pos, outlen, (const uint8_t *)num, (size_t)len);
}

void tl_json_pointer(const struct tl_json_doc *d, uint32_t i, char *out, size_t outlen)
{
	/* A pin stands for row k of its table: the table's pointer, then k. */
	uint32_t pin_row = 0;
	bool pin = false;
	if (i & JPIN) {
		uint32_t l = tl_json_lazy_of(d, i, &pin_row);
		if (outlen)
			out[0] = 0;
		if (l == NO_LAZY)
			return;
		i = d->lazy[l].node;
		pin = true;
	}
	/* Collect the chain root..i (bounded by JSON_MAX_DEPTH), then print. */
	uint32_t chain[JSON_MAX_DEPTH + 2];
	size_t depth = 0;
	for (uint32_t k = i; k != UINT32_MAX && k < d->n && depth <= JSON_MAX_DEPTH + 1; k = d->nodes[k].parent)
		chain[depth++] = k;
	size_t pos = 0;
	if (outlen)
		out[0] = 0;
	for (size_t j = depth; j-- > 1;) {
		uint32_t parent = chain[j], child = chain[j - 1];
		if (d->nodes[parent].type == J_ARR) {
			pos = put_index(out, pos, outlen, index_in(d, parent, child));
		} else {
			uint32_t key = key_of(d, parent, child);
			if (key != JNONE)
				pos = tl_json_key_segment(out, pos, outlen, d->buf + d->nodes[key].off + 1, d->nodes[key].count);
		}
	}
	if (pin)
		put_index(out, pos, outlen, pin_row);
}
