/* The JSON rules: reporting at a node, integer fields, types, duplicate and unknown keys. */
#include "json_check.h"
#include "rule_table.h"
#include "json_string.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a diagnostic points: node, then the value at path inside it (a
 * cell of a row by its position, an entry of that cell), then delta bytes
 * into it. */
struct jat {
	uint32_t node;
	uint32_t path[2];
	size_t depth;
	uint32_t delta;
};

static void vreport(struct tl_json_check *v, enum tl_rule_id rule, const struct jat *at, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* Will tl_report deliver a diagnostic of this severity? Past the error limit
 * (and past it for warnings) nothing is shown, so the location is not worth
 * computing: a file of a million defects must not cost a pointer and a line
 * number each. The warning that crosses the limit still gets its location
 * (the core may note the limit at it). */
static bool shown(const struct tl_ctx *ctx, enum tl_severity severity)
{
	unsigned limit = ctx->opts->max_errors;
	/* a baseline judges every diagnostic counted (tl_options.is_known) by
	 * its pointer and message, shown or not */
	if (ctx->opts->is_known)
		return true;
	if (!ctx->opts->on_diag || ctx->stopped)
		return false;
	return !(limit && severity == TL_WARNING && ctx->result->warnings > limit);
}

static void vreport(struct tl_json_check *v, enum tl_rule_id rule, const struct jat *at, const char *fmt, va_list ap)
{
	if (v->doc.nomem) { /* a row could not be read: what it would say is unknown */
		tl_jv_out_of_memory(v);
		return;
	}
	if (!v->ctx) {
		if (tl_rule_by_id(rule)->severity == TL_ERROR)
			v->failed = true;
		return;
	}
	if (!shown(v->ctx, tl_rule_by_id(rule)->severity)) {
		struct tl_location none = tl_at(0);
		tl_report(v->ctx, rule, &none, TL_MSG_RENDERED, ""); /* counted only */
		return;
	}
	char msg[512], ptr[256];
	vsnprintf(msg, sizeof msg, fmt, ap);
	uint64_t off;
	/* A value that cannot be found (its row is gone) is reported at its row. */
	if (!at->depth || !tl_json_locate(&v->doc, at->node, at->path, at->depth, &off, ptr, sizeof ptr)) {
		off = tl_json_off(&v->doc, at->node);
		tl_json_pointer(&v->doc, at->node, ptr, sizeof ptr);
	}
	uint32_t line, col;
	tl_json_line_col(&v->doc, off, &line, &col);
	struct tl_location loc = tl_at_text(off + at->delta, line, col + at->delta);
	loc.pointer = ptr;
	tl_report(v->ctx, rule, &loc, TL_MSG_RENDERED, msg);
}

void tl_jv_report_in(struct tl_json_check *v, enum tl_rule_id rule, uint32_t node, uint32_t delta, const char *fmt, ...)
{
	struct jat at = { node, { 0, 0 }, 0, delta };
	va_list ap;
	va_start(ap, fmt);
	vreport(v, rule, &at, fmt, ap);
	va_end(ap);
}

void tl_jv_report(struct tl_json_check *v, enum tl_rule_id rule, uint32_t node, const char *fmt, ...)
{
	struct jat at = { node, { 0, 0 }, 0, 0 };
	va_list ap;
	va_start(ap, fmt);
	vreport(v, rule, &at, fmt, ap);
	va_end(ap);
}

void tl_jv_report_cell(struct tl_json_check *v, enum tl_rule_id rule, uint32_t row, int pos, const char *fmt, ...)
{
	struct jat at = { row, { (uint32_t)pos, 0 }, pos >= 0, 0 };
	va_list ap;
	va_start(ap, fmt);
	vreport(v, rule, &at, fmt, ap);
	va_end(ap);
}

void tl_jv_report_entry(struct tl_json_check *v, enum tl_rule_id rule, uint32_t row, int pos, uint32_t index, const char *fmt, ...)
{
	struct jat at = { row, { (uint32_t)pos, index }, pos >= 0 ? 2 : 0, 0 };
	va_list ap;
	va_start(ap, fmt);
	vreport(v, rule, &at, fmt, ap);
	va_end(ap);
}

/* The memory past which a document is refused: --max-memory, and, once over
 * AMPLIFY_FLOOR, AMPLIFY_RATIO times the file as given, so that a small
 * compressed file (or one of repeated keys) cannot take the machine the way
 * expat's billion laughs would, while real files, at most about 25 bytes of
 * reader a byte of text, stay far below. */
#define AMPLIFY_FLOOR ((uint64_t)64 << 20)
#define AMPLIFY_RATIO 1000u

static uint64_t budget(const struct tl_json_check *v, size_t size)
{
	uint64_t cap = v->ctx && v->ctx->opts->max_memory ? v->ctx->opts->max_memory : TL_MAX_MEMORY_DEFAULT;
	uint64_t given = v->in && v->in->given_size ? v->in->given_size : size;
	uint64_t amplified = given > AMPLIFY_FLOOR / AMPLIFY_RATIO ? given * AMPLIFY_RATIO : AMPLIFY_FLOOR;
	return amplified < cap ? amplified : cap;
}

/* Past the budget: a finding about the file's cost (exit 2, no verdict). */
static void over_budget(struct tl_json_check *v, const struct tl_location *loc, const char *what)
{
	v->failed = true;
	v->nomem = true;
	if (!v->ctx)
		return;
	uint64_t cap = v->ctx->opts->max_memory ? v->ctx->opts->max_memory : TL_MAX_MEMORY_DEFAULT;
	bool amplified = v->doc.budget < cap;
	tl_report(v->ctx, RULE_TL_RESOURCE_LIMIT, loc,
		  MSG_TL_RESOURCE_LIMIT,
		  (unsigned long long)v->doc.budget,
		  amplified ? "1000 times the file's size as given, past 64 MiB" : "--max-memory", what);
	tl_unreadable(v->ctx, "cannot validate %s: it needs more memory than allowed (%s)",
		      v->ctx->path ? v->ctx->path : "the input",
		      amplified ? "amplification limit" : "--max-memory");
}

void tl_jv_out_of_memory(struct tl_json_check *v)
{
	if (v->doc.over_budget) {
		struct tl_location loc = tl_at_text(v->doc.cur_start, 0, 0);
		over_budget(v, &loc, "a row that needs more");
		return;
	}
	v->failed = true;
	v->nomem = true;
	if (v->ctx)
		tl_out_of_memory(v->ctx);
}

bool tl_jv_parse(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_json_lazy_key *lazy, size_t nlazy)
{
	return tl_jv_parse_known(v, data, size, lazy, nlazy, NULL, 0);
}

bool tl_jv_parse_known(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_json_lazy_key *lazy, size_t nlazy,
		       const char *const *known, size_t nknown)
{
	struct tl_json_error err;
	/* Only the repeated keys that can be shown are kept with their pointer. */
	size_t keep = !v->ctx ? 0 : v->ctx->opts->max_errors ? v->ctx->opts->max_errors : SIZE_MAX;
	struct tl_json_parse_opts o = { lazy, nlazy, known, nknown, v->in, keep, budget(v, size) };
	if (tl_json_parse_with(&v->doc, data, size, &o, &err))
		return true;
	v->failed = true;
	if (err.kind == JE_LIMIT) {
		struct tl_location loc = tl_at_text(err.off, err.line, err.col);
		over_budget(v, &loc, err.msg);
	} else if (err.kind == JE_NOMEM) {
		tl_jv_out_of_memory(v);
	} else if (v->ctx) {
		struct tl_location loc = tl_at_text(err.off, err.line, err.col);
		/* the parser rendered err.msg from MSG_JSON_SYNTAX or MSG_JSON_DEPTH */
		tl_report(v->ctx, err.kind == JE_DEPTH ? RULE_JSON_DEPTH : RULE_JSON_SYNTAX, &loc, TL_MSG_RENDERED, err.msg);
	}
	return false;
}

void tl_jv_check_duplicate_keys(struct tl_json_check *v)
{
	const struct tl_json_doc *d = &v->doc;
	for (size_t i = 0; i < d->ndups; i++) {
		const struct tl_json_dup *u = &d->dups[i];
		char q[80];
		uint32_t line, col, fline, fcol;
		tl_json_line_col(d, u->key_off, &line, &col);
		tl_json_line_col(d, u->first_off, &fline, &fcol);
		const uint8_t *key = d->buf + u->key_off + 1;
		char as_read[96] = "";
		if (memchr(key, '\\', u->len)) { /* say what it repeats */
			uint8_t text[64];
			char qd[80];
			size_t n = tl_json_decode(key, u->len, text, sizeof text);
			snprintf(as_read, sizeof as_read, " (read as \"%s\")", tl_quote(qd, sizeof qd, text, n));
		}
		/* Kept repeats have a context: without one tl_jv_parse keeps none,
		 * and every repeat is counted in dups_dropped below. */
		struct tl_location loc = tl_at_text(u->key_off, line, col);
		loc.pointer = u->pointer;
		tl_report(v->ctx, RULE_JSON_DUPLICATE_KEY, &loc, MSG_JSON_DUPLICATE_KEY_2,
			  tl_quote(q, sizeof q, key, u->len), as_read, fline, fcol);
	}
	if (!d->dups_dropped)
		return;
	if (!v->ctx) {
		if (tl_rule_by_id(RULE_JSON_DUPLICATE_KEY)->severity == TL_ERROR)
			v->failed = true;
		return;
	}
	/* Past --max-errors: counted in the summary, never shown. */
	const struct tl_json_dup *last = &d->dups[d->ndups - 1];
	uint32_t line, col;
	tl_json_line_col(d, last->key_off, &line, &col);
	struct tl_location loc = tl_at_text(last->key_off, line, col);
	for (uint64_t i = 0; i < d->dups_dropped; i++)
		tl_report(v->ctx, RULE_JSON_DUPLICATE_KEY, &loc, MSG_JSON_DUPLICATE_KEY);
}

const char *tl_json_type_name(enum tl_json_type t)
{
	switch (t) {
	case J_NULL: return "null";
	case J_FALSE:
	case J_TRUE: return "a boolean";
	case J_NUM: return "a number";
	case J_STR: return "a string";
	case J_ARR: return "an array";
	case J_OBJ: return "an object";
	}
	return "a value";
}

bool tl_jv_expect(struct tl_json_check *v, uint32_t node, enum tl_json_type type, const char *what)
{
	if (jn(&v->doc, node)->type == type)
		return true;
	tl_jv_report(v, RULE_JSON_TYPE, node, MSG_JSON_TYPE, what, tl_json_type_name(type),
		  tl_json_type_name((enum tl_json_type)jn(&v->doc, node)->type));
	return false;
}

/* Decimal digits [s, s+n) into *out; false on overflow or a non-digit.
 * avail bytes may be read from s (at least n): numbers of up to 8 digits
 * with 8 readable bytes are read as one word, longer ones 8 digits a word. */
static bool parse_dec(const uint8_t *s, size_t n, size_t avail, uint64_t *out)
{
	uint64_t x = 0;
	if (n <= 19) { /* n >= 1: a number token, or a string tl_jv_int saw non-empty */ /* below 10^19: cannot overflow */
		size_t i = 0;
#ifdef JLEX_SWAR_DIGITS
		uint64_t w, v;
		if (n <= 8 && avail >= 8)
			return jlex_small_int(s, n, out);
		for (; i + 8 <= n; i += 8) {
			memcpy(&w, s + i, 8);
			if (!jlex_swar8(w, &v))
				return false;
			x = x * 100000000u + v;
		}
#else
		(void)avail;
#endif
		for (; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return false;
			x = x * 10 + (uint64_t)(s[i] - '0');
		}
		*out = x;
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (!tl_mul_u64(x, 10, &x) || !tl_add_u64(x, (uint64_t)(s[i] - '0'), &x))
			return false;
	}
	*out = x;
	return true;
}

static bool parse_hex(const uint8_t *s, size_t n, uint64_t *out)
{
	uint64_t x = 0;
	if (n > 16) /* n >= 1: tl_jv_int passes the digits after "0x" of a longer string */
		return false;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		unsigned h;
		if (c >= '0' && c <= '9')
			h = c - '0';
		else if (c >= 'a' && c <= 'f')
			h = c - 'a' + 10u;
		else if (c >= 'A' && c <= 'F')
			h = c - 'A' + 10u;
		else
			return false;
		x = (x << 4) | h;
	}
	*out = x;
	return true;
}

bool tl_jv_int_read(struct tl_json_check *v, uint32_t node, uint64_t lo, uint64_t hi, const char *what, uint64_t *out)
{
	const struct tl_json_node *n = jn(&v->doc, node);
	const uint8_t *s = v->doc.buf + n->off;
	char q[64];
	uint64_t x = 0;
	if (n->type == J_NUM) {
		if (!parse_dec(s, n->count, v->doc.size - n->off, &x)) {
			tl_jv_report(v, RULE_JSON_INTEGER, node,
				  MSG_JSON_INTEGER,
				  what, tl_quote(q, sizeof q, s, n->count));
			return false;
		}
	} else if (n->type == J_STR) {
		const uint8_t *t = s + 1;
		size_t len = n->count;
		if (len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
			if (!parse_hex(t + 2, len - 2, &x)) {
				tl_jv_report(v, RULE_JSON_INTEGER, node,
					  MSG_JSON_INTEGER_2, what,
					  tl_quote(q, sizeof q, t, len));
				return false;
			}
		} else if (len >= 1 && !(len > 1 && t[0] == '0') && parse_dec(t, len, v->doc.size - n->off - 1, &x)) {
			tl_jv_report(v, RULE_JSON_DECIMAL_STRING, node,
				  MSG_JSON_DECIMAL_STRING,
				  what, tl_quote(q, sizeof q, t, len), (unsigned long long)x);
		} else {
			tl_jv_report(v, RULE_JSON_INTEGER, node,
				  MSG_JSON_INTEGER_3, what,
				  tl_quote(q, sizeof q, t, len));
			return false;
		}
	} else {
		tl_jv_report(v, RULE_JSON_INTEGER, node, MSG_JSON_INTEGER_4, what,
			  tl_json_type_name((enum tl_json_type)n->type));
		return false;
	}
	if (x < lo || x > hi) {
		tl_jv_report(v, RULE_JSON_INTEGER, node, MSG_JSON_INTEGER_5, what,
			  (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)x);
		return false;
	}
	*out = x;
	return true;
}

void tl_jv_known_keys(struct tl_json_check *v, uint32_t obj, const char *const *keys, size_t n, const char *what)
{
	struct tl_json_doc *d = &v->doc;
	for (uint32_t k = jn(d, obj)->first; k != JNONE; ) {
		bool known = false;
		for (size_t i = 0; i < n && !known; i++)
			known = tl_json_str_eq(d, k, keys[i]);
		if (!known) {
			char q[80];
			tl_jv_report(v, RULE_JSON_UNKNOWN_KEY, k, MSG_JSON_UNKNOWN_KEY_2,
				  what, tl_quote(q, sizeof q, jstr(d, k), jn(d, k)->count));
		}
		uint32_t val = jsibling(d, k);
		k = val == JNONE ? JNONE : jsibling(d, val);
	}
}
