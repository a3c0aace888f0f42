/* The table convention of DCFG and DCFG-trace: an array whose first row is
 * a header of column names, then rows of values in header order
 * (JSON-TABLE, JSON-TABLE-COLUMN, DTRACE-COLUMN-ORDER). */
#include "json_check.h"
#include "json_string.h"
#include "rule_table.h"

#include <string.h>

/* String nodes a and b read the same, escapes decoded. */
static bool same_text(struct tl_json_doc *d, uint32_t a, uint32_t b)
{
	const struct tl_json_node *x = jn(d, a), *y = jn(d, b);
	if (x->type != J_STR || y->type != J_STR)
		return false;
	const uint8_t *s = d->buf + x->off + 1, *t = d->buf + y->off + 1;
	if (!((x->flags | y->flags) & JF_ESCAPE))
		return x->count == y->count && !memcmp(s, t, x->count);
	return tl_json_decoded_cmp(s, x->count, t, y->count) == 0;
}

bool tl_dcfg_table_open(struct tl_json_check *v, uint32_t node, const struct tl_json_column *cols, size_t ncols,
		const char *what, bool ordered, struct tl_json_table *t)
{
	struct tl_json_doc *d = &v->doc;
	memset(t, 0, sizeof *t);
	t->node = node;
	t->cols = cols;
	t->ncols = ncols;
	t->max_required_pos = -1;
	for (size_t k = 0; k < ncols; k++)
		t->pos[k] = -1;
	if (jn(d, node)->type != J_ARR) {
		tl_jv_report(v, RULE_JSON_TABLE, node, MSG_JSON_TABLE, what,
			  tl_json_type_name((enum tl_json_type)jn(d, node)->type));
		return false;
	}
	uint32_t h = jn(d, node)->first;
	if (h == JNONE || jn(d, h)->type != J_ARR || jn(d, h)->count == 0) {
		tl_jv_report(v, RULE_JSON_TABLE, h == JNONE ? node : h,
			  MSG_JSON_TABLE_2, what,
			  h == JNONE ? "an empty array" : jn(d, h)->type == J_ARR ? "an empty array" :
			  tl_json_type_name((enum tl_json_type)jn(d, h)->type));
		return false;
	}
	t->header_len = jn(d, h)->count;
	bool ok = true;
	int pos = 0, last_known = -1;
	size_t last_k = 0;
	for (uint32_t c = jn(d, h)->first; c != JNONE; c = jsibling(d, c), pos++) {
		if (jn(d, c)->type != J_STR) {
			tl_jv_report(v, RULE_JSON_TABLE, c, MSG_JSON_TABLE_3, what,
				  tl_json_type_name((enum tl_json_type)jn(d, c)->type));
			ok = false;
			continue;
		}
		for (uint32_t e = jn(d, h)->first; e != c; e = jsibling(d, e))
			if (same_text(d, e, c)) {
				char q[80];
				tl_jv_report(v, RULE_JSON_TABLE, c, MSG_JSON_TABLE_4,
					  what, tl_quote(q, sizeof q, jstr(d, c), jn(d, c)->count));
				ok = false;
			}
		size_t k;
		for (k = 0; k < ncols; k++)
			if (tl_json_str_eq(d, c, cols[k].name))
				break;
		char q[80];
		if (k == ncols) {
			tl_jv_report(v, RULE_JSON_UNKNOWN_KEY, c, MSG_JSON_UNKNOWN_KEY_3,
				  what, tl_quote(q, sizeof q, jstr(d, c), jn(d, c)->count));
			continue;
		}
		if (t->pos[k] >= 0)
			continue;
		t->pos[k] = pos;
		if (ordered && last_known >= 0 && k < last_k)
			tl_jv_report(v, RULE_DTRACE_COLUMN_ORDER, c, MSG_DTRACE_COLUMN_ORDER,
				  cols[k].name, cols[last_k].name, what);
		last_known = pos;
		last_k = k;
		if (cols[k].required) /* positions only grow: this is the largest yet */
			t->max_required_pos = pos;
	}
	memset(t->col_at, -1, sizeof t->col_at);
	for (size_t k = 0; k < ncols; k++)
		if (t->pos[k] >= 0 && t->pos[k] < TABLE_MAX_POS)
			t->col_at[t->pos[k]] = (int8_t)k;
	for (size_t k = 0; k < ncols; k++)
		if (cols[k].required && t->pos[k] < 0) {
			tl_jv_report(v, RULE_JSON_TABLE_COLUMN, h, MSG_JSON_TABLE_COLUMN,
				  cols[k].name, what);
			ok = false;
		}
	return ok;
}

bool tl_dcfg_table_row(struct tl_json_check *v, const struct tl_json_table *t, uint32_t row, uint32_t *cell)
{
	struct tl_json_doc *d = &v->doc;
	for (size_t k = 0; k < t->ncols; k++)
		cell[k] = JNONE;
	if (jn(d, row)->type != J_ARR) {
		tl_jv_report(v, RULE_JSON_TABLE, row, MSG_JSON_TABLE_5,
			  tl_json_type_name((enum tl_json_type)jn(d, row)->type));
		return false;
	}
	uint32_t len = jn(d, row)->count;
	if (len > t->header_len) {
		tl_jv_report(v, RULE_JSON_TABLE, row, MSG_JSON_TABLE_6,
			  t->header_len, len);
		return false;
	}
	if ((int64_t)len <= t->max_required_pos) {
		/* max_required_pos is some required column's: the loop stops at one */
		size_t k = 0;
		while (!(t->cols[k].required && t->pos[k] >= (int)len))
			k++;
		tl_jv_report(v, RULE_JSON_TABLE_COLUMN, row,
			  MSG_JSON_TABLE_COLUMN_2,
			  t->cols[k].name, t->pos[k] + 1, len);
		return false;
	}
	int pos = 0;
	for (uint32_t c = jn(d, row)->first; c != JNONE; c = jsibling(d, c), pos++) {
		if (pos < TABLE_MAX_POS) {
			if (t->col_at[pos] >= 0)
				cell[t->col_at[pos]] = c;
			continue;
		}
		for (size_t k = 0; k < t->ncols; k++)
			if (t->pos[k] == pos)
				cell[k] = c;
	}
	return true;
}
