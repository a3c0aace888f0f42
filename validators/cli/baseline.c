/* Baseline files: JSON, {"tool": "tracelint", "baseline": 1, "diagnostics":
 * [{"path", "rule", "fingerprint", "message"}]}. The fingerprint alone
 * decides a match (tl_diagnostic_fingerprint); path, rule and message are
 * there for the people who read and review the file. */
#include "baseline.h"
#include "grow.h"
#include "safe_text.h"

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
	e->path = strdup(path);
	e->rule = strdup(rule);
	e->message = strdup(message);
	snprintf(e->fingerprint, sizeof e->fingerprint, "%s", fingerprint);
	e->seq = b->count;
	if (!e->path || !e->rule || !e->message) {
		free(e->path);
		free(e->rule);
		free(e->message);
		return false;
	}
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

static const char *member_string(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool is_fingerprint(const char *s)
{
	if (strlen(s) != 16)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static bool load_entries(struct baseline *b, json_object *root, const char *file, char *err,
			 size_t errlen)
{
	json_object *version, *list;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "baseline", &version) ||
	    json_object_get_int(version) != BASELINE_VERSION ||
	    !json_object_object_get_ex(root, "diagnostics", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		snprintf(err, errlen, "%s: expected a tracelint baseline (an object with \"baseline\": %d "
			 "and a \"diagnostics\" array)", file, BASELINE_VERSION);
		return false;
	}
	size_t n = json_object_array_length(list);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(list, i);
		const char *path = member_string(e, "path"), *rule = member_string(e, "rule");
		const char *fp = member_string(e, "fingerprint"), *message = member_string(e, "message");
		if (!path || !rule || !fp || !is_fingerprint(fp)) {
			snprintf(err, errlen, "%s: diagnostics[%zu]: expected \"path\", \"rule\" and a "
				 "16-hex-digit \"fingerprint\"", file, i);
			return false;
		}
		if (!push(b, path, rule, message ? message : "", fp)) {
			snprintf(err, errlen, "%s: out of memory", file);
			return false;
		}
	}
	return true;
}

bool baseline_load(struct baseline *b, const char *file, char *err, size_t errlen)
{
	errno = 0;
	json_object *root = json_object_from_file(file);
	if (!root) {
		/* json-c says "not JSON" and "no memory" alike: errno tells them apart */
		bool nomem = errno == ENOMEM;
		FILE *f = nomem ? NULL : fopen(file, "r");
		if (nomem)
			snprintf(err, errlen, "cannot read the baseline %s: out of memory", file);
		else if (!f)
			snprintf(err, errlen, "cannot read the baseline %s: %s", file, strerror(errno));
		else
			snprintf(err, errlen, "%s: not JSON: %s", file, json_util_get_last_err());
		if (f)
			fclose(f);
		return false;
	}
	bool ok = load_entries(b, root, file, err, errlen);
	json_object_put(root);
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
	for (size_t i = 0; i < b->count; i++) {
		free(b->entries[i].path);
		free(b->entries[i].rule);
		free(b->entries[i].message);
	}
	free(b->entries);
	memset(b, 0, sizeof *b);
}
