/* Parsing EDGE_ID_SEQUENCE strings and the STRING_DICTIONARY into item
 * trees, with saturated bit lengths and an iterative cycle search. */
#include "id_put.h"
#include "trace_seq.h"
#include "json_lex.h"

#include "grow.h"

#include <stdlib.h>
#include <string.h>

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? BITS_INFINITE : a + b; }

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return tl_mul_u64(a, b, &r) ? r : BITS_INFINITE;
}

static bool push_item(struct tl_json_check *v, struct tl_dcfg_seq *s, size_t *cap, const struct tl_dcfg_seq_item *it)
{
	struct tl_dcfg_seq_item *ni = s->n < UINT32_MAX ? tl_grow_array(s->items, cap, s->n, sizeof *ni, 16) : NULL;
	if (!ni) {
		tl_jv_out_of_memory(v);
		return false;
	}
	s->items = ni;
	s->items[s->n++] = *it;
	return true;
}

static uint64_t fnv(const uint8_t *k, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 0x100000001b3ull;
	return h;
}

uint32_t tl_dcfg_dict_find(const struct tl_dcfg_dict *d, const uint8_t *key, uint32_t len)
{
	if (!d)
		return IDMAP_NONE;
	uint32_t i = tl_dcfg_idmap_get(&d->by_hash, fnv(key, len));
	if (i != IDMAP_NONE && d->e[i].key_len == len && !memcmp(d->e[i].key, key, len))
		return i;
	if (i == IDMAP_NONE)
		return IDMAP_NONE;
	for (i = 0; i < d->n; i++) /* hash collision: fall back to a scan */
		if (d->e[i].key_len == len && !memcmp(d->e[i].key, key, len))
			return i;
	return IDMAP_NONE;
}

/* Eight modified-Base64 characters at p (one branch for the eight). */
static bool lit8(const uint8_t *p)
{
	const uint8_t *v = tl_dcfg_b64;
	return (v[p[0]] & v[p[1]] & v[p[2]] & v[p[3]] & v[p[4]] & v[p[5]] & v[p[6]] & v[p[7]] & TL_DCFG_B64_VALID) != 0;
}

uint32_t tl_dcfg_literal_end_scalar(const uint8_t *t, uint32_t j, uint32_t n)
{
	while (j + 8 <= n && lit8(t + j))
		j += 8;
	while (j < n && tl_dcfg_b64_is(t[j]))
		j++;
	return j;
}

#if TL_JSON_SIMD
uint32_t tl_dcfg_literal_end(const uint8_t *t, uint32_t j, uint32_t n)
{
	while (n - j >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t + j));
		__m128i ok = _mm_or_si128(_mm_or_si128(jlex_in_range(v, 'A', 26), jlex_in_range(v, 'a', 26)),
					  _mm_or_si128(jlex_in_range(v, '0', 10),
						       _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')),
								    _mm_cmpeq_epi8(v, _mm_set1_epi8('-')))));
		unsigned m = (unsigned)_mm_movemask_epi8(ok) ^ 0xffffu;
		if (m)
			return j + (uint32_t)__builtin_ctz(m);
		j += 16;
	}
	return tl_dcfg_literal_end_scalar(t, j, n);
}
#else
uint32_t tl_dcfg_literal_end(const uint8_t *t, uint32_t j, uint32_t n) { return tl_dcfg_literal_end_scalar(t, j, n); }
#endif

/* A group or key opened at i, its body t[i+1..j), must be non-empty and end with close at j;
 * else a syntax error at j (or at the end of the string) saying what was expected. */
static bool closed_at(struct tl_json_check *v, uint32_t node, const uint8_t *t, uint32_t n, uint32_t i, uint32_t j,
		      uint8_t close, const char *expected)
{
	if (j > i + 1 && j < n && t[j] == close)
		return true;
	char q[80];
	tl_jv_report_in(v, RULE_DTRACE_SEQ_SYNTAX, node, 1 + (j < n ? j : n), MSG_DTRACE_SEQ_SYNTAX, expected,
			j >= n ? "the end of the string" : tl_quote(q, sizeof q, t + j, 1));
	return false;
}

bool tl_dcfg_seq_parse(struct tl_json_check *v, uint32_t node, const struct tl_dcfg_dict *d, struct tl_dcfg_seq *s)
{
	const struct tl_json_node *jnode = jn(&v->doc, node);
	const uint8_t *t = jstr(&v->doc, node);
	uint32_t n = jnode->count;
	size_t cap = 0;
	uint32_t depth = 0;
	uint32_t *open = NULL;
	bool ok = true;
	memset(s, 0, sizeof *s);
	s->text = t;
	char q[80];
	if (jnode->flags & JF_ESCAPE) {
		const uint8_t *bs = memchr(t, '\\', n);
		tl_jv_report_in(v, RULE_DTRACE_SEQ_SYNTAX, node, 1 + (uint32_t)(bs - t),
			     MSG_DTRACE_SEQ_SYNTAX_2);
		return false;
	}
	for (uint32_t i = 0; i < n && ok;) {
		uint8_t c = t[i];
		if (tl_dcfg_b64_is(c)) {
			uint32_t j = tl_dcfg_literal_end(t, i, n);
			struct tl_dcfg_seq_item it = { IT_LIT, i, j - i, 0, 0, (uint64_t)(j - i) * 6 };
			ok = push_item(v, s, &cap, &it);
			i = j;
		} else if (c == '(') {
			uint32_t j = i + 1;
			uint64_t reps = 0;
			bool overflow = false;
			while (j < n && t[j] >= '0' && t[j] <= '9') {
				if (!tl_mul_u64(reps, 10, &reps) || !tl_add_u64(reps, (uint64_t)(t[j] - '0'), &reps))
					overflow = true;
				j++;
			}
			if (!closed_at(v, node, t, n, i, j, '*', "'(' to be followed by decimal digits and '*'")) {
				ok = false;
				break;
			}
			if (overflow) {
				tl_jv_report_in(v, RULE_DTRACE_REPEAT_COUNT, node, 1 + i + 1,
					     MSG_DTRACE_REPEAT_COUNT,
					     tl_quote(q, sizeof q, t + i + 1, j - i - 1));
				ok = false;
				break;
			}
			if (reps == 0)
				tl_jv_report_in(v, RULE_DTRACE_REPEAT_ZERO, node, 1 + i + 1,
					     MSG_DTRACE_REPEAT_ZERO);
			if (depth >= SEQ_MAX_NESTING) {
				tl_jv_report_in(v, RULE_DTRACE_NESTING, node, 1 + i,
					     MSG_DTRACE_NESTING, SEQ_MAX_NESTING);
				ok = false;
				break;
			}
			if (!open && !(open = malloc(SEQ_MAX_NESTING * sizeof *open))) {
				tl_jv_out_of_memory(v);
				ok = false;
				break;
			}
			open[depth++] = s->n;
			struct tl_dcfg_seq_item it = { IT_REP, i, 0, 0, reps, 0 };
			ok = push_item(v, s, &cap, &it);
			i = j + 1;
		} else if (c == ')') {
			if (!depth) {
				tl_jv_report_in(v, RULE_DTRACE_SEQ_SYNTAX, node, 1 + i, MSG_DTRACE_SEQ_SYNTAX_3);
				ok = false;
				break;
			}
			uint32_t r = open[--depth];
			s->items[r].len = s->n - r - 1;
			i++;
		} else if (c == '<') {
			uint32_t j = i + 1;
			while (j < n && tl_dcfg_b64_is(t[j]))
				j++;
			if (!closed_at(v, node, t, n, i, j, '>', "'<' to be followed by a key of A-Z a-z 0-9 + - and '>'")) {
				ok = false;
				break;
			}
			struct tl_dcfg_seq_item it = { IT_REF, i + 1, j - i - 1, IDMAP_NONE, 0, 0 };
			if (d) {
				it.ref = tl_dcfg_dict_find(d, t + i + 1, j - i - 1);
				if (it.ref == IDMAP_NONE) {
					tl_jv_report_in(v, RULE_DTRACE_DICT_REF, node, 1 + i,
						     MSG_DTRACE_DICT_REF,
						     tl_quote(q, sizeof q, t + i + 1, j - i - 1));
					ok = false;
					break;
				}
			}
			ok = push_item(v, s, &cap, &it);
			i = j + 1;
		} else {
			tl_jv_report_in(v, RULE_DTRACE_SEQ_SYNTAX, node, 1 + i,
				     MSG_DTRACE_SEQ_SYNTAX_4,
				     tl_quote(q, sizeof q, t + i, 1));
			ok = false;
		}
	}
	if (ok && depth) {
		tl_jv_report_in(v, RULE_DTRACE_SEQ_SYNTAX, node, 1 + s->items[open[depth - 1]].start,
			     MSG_DTRACE_SEQ_SYNTAX_5, depth);
		ok = false;
	}
	free(open);
	if (!ok)
		tl_dcfg_seq_free(s);
	return ok;
}

void tl_dcfg_seq_free(struct tl_dcfg_seq *s)
{
	free(s->items);
	s->items = NULL;
	s->n = 0;
}

uint64_t tl_dcfg_seq_bits(struct tl_dcfg_seq *s, const struct tl_dcfg_dict *d)
{
	/* Later items first, so a group's body is known before the group. */
	for (uint32_t i = s->n; i-- > 0;) {
		struct tl_dcfg_seq_item *it = &s->items[i];
		if (it->kind == IT_REF)
			it->bits = d && it->ref < d->n && !d->e[it->ref].cyclic ? d->e[it->ref].seq.bits : 0;
		else if (it->kind == IT_REP) {
			uint64_t body = 0;
			for (uint32_t j = i + 1; j <= i + it->len; j += s->items[j].kind == IT_REP ? s->items[j].len + 1 : 1)
				body = sat_add(body, s->items[j].bits);
			it->bits = sat_mul(body, it->reps);
		}
	}
	uint64_t total = 0;
	for (uint32_t j = 0; j < s->n; j += s->items[j].kind == IT_REP ? s->items[j].len + 1 : 1)
		total = sat_add(total, s->items[j].bits);
	s->bits = total;
	return total;
}

/* Iterative depth-first search over references: marks cycles (each
 * reported once, at the entry that closes it) and computes bit lengths in
 * postorder, so every entry's references are measured before it. */
static void dict_walk(struct tl_json_check *v, struct tl_dcfg_dict *d)
{
	uint32_t *stack = malloc(((size_t)d->n + 1) * sizeof *stack);
	uint32_t *pos = malloc(((size_t)d->n + 1) * sizeof *pos);
	if (!stack || !pos) {
		tl_jv_out_of_memory(v);
		goto out;
	}
	for (uint32_t root = 0; root < d->n; root++) {
		if (d->e[root].state)
			continue;
		uint32_t top = 0;
		stack[top] = root;
		pos[top++] = 0;
		d->e[root].state = 1;
		while (top) {
			struct tl_dcfg_dict_entry *e = &d->e[stack[top - 1]];
			uint32_t *p = &pos[top - 1];
			while (*p < e->seq.n && e->seq.items[*p].kind != IT_REF)
				(*p)++;
			if (*p < e->seq.n) {
				uint32_t r = e->seq.items[(*p)++].ref;
				if (r >= d->n)
					continue;
				if (d->e[r].state == 1) {
					char q[80], q2[80];
					tl_jv_report(v, RULE_DTRACE_DICT_CYCLE, e->value_node,
						  MSG_DTRACE_DICT_CYCLE,
						  tl_quote(q, sizeof q, e->key, e->key_len), tl_quote(q2, sizeof q2, d->e[r].key, d->e[r].key_len));
					e->cyclic = true;
					d->e[r].cyclic = true;
				} else if (d->e[r].state == 0) {
					d->e[r].state = 1;
					stack[top] = r;
					pos[top++] = 0;
				}
			} else {
				tl_dcfg_seq_bits(&e->seq, d);
				e->state = 2;
				top--;
			}
		}
	}
out:
	free(stack);
	free(pos);
}

void tl_dcfg_dict_read(struct tl_json_check *v, uint32_t obj, struct tl_dcfg_dict *d)
{
	memset(d, 0, sizeof *d);
	if (!tl_jv_expect(v, obj, J_OBJ, "STRING_DICTIONARY"))
		return;
	uint32_t pairs = jn(&v->doc, obj)->count / 2;
	d->e = calloc((size_t)pairs + 1, sizeof *d->e);
	if (!d->e) {
		tl_jv_out_of_memory(v);
		return;
	}
	char q[80];
	for (uint32_t k = jn(&v->doc, obj)->first; k != JNONE;) {
		uint32_t val = jnext(v, k);
		if (val == JNONE)
			break;
		const uint8_t *key = jstr(&v->doc, k);
		uint32_t len = jn(&v->doc, k)->count;
		bool good = len > 0 && !(jn(&v->doc, k)->flags & JF_ESCAPE);
		for (uint32_t i = 0; i < len && good; i++)
			good = tl_dcfg_b64_is(key[i]);
		if (!good)
			tl_jv_report(v, RULE_DTRACE_DICT_KEY, k, MSG_DTRACE_DICT_KEY,
				  tl_quote(q, sizeof q, key, len));
		else if (tl_dcfg_dict_find(d, key, len) == IDMAP_NONE && tl_jv_expect(v, val, J_STR, "a dictionary value")) {
			struct tl_dcfg_dict_entry *e = &d->e[d->n];
			e->key = key;
			e->key_len = len;
			e->key_node = k;
			e->value_node = val;
			/* On a hash collision the first entry keeps the slot; tl_dcfg_dict_find scans. */
			tl_dcfg_id_put(v, &d->by_hash, fnv(key, len), d->n);
			d->n++;
		}
		k = jnext(v, val);
	}
	/* Values are parsed once all keys are known, so forward references resolve. */
	for (uint32_t i = 0; i < d->n; i++)
		d->e[i].parsed = tl_dcfg_seq_parse(v, d->e[i].value_node, d, &d->e[i].seq);
	dict_walk(v, d);
}

void tl_dcfg_dict_free(struct tl_dcfg_dict *d)
{
	for (uint32_t i = 0; i < d->n; i++)
		tl_dcfg_seq_free(&d->e[i].seq);
	free(d->e);
	tl_dcfg_idmap_free(&d->by_hash);
	memset(d, 0, sizeof *d);
}
