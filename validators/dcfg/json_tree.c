/* Strict JSON to node array: one forward pass with an explicit stack. */
#include "json_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct jdoc *d;
	const uint8_t *p, *end;
	uint32_t line;
	const uint8_t *line_start;
	struct jerror *err;
	uint32_t *stack;  /* open containers */
	uint32_t depth;
};

static bool fail(struct parser *ps, enum jerr kind, const uint8_t *at, const char *msg)
{
	ps->err->kind = kind;
	ps->err->off = (uint64_t)(at - ps->d->buf);
	ps->err->line = ps->line;
	ps->err->col = (uint32_t)(at - ps->line_start) + 1;
	snprintf(ps->err->msg, sizeof ps->err->msg, "%s", msg);
	return false;
}

/* What stands at p, for messages. */
static const char *describe(const struct parser *ps, const uint8_t *p, char *buf, size_t len)
{
	if (p >= ps->end)
		return "end of input";
	if (*p >= 0x20 && *p < 0x7f)
		snprintf(buf, len, "'%c'", *p);
	else
		snprintf(buf, len, "byte 0x%02x", *p);
	return buf;
}

static bool fail_at(struct parser *ps, const uint8_t *at, const char *expected)
{
	char what[32], msg[160];
	snprintf(msg, sizeof msg, "expected %s, found %s", expected, describe(ps, at, what, sizeof what));
	return fail(ps, JE_SYNTAX, at, msg);
}

static uint32_t new_node(struct parser *ps, uint8_t type, const uint8_t *at)
{
	struct jdoc *d = ps->d;
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 1024;
		if (cap <= d->cap || cap > UINT32_MAX / 2)
			return UINT32_MAX;
		struct jnode *nn = realloc(d->nodes, (size_t)cap * sizeof *nn);
		if (!nn)
			return UINT32_MAX;
		d->nodes = nn;
		d->cap = cap;
	}
	uint32_t i = d->n++;
	struct jnode *n = &d->nodes[i];
	n->off = (uint64_t)(at - d->buf);
	n->line = ps->line;
	n->col = (uint32_t)(at - ps->line_start) + 1;
	n->parent = ps->depth ? ps->stack[ps->depth - 1] : UINT32_MAX;
	n->next = JNONE;
	n->first = JNONE;
	n->count = 0;
	n->type = type;
	n->flags = 0;
	return i;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		uint8_t c = *ps->p;
		if (c == ' ' || c == '\t' || c == '\r')
			ps->p++;
		else if (c == '\n') {
			ps->p++;
			ps->line++;
			ps->line_start = ps->p;
		} else
			break;
	}
}

/* Length of a valid UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), or 0. */
static size_t utf8_len(const uint8_t *p, const uint8_t *end)
{
	uint8_t c = p[0];
	size_t n;
	uint8_t lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_string(struct parser *ps, uint32_t node)
{
	const uint8_t *start = ++ps->p; /* past the quote */
	uint8_t flags = 0;
	for (;;) {
		while (ps->p < ps->end && *ps->p >= 0x20 && *ps->p < 0x80 && *ps->p != '"' && *ps->p != '\\')
			ps->p++;
		if (ps->p >= ps->end)
			return fail_at(ps, ps->p, "'\"' closing the string");
		uint8_t c = *ps->p;
		if (c == '"')
			break;
		if (c == '\\') {
			flags |= JF_ESCAPE;
			if (ps->end - ps->p < 2)
				return fail_at(ps, ps->p + 1, "an escape character");
			uint8_t e = ps->p[1];
			if (e == 'u') {
				if (ps->end - ps->p < 6)
					return fail_at(ps, ps->end, "4 hex digits after \\u");
				for (int k = 2; k < 6; k++)
					if (hexval(ps->p[k]) < 0)
						return fail_at(ps, ps->p + k, "a hex digit in \\u escape");
				ps->p += 6;
			} else if (strchr("\"\\/bfnrt", e) && e) {
				ps->p += 2;
			} else
				return fail_at(ps, ps->p + 1, "one of \" \\ / b f n r t u after '\\'");
		} else if (c < 0x20) {
			return fail_at(ps, ps->p, "a control character escaped (\\n, \\u00XX) inside a string");
		} else {
			size_t n = utf8_len(ps->p, ps->end);
			if (!n)
				return fail_at(ps, ps->p, "valid UTF-8 inside a string");
			ps->p += n;
		}
	}
	size_t len = (size_t)(ps->p - start);
	ps->p++;
	if (len > UINT32_MAX)
		return fail_at(ps, start, "a string shorter than 4 GiB");
	ps->d->nodes[node].count = (uint32_t)len;
	ps->d->nodes[node].flags |= flags;
	return true;
}

static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

static bool parse_number(struct parser *ps, uint32_t node)
{
	const uint8_t *s = ps->p;
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || !is_digit(*ps->p))
		return fail_at(ps, ps->p, "a digit");
	if (*ps->p == '0')
		ps->p++;
	else
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (ps->p >= ps->end || !is_digit(*ps->p))
			return fail_at(ps, ps->p, "a digit after '.'");
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || !is_digit(*ps->p))
			return fail_at(ps, ps->p, "a digit in the exponent");
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	size_t len = (size_t)(ps->p - s);
	ps->d->nodes[node].count = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	return true;
}

static bool parse_literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail_at(ps, ps->p, "a JSON value");
	ps->p += n;
	return true;
}

/* Links child into the innermost open container. */
static void attach(struct parser *ps, uint32_t child, uint32_t *last)
{
	if (!ps->depth)
		return;
	uint32_t parent = ps->stack[ps->depth - 1];
	struct jnode *pn = &ps->d->nodes[parent];
	if (last[ps->depth - 1] == JNONE)
		pn->first = child;
	else
		ps->d->nodes[last[ps->depth - 1]].next = child;
	last[ps->depth - 1] = child;
	pn->count++;
}

bool json_parse(struct jdoc *doc, const uint8_t *buf, size_t size, struct jerror *err)
{
	static const uint8_t empty[1];
	if (!buf) /* an empty input maps to no memory at all */
		buf = empty;
	memset(doc, 0, sizeof *doc);
	doc->buf = buf;
	doc->size = size;
	memset(err, 0, sizeof *err);
	struct parser ps = { doc, buf, buf + size, 1, buf, err, NULL, 0 };
	uint32_t *last = NULL;
	bool ok = false;
	ps.stack = malloc(JSON_MAX_DEPTH * sizeof *ps.stack);
	last = malloc(JSON_MAX_DEPTH * sizeof *last);
	if (!ps.stack || !last) {
		err->kind = JE_NOMEM;
		snprintf(err->msg, sizeof err->msg, "out of memory");
		goto out;
	}
	/* state: after a value inside a container we expect ',' or a closer;
	 * expect_key: inside an object, at a key position. */
	skip_ws(&ps);
	for (;;) {
		/* --- read one value (or open a container) --- */
		if (ps.p >= ps.end) {
			fail_at(&ps, ps.p, "a JSON value");
			goto out;
		}
		uint8_t c = *ps.p;
		uint32_t node;
		const uint8_t *at = ps.p;
		bool opened = false;
		switch (c) {
		case '{':
		case '[':
			if (ps.depth >= JSON_MAX_DEPTH) {
				fail(&ps, JE_DEPTH, at, "expected arrays and objects nested at most 1024 deep, found a 1025th level");
				goto out;
			}
			node = new_node(&ps, c == '{' ? J_OBJ : J_ARR, at);
			if (node == UINT32_MAX)
				goto nomem;
			attach(&ps, node, last);
			ps.stack[ps.depth] = node;
			last[ps.depth] = JNONE;
			ps.depth++;
			ps.p++;
			opened = true;
			break;
		case '"':
			node = new_node(&ps, J_STR, at);
			if (node == UINT32_MAX)
				goto nomem;
			attach(&ps, node, last);
			if (!parse_string(&ps, node))
				goto out;
			break;
		case 't':
		case 'f':
		case 'n':
			node = new_node(&ps, c == 't' ? J_TRUE : c == 'f' ? J_FALSE : J_NULL, at);
			if (node == UINT32_MAX)
				goto nomem;
			attach(&ps, node, last);
			if (!parse_literal(&ps, c == 't' ? "true" : c == 'f' ? "false" : "null"))
				goto out;
			break;
		default:
			if (c != '-' && !is_digit(c)) {
				fail_at(&ps, at, "a JSON value");
				goto out;
			}
			node = new_node(&ps, J_NUM, at);
			if (node == UINT32_MAX)
				goto nomem;
			attach(&ps, node, last);
			if (!parse_number(&ps, node))
				goto out;
		}
		skip_ws(&ps);
		if (opened) {
			uint32_t top = ps.stack[ps.depth - 1];
			uint8_t closer = doc->nodes[top].type == J_OBJ ? '}' : ']';
			if (ps.p < ps.end && *ps.p == closer) {
				ps.p++;
				ps.depth--;
				skip_ws(&ps);
			} else if (doc->nodes[top].type == J_OBJ) {
				goto key;
			} else
				continue;
		}
		/* --- after a complete value: separators and closers --- */
		for (;;) {
			if (!ps.depth) {
				if (ps.p < ps.end) {
					fail_at(&ps, ps.p, "end of input after the top-level value");
					goto out;
				}
				ok = true;
				goto out;
			}
			uint32_t top = ps.stack[ps.depth - 1];
			bool obj = doc->nodes[top].type == J_OBJ;
			if (ps.p < ps.end && *ps.p == ',') {
				ps.p++;
				skip_ws(&ps);
				if (obj)
					goto key;
				break; /* next array element */
			}
			if (ps.p < ps.end && *ps.p == (obj ? '}' : ']')) {
				ps.p++;
				ps.depth--;
				skip_ws(&ps);
				continue;
			}
			fail_at(&ps, ps.p, obj ? "',' or '}'" : "',' or ']'");
			goto out;
		}
		continue;
key:
		if (ps.p >= ps.end || *ps.p != '"') {
			fail_at(&ps, ps.p, "a '\"' starting an object key");
			goto out;
		}
		node = new_node(&ps, J_STR, ps.p);
		if (node == UINT32_MAX)
			goto nomem;
		doc->nodes[node].flags |= JF_KEY;
		attach(&ps, node, last);
		if (!parse_string(&ps, node))
			goto out;
		skip_ws(&ps);
		if (ps.p >= ps.end || *ps.p != ':') {
			fail_at(&ps, ps.p, "':' after an object key");
			goto out;
		}
		ps.p++;
		skip_ws(&ps);
	}
nomem:
	err->kind = JE_NOMEM;
	snprintf(err->msg, sizeof err->msg, "out of memory after %u JSON values", doc->n);
out:
	free(ps.stack);
	free(last);
	return ok;
}

void json_free(struct jdoc *doc)
{
	free(doc->nodes);
	doc->nodes = NULL;
	doc->n = doc->cap = 0;
}

bool jstr_eq(const struct jdoc *d, uint32_t i, const char *s)
{
	const struct jnode *n = &d->nodes[i];
	size_t len = strlen(s);
	return n->type == J_STR && n->count == len && memcmp(d->buf + n->off + 1, s, len) == 0;
}

uint32_t jobj_get(const struct jdoc *d, uint32_t obj, const char *key)
{
	if (d->nodes[obj].type != J_OBJ)
		return JNONE;
	for (uint32_t k = d->nodes[obj].first; k != JNONE; ) {
		uint32_t v = d->nodes[k].next;
		if (v == JNONE)
			break;
		if (jstr_eq(d, k, key))
			return v;
		k = d->nodes[v].next;
	}
	return JNONE;
}

/* Appends a pointer segment, escaping '~' and '/' (RFC 6901). */
static size_t put_segment(char *out, size_t pos, size_t outlen, const uint8_t *s, size_t n)
{
	if (pos + 1 < outlen)
		out[pos++] = '/';
	for (size_t i = 0; i < n && pos + 2 < outlen; i++) {
		if (s[i] == '~' || s[i] == '/') {
			out[pos++] = '~';
			out[pos++] = s[i] == '~' ? '0' : '1';
		} else if (s[i] >= 0x20 && s[i] < 0x7f)
			out[pos++] = (char)s[i];
		else
			out[pos++] = '?';
	}
	return pos;
}

void json_pointer(const struct jdoc *d, uint32_t i, char *out, size_t outlen)
{
	/* Collect the chain root..i (bounded by JSON_MAX_DEPTH), then print. */
	uint32_t chain[JSON_MAX_DEPTH + 1];
	size_t depth = 0;
	for (uint32_t k = i; k != UINT32_MAX && depth <= JSON_MAX_DEPTH; k = d->nodes[k].parent)
		chain[depth++] = k;
	size_t pos = 0;
	if (outlen)
		out[0] = 0;
	for (size_t j = depth; j-- > 1;) {
		uint32_t parent = chain[j], child = chain[j - 1];
		if (d->nodes[parent].type == J_ARR) {
			uint64_t idx = 0;
			for (uint32_t s = d->nodes[parent].first; s != JNONE && s != child; s = d->nodes[s].next)
				idx++;
			char num[24];
			int len = snprintf(num, sizeof num, "%llu", (unsigned long long)idx);
			pos = put_segment(out, pos, outlen, (const uint8_t *)num, (size_t)len);
		} else {
			/* In an object the key node precedes its value; a key stands for itself. */
			uint32_t key = (d->nodes[child].flags & JF_KEY) ? child : JNONE;
			for (uint32_t s = d->nodes[parent].first; s != JNONE && key == JNONE; s = d->nodes[s].next)
				if (d->nodes[s].next == child && (d->nodes[s].flags & JF_KEY))
					key = s;
			if (key != JNONE)
				pos = put_segment(out, pos, outlen, jstr(d, key), d->nodes[key].count);
		}
		if (pos < outlen)
			out[pos] = 0;
	}
}
