/* Content comparison (--content): a reader adapter prints what it decoded
 * in the schema of `tracelint dump` (JSON Lines, each object with a "kind"),
 * and the kit compares that with the case's <case>.content.expected, line
 * by line, after cutting the expected lines down to the kinds of line the
 * reader covers (those its header line lists as "kinds", else those it
 * prints) and the keys it prints at all: a reader may print a subset of the
 * schema (only frames, say, without byte offsets). With sort,
 * the lines after the header are sorted on both sides by "tsc" and then by
 * their text, as llvm-xray sorts its records. The first difference is
 * written out for the report. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"

struct line {
	char *text;        /* the projected object, keys sorted, as JSON */
	long long tsc;
	bool has_tsc;
};

struct lines {
	json_object **objs;
	size_t n;
};

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		json_object_put(l->objs[i]);
	free(l->objs);
	memset(l, 0, sizeof *l);
}

/* Reads the JSON Lines of path; -1 with why on a line that is not an object with a kind. */
static int lines_load(const char *path, struct lines *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	size_t size;
	char *text = read_file(path, &size);
	if (!text) {
		snprintf(why, whylen, "cannot read %s", path);
		return -1;
	}
	unsigned lineno = 0;
	int rc = 0;
	for (char *p = text, *next; p && *p; p = next) {
		lineno++;
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		if (!*p)
			continue;
		json_object *o = json_tokener_parse(p);
		json_object *kind;
		if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "kind", &kind)) {
			json_object_put(o);
			snprintf(why, whylen, "line %u of the reader's content is not a JSON object with a \"kind\"",
				 lineno);
			rc = -1;
			break;
		}
		out->objs = xrealloc(out->objs, (out->n + 1) * sizeof *out->objs);
		out->objs[out->n++] = o;
	}
	free(text);
	if (rc)
		lines_free(out);
	return rc;
}

/* The keys the reader prints on some line. */
struct keyset {
	char **keys;
	size_t n;
};

static bool keyset_has(const struct keyset *k, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->keys[i], key) == 0)
			return true;
	return false;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void keyset_of(const struct lines *l, struct keyset *k)
{
	memset(k, 0, sizeof *k);
	for (size_t i = 0; i < l->n; i++) {
		json_object_object_foreach(l->objs[i], key, val) {
			(void)val;
			if (!keyset_has(k, key)) {
				k->keys = xrealloc(k->keys, (k->n + 1) * sizeof *k->keys);
				k->keys[k->n++] = xstrdup(key);
			}
		}
	}
	qsort(k->keys, k->n, sizeof *k->keys, by_string);
}

static void keyset_free(struct keyset *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->keys[i]);
	free(k->keys);
}

/* obj cut down to the keys of k, in their sorted order, as JSON text. */
static void project(json_object *obj, const struct keyset *k, struct line *out)
{
	json_object *p = json_object_new_object();
	for (size_t i = 0; i < k->n; i++) {
		json_object *v;
		if (json_object_object_get_ex(obj, k->keys[i], &v))
			json_object_object_add(p, k->keys[i], json_object_get(v));
	}
	json_object *tsc;
	out->has_tsc = json_object_object_get_ex(obj, "tsc", &tsc) && json_object_is_type(tsc, json_type_int);
	out->tsc = out->has_tsc ? (long long)json_object_get_int64(tsc) : 0;
	out->text = xstrdup(json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN));
	json_object_put(p);
}

static int by_tsc_then_text(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	if (x->has_tsc != y->has_tsc)
		return x->has_tsc ? -1 : 1;
	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	return strcmp(x->text, y->text);
}

static struct line *projected(const struct lines *l, const struct keyset *k, bool sort)
{
	struct line *v = xrealloc(NULL, (l->n ? l->n : 1) * sizeof *v);
	for (size_t i = 0; i < l->n; i++)
		project(l->objs[i], k, &v[i]);
	if (sort && l->n > 1)
		qsort(v + 1, l->n - 1, sizeof *v, by_tsc_then_text);
	return v;
}

static void projected_free(struct line *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

static const char *kind_of(json_object *o)
{
	json_object *k;
	return json_object_object_get_ex(o, "kind", &k) ? json_object_get_string(k) : "";
}

/* Whether the reader covers lines of kind: those its header's "kinds" lists
 * (taken out of the header: it is no content), else those it printed. */
static bool covered(json_object *declared, const struct lines *got, const char *kind)
{
	if (strcmp(kind, "header") == 0)
		return true;
	if (declared) {
		size_t n = json_object_array_length(declared);
		for (size_t i = 0; i < n; i++)
			if (strcmp(kind, json_object_get_string(json_object_array_get_idx(declared, i))) == 0)
				return true;
		return false;
	}
	for (size_t j = 0; j < got->n; j++)
		if (strcmp(kind, kind_of(got->objs[j])) == 0)
			return true;
	return false;
}

/* Drops from want the lines of kinds the reader does not cover. */
static void drop_other_kinds(struct lines *want, const struct lines *got)
{
	json_object *declared = NULL;
	if (got->n && strcmp(kind_of(got->objs[0]), "header") == 0 &&
	    json_object_object_get_ex(got->objs[0], "kinds", &declared) &&
	    json_object_is_type(declared, json_type_array))
		json_object_get(declared);
	else
		declared = NULL;
	if (declared)
		json_object_object_del(got->objs[0], "kinds");
	size_t kept = 0;
	for (size_t i = 0; i < want->n; i++) {
		if (covered(declared, got, kind_of(want->objs[i])))
			want->objs[kept++] = want->objs[i];
		else
			json_object_put(want->objs[i]);
	}
	want->n = kept;
	json_object_put(declared);
}

int content_compare(const char *expected_path, const char *actual_path, bool sort, char *diff,
		    size_t difflen)
{
	struct lines want, got;
	if (lines_load(actual_path, &got, diff, difflen) != 0)
		return 1; /* what the reader printed is not content: a difference */
	if (lines_load(expected_path, &want, diff, difflen) != 0) {
		lines_free(&got);
		return -1;
	}
	drop_other_kinds(&want, &got);
	struct keyset keys;
	keyset_of(&got, &keys);
	if (!keyset_has(&keys, "kind")) {
		keys.keys = xrealloc(keys.keys, (keys.n + 1) * sizeof *keys.keys);
		keys.keys[keys.n++] = xstrdup("kind");
	}
	struct line *w = projected(&want, &keys, sort), *g = projected(&got, &keys, sort);
	int rc = 0;
	size_t n = want.n > got.n ? want.n : got.n;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *a = i < want.n ? w[i].text : NULL, *b = i < got.n ? g[i].text : NULL;
		if (a && b && strcmp(a, b) == 0)
			continue;
		rc = 1;
		snprintf(diff, difflen, "line %zu%s: expected %s, found %s", i + 1, sort ? " (sorted)" : "",
			 a ? a : "the end of the content", b ? b : "the end of the content");
	}
	projected_free(w, want.n);
	projected_free(g, got.n);
	keyset_free(&keys);
	lines_free(&want);
	lines_free(&got);
	return rc;
}

const char *content_explanation(const struct explanations *ex, const char *case_name)
{
	char key[4200];
	snprintf(key, sizeof key, "content:%s", case_name);
	/* DIS_COUNT: only lines without a class prefix, whose key then starts "content:" */
	return explanation_for(ex, DIS_COUNT, key, NULL);
}
