/* The document: its nodes, freeing it, and reading strings and objects
 * as a JSON reader's caller sees them (escapes decoded). */
#include "json_internal.h"
#include "json_string.h"
#include "invariant.h"
#include "bigalloc.h"

#include <stdlib.h>
#include <string.h>

void tl_json_free(struct tl_json_doc *doc)
{
	free(doc->nodes);
	for (uint32_t i = 0; i < doc->nlazy; i++)
		free(doc->lazy[i].row_off);
	free(doc->lazy);
	free(doc->blk_line);
	free(doc->blk_start);
	for (size_t i = 0; i < doc->ndups; i++)
		free(doc->dups[i].pointer);
	free(doc->dups);
	free(doc->frames);
	const uint8_t *buf = doc->buf;
	size_t size = doc->size;
	memset(doc, 0, sizeof *doc);
	doc->buf = buf;
	doc->size = size;
	doc->cur_lazy = NO_LAZY;
}

bool tl_json_str_eq(struct tl_json_doc *d, uint32_t i, const char *s)
{
	const struct tl_json_node *n = jn(d, i);
	size_t len = strlen(s);
	if (n->type != J_STR)
		return false;
	if (n->flags & JF_ESCAPE) /* compared as a reader sees it */
		return tl_json_decoded_eq(d->buf + n->off + 1, n->count, s, len);
	return n->count == len && memcmp(d->buf + n->off + 1, s, len) == 0;
}

uint32_t tl_json_obj_get(struct tl_json_doc *d, uint32_t obj, const char *key)
{
	if (jn(d, obj)->type != J_OBJ)
		return JNONE;
	for (uint32_t k = jn(d, obj)->first; k != JNONE;) {
		uint32_t v = jsibling(d, k);
		if (TL_NEVER(v == JNONE)) /* the parser gives every key its value */
			break;
		if (tl_json_str_eq(d, k, key))
			return v;
		k = jsibling(d, v);
	}
	return JNONE;
}
