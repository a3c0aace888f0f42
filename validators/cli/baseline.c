/* Baseline files: JSON, {"tool": "tracelint", "baseline": 1, "diagnostics":
 * [{"path", "rule", "fingerprint", "message"}]}. The fingerprint alone
 * decides a match (tl_diagnostic_fingerprint); path, rule and message are
 * there for the people who read and review the file. */
#include "baseline.h"
#include "grow.h"
#include "safe_text.h"
#include "str_pack.h"
#include "json_string.h"
#include "json_tree.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#define BASELINE_VERSION 1

static bool push(struct baseline *b, const char *path, const char *rule, const char *message,
		 const char *fingerprint)
{
	struct baseline_entry *more = tl_grow_array(b->entries, &b->cap, b->count, sizeof *more, 64);
	if (!more)
		return false;
	b->entries = more;
	struct baseline_entry *e = &b->entries[b->count];
	memset(e, 0, sizeof *e);
	const char *in[3] = { path, rule, message }, *out[3];
	e->strings = tl_str_pack(3, in, out);
	if (!e->strings)
		return false;
	e->path = out[0];
	e->rule = out[1];
	e->message = out[2];
	snprintf(e->fingerprint, sizeof e->fingerprint, "%s", fingerprint);
	e->seq = b->count;
	b->count++;
	return true;
}

bool baseline_add(struct baseline *b, const char *path, const struct tl_diagnostic *d,
		  const char *fingerprint)
{
	return push(b, path, d->rule->id, d->message, fingerprint);
}

static int by_fingerprint(const void *a, const void *b)
{
	const struct baseline_entry *x = a, *y = b;
	int c = strcmp(x->fingerprint, y->fingerprint);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Baselines are read with the library's own JSON reader: json-c's parser
 * dereferences a failed allocation when memory runs out. */

/* The decoded text of o[key] when it is a string: a copy to free, or NULL
 * (*nomem set when memory ran out). */
static char *member_string(struct jdoc *d, uint32_t o, const char *key, bool *nomem)
{
	uint32_t v = tl_json_obj_get(d, o, key);
	if (v == JNONE || jn(d, v)->type != J_STR)
		return NULL;
	const uint8_t *raw = jstr(d, v);
	size_t n = jn(d, v)->count, len = tl_json_decoded_len(raw, n);
	char *text = malloc(len + 1);
	if (!text) {
		*nomem = true;
		return NULL;
	}
	text[tl_json_decode(raw, n, (uint8_t *)text, len)] = '\0';
	return text;
}

static bool is_fingerprint(const char *s)
{
	if (!s || strlen(s) != 16)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static bool is_version(struct jdoc *d, uint32_t v)
{
	return v != JNONE && jn(d, v)->type == J_NUM && jn(d, v)->count == 1 &&
	       d->buf[jn(d, v)->off] == '0' + BASELINE_VERSION;
}

static bool load_entries(struct baseline *b, struct jdoc *d, const char *file, char *err,
			 size_t errlen)
{
	uint32_t list = jn(d, 0)->type == J_OBJ ? tl_json_obj_get(d, 0, "diagnostics") : JNONE;
	if (!is_version(d, jn(d, 0)->type == J_OBJ ? tl_json_obj_get(d, 0, "baseline") : JNONE) ||
	    list == JNONE || jn(d, list)->type != J_ARR) {
		snprintf(err, errlen, "%s: expected a tracelint baseline (an object with \"baseline\": %d "
			 "and a \"diagnostics\" array)", file, BASELINE_VERSION);
		return false;
	}
	size_t i = 0;
	for (uint32_t e = jn(d, list)->first; e != JNONE; e = jsibling(d, e), i++) {
		bool nomem = false, ok = jn(d, e)->type == J_OBJ;
		char *path = ok ? member_string(d, e, "path", &nomem) : NULL;
		char *rule = ok ? member_string(d, e, "rule", &nomem) : NULL;
		char *fp = ok ? member_string(d, e, "fingerprint", &nomem) : NULL;
		char *message = ok ? member_string(d, e, "message", &nomem) : NULL;
		ok = !nomem && path && rule && is_fingerprint(fp) &&
		     push(b, path, rule, message ? message : "", fp);
		if (!ok && (nomem || (path && rule && is_fingerprint(fp))))
			snprintf(err, errlen, "%s: out of memory", file);
		else if (!ok)
			snprintf(err, errlen, "%s: diagnostics[%zu]: expected \"path\", \"rule\" and a "
				 "16-hex-digit \"fingerprint\"", file, i);
		free(path);
		free(rule);
		free(fp);
		free(message);
		if (!ok)
			return false;
	}
	return true;
}

/* The whole file in memory. */
static uint8_t *slurp(const char *file, size_t *size, char *err, size_t errlen)
{
	FILE *f = fopen(file, "rb");
	uint8_t *text = NULL;
	size_t cap = 0, n = 0;
	if (!f) {
		snprintf(err, errlen, "cannot read the baseline %s: %s", file, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *more = tl_grow_array(text, &cap, n, 1, 1 << 16);
			if (!more) {
				snprintf(err, errlen, "cannot read the baseline %s: out of memory", file);
				free(text);
				fclose(f);
				return NULL;
			}
			text = more;
		}
		size_t got = fread(text + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read the baseline %s: %s", file, strerror(errno));
		free(text);
		text = NULL;
	}
	fclose(f);
	*size = n;
	return text;
}

bool baseline_load(struct baseline *b, const char *file, char *err, size_t errlen)
{
	size_t size = 0;
	uint8_t *text = slurp(file, &size, err, errlen);
	if (!text)
		return false;
	struct jdoc doc;
	struct jerror jerr;
	memset(&doc, 0, sizeof doc);
	bool ok = tl_json_parse(&doc, text, size, &jerr);
	if (!ok && jerr.kind == JE_NOMEM)
		snprintf(err, errlen, "cannot read the baseline %s: out of memory", file);
	else if (!ok)
		snprintf(err, errlen, "%s: not JSON: %s (line %u, column %u)", file, jerr.msg, jerr.line, jerr.col);
	ok = ok && load_entries(b, &doc, file, err, errlen);
	tl_json_free(&doc);
	free(text);
	if (ok && b->count)
		qsort(b->entries, b->count, sizeof *b->entries, by_fingerprint);
	return ok;
}

bool baseline_match(struct baseline *b, const char *fingerprint)
{
	/* the first entry with this fingerprint, then the first of them unmatched */
	size_t lo = 0, hi = b->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(b->entries[mid].fingerprint, fingerprint) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->count && strcmp(b->entries[lo].fingerprint, fingerprint) == 0; lo++) {
		if (!b->entries[lo].matched) {
			b->entries[lo].matched = true;
			return true;
		}
	}
	return false;
}

/* Paths and messages may hold any bytes; JSON holds UTF-8 (see safe_text.h). */
static json_object *utf8_string(const char *s)
{
	char out[2 * 4096 + 1];
	tl_utf8_repair(out, sizeof out, s);
	return json_object_new_string(out);
}

bool baseline_write(const struct baseline *b, const char *file, char *err, size_t errlen)
{
	json_object *root = json_object_new_object();
	json_object_object_add(root, "tool", json_object_new_string("tracelint"));
	json_object_object_add(root, "baseline", json_object_new_int(BASELINE_VERSION));
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < b->count; i++) {
		const struct baseline_entry *e = &b->entries[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "path", utf8_string(e->path));
		json_object_object_add(o, "rule", json_object_new_string(e->rule));
		json_object_object_add(o, "fingerprint", json_object_new_string(e->fingerprint));
		json_object_object_add(o, "message", utf8_string(e->message));
		json_object_array_add(list, o);
	}
	json_object_object_add(root, "diagnostics", list);
	/* written beside the target and renamed, so a failed write keeps the old baseline */
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", file);
	bool ok = json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_NOSLASHESCAPE) == 0;
	int saved = errno;
	json_object_put(root);
	if (ok && rename(tmp, file) != 0) {
		saved = errno;
		ok = false;
	}
	if (!ok) {
		remove(tmp);
		snprintf(err, errlen, "cannot write the baseline %s: %s", file, strerror(saved));
	}
	return ok;
}

void baseline_free(struct baseline *b)
{
	tl_free_array(b->entries, b->count, sizeof *b->entries, offsetof(struct baseline_entry, strings));
	memset(b, 0, sizeof *b);
}
