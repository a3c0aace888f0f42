/* See baseline_read.h. A small pull reader for the one shape a baseline
 * has; everything else in the file is checked to be JSON and skipped. */
#include "baseline_read.h"
#include "json_string.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The longest string kept (paths, messages); longer ones are an error. */
enum { STRING_MAX = 1 << 16, DEPTH_MAX = 512 };

enum { S_PATH, S_RULE, S_FINGERPRINT, S_MESSAGE, S_KEY, S_COUNT };

struct reader {
	FILE *f;
	const char *name;
	unsigned line, column;
	int ahead;               /* the next character, read */
	char *err;
	size_t errlen;
	bool failed;
	uint8_t *raw[S_COUNT];   /* a string as written, escapes included */
	size_t raw_len[S_COUNT];
	bool have[S_COUNT];
	char *text[S_COUNT];     /* decoded */
};

static void advance(struct reader *r)
{
	if (r->ahead == '\n') {
		r->line++;
		r->column = 0;
	}
	r->ahead = getc(r->f);
	r->column++;
}

static bool fail(struct reader *r, const char *what)
{
	if (!r->failed) {
		if (ferror(r->f))
			snprintf(r->err, r->errlen, "cannot read the baseline %s", r->name);
		else
			snprintf(r->err, r->errlen, "%s: not JSON: %s (line %u, column %u)", r->name, what,
				 r->line, r->column);
	}
	r->failed = true;
	return false;
}

static void spaces(struct reader *r)
{
	while (r->ahead == ' ' || r->ahead == '\t' || r->ahead == '\n' || r->ahead == '\r')
		advance(r);
}

static bool expect(struct reader *r, int c, const char *what)
{
	spaces(r);
	if (r->ahead != c)
		return fail(r, what);
	advance(r);
	return true;
}

static bool is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string into raw[slot] (or only checked, slot < 0); at its opening quote. */
static bool string(struct reader *r, int slot)
{
	size_t n = 0;
	if (!expect(r, '"', "expected a string"))
		return false;
	for (;;) {
		int c = r->ahead;
		if (c == EOF)
			return fail(r, "a string is not closed");
		if (c < 0x20)
			return fail(r, "a control character in a string");
		advance(r);
		if (c == '"')
			break;
		int more = 0;
		if (c == '\\') {
			int e = r->ahead;
			if (!strchr("\"\\/bfnrtu", e) || e == EOF)
				return fail(r, "an unknown escape in a string");
			more = e == 'u' ? 5 : 1;
		}
		for (int i = 0; i <= more; i++) {
			if (i > 0) {
				c = r->ahead;
				if (i > 1 && !is_hex(c))
					return fail(r, "\\u is not followed by four hex digits");
				advance(r);
			}
			if (slot >= 0) {
				if (n == STRING_MAX)
					return fail(r, "a string longer than 64 KiB");
				r->raw[slot][n++] = (uint8_t)c;
			}
		}
	}
	if (slot >= 0) {
		r->raw_len[slot] = n;
		r->have[slot] = true;
	}
	return true;
}

static void decode(struct reader *r, int slot)
{
	size_t n = tl_json_decode(r->raw[slot], r->raw_len[slot], (uint8_t *)r->text[slot], STRING_MAX);
	r->text[slot][n] = '\0';
}

/* A number, true, false or null: its characters into buf (cut). */
static bool scalar(struct reader *r, char *buf, size_t len)
{
	size_t n = 0;
	while (r->ahead != EOF && strchr("+-.0123456789eEtruefalsn", r->ahead)) {
		if (n + 1 < len)
			buf[n++] = (char)r->ahead;
		advance(r);
	}
	buf[n] = '\0';
	if (n == 0)
		return fail(r, "expected a value");
	if (buf[0] == 't' || buf[0] == 'f' || buf[0] == 'n') {
		if (strcmp(buf, "true") && strcmp(buf, "false") && strcmp(buf, "null"))
			return fail(r, "expected a value");
	} else {
		char *end;
		strtod(buf, &end);
		if (*end)
			return fail(r, "a malformed number");
	}
	return true;
}

/* Any value, checked and dropped. */
static bool skip(struct reader *r)
{
	char closers[DEPTH_MAX];
	int depth = 0;
	bool want_value = true;
	for (;;) {
		spaces(r);
		int c = r->ahead;
		if (want_value) {
			if (c == '{' || c == '[') {
				if (depth == DEPTH_MAX)
					return fail(r, "nested too deeply");
				closers[depth++] = c == '{' ? '}' : ']';
				advance(r);
				spaces(r);
				if (r->ahead == closers[depth - 1]) {
					advance(r);
					depth--;
					want_value = false;
				} else if (c == '{') {
					if (!string(r, -1) || !expect(r, ':', "expected ':'"))
						return false;
				}
				if (depth == 0 && !want_value)
					return true;
				continue;
			}
			if (c == '"') {
				if (!string(r, -1))
					return false;
			} else {
				char buf[64];
				if (!scalar(r, buf, sizeof buf))
					return false;
			}
			want_value = false;
			if (depth == 0)
				return true;
			continue;
		}
		/* after a value inside a container */
		if (c == ',') {
			advance(r);
			if (closers[depth - 1] == '}' &&
			    (!string(r, -1) || !expect(r, ':', "expected ':'")))
				return false;
			want_value = true;
		} else if (c == closers[depth - 1]) {
			advance(r);
			if (--depth == 0)
				return true;
		} else {
			return fail(r, "expected ',' or the end of a container");
		}
	}
}

/* The members of an object, one call of member() each; at '{'. */
static bool object(struct reader *r, bool (*member)(struct reader *, void *), void *user)
{
	if (!expect(r, '{', "expected an object"))
		return false;
	spaces(r);
	if (r->ahead == '}') {
		advance(r);
		return true;
	}
	for (;;) {
		if (!string(r, S_KEY) || !expect(r, ':', "expected ':'"))
			return false;
		decode(r, S_KEY);
		if (!member(r, user))
			return false;
		spaces(r);
		if (r->ahead == '}') {
			advance(r);
			return true;
		}
		if (!expect(r, ',', "expected ',' or '}'"))
			return false;
	}
}

static const char *const entry_keys[] = { "path", "rule", "fingerprint", "message" };

static bool entry_member(struct reader *r, void *user)
{
	(void)user;
	spaces(r);
	for (int s = S_PATH; s <= S_MESSAGE; s++)
		if (strcmp(r->text[S_KEY], entry_keys[s]) == 0 && r->ahead == '"')
			return string(r, s);
	return skip(r);
}

struct top {
	int *version;
	baseline_entry_fn entry;
	void *user;
	bool listed;
};

static bool is_fingerprint(const char *s)
{
	if (strlen(s) != 16)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static bool entries(struct reader *r, struct top *t)
{
	if (!expect(r, '[', "expected an array"))
		return false;
	spaces(r);
	if (r->ahead == ']') {
		advance(r);
		return true;
	}
	for (size_t i = 0;; i++) {
		memset(r->have, 0, sizeof r->have);
		spaces(r);
		bool ok = r->ahead == '{' ? object(r, entry_member, NULL) : skip(r) && false;
		if (r->failed)
			return false;
		for (int s = S_PATH; ok && s <= S_MESSAGE; s++)
			if (r->have[s])
				decode(r, s);
		if (!ok || !r->have[S_PATH] || !r->have[S_RULE] || !r->have[S_FINGERPRINT] ||
		    !is_fingerprint(r->text[S_FINGERPRINT])) {
			snprintf(r->err, r->errlen, "%s: diagnostics[%zu]: expected \"path\", \"rule\" and a "
				 "16-hex-digit \"fingerprint\"", r->name, i);
			return !(r->failed = true);
		}
		if (!t->entry(r->text[S_PATH], r->text[S_RULE], r->text[S_FINGERPRINT],
			      r->have[S_MESSAGE] ? r->text[S_MESSAGE] : "", t->user)) {
			snprintf(r->err, r->errlen, "cannot read the baseline %s: out of memory", r->name);
			return !(r->failed = true);
		}
		spaces(r);
		if (r->ahead == ']') {
			advance(r);
			return true;
		}
		if (!expect(r, ',', "expected ',' or ']'"))
			return false;
	}
}

static bool top_member(struct reader *r, void *user)
{
	struct top *t = user;
	spaces(r);
	if (strcmp(r->text[S_KEY], "diagnostics") == 0 && r->ahead == '[') {
		t->listed = true;
		return entries(r, t);
	}
	if (strcmp(r->text[S_KEY], "baseline") == 0 && r->ahead != '"' && r->ahead != '{' &&
	    r->ahead != '[') {
		char buf[64];
		if (!scalar(r, buf, sizeof buf))
			return false;
		*t->version = strlen(buf) == 1 && buf[0] >= '1' && buf[0] <= '9' ? buf[0] - '0' : 0;
		return true;
	}
	return skip(r);
}

bool baseline_read(FILE *f, const char *name, int *version, baseline_entry_fn entry, void *user,
		   char *err, size_t errlen)
{
	struct reader r = { .f = f, .name = name, .line = 1, .err = err, .errlen = errlen };
	struct top t = { version, entry, user, false };
	bool ok = true;
	*version = 0;
	for (int s = 0; s < S_COUNT && ok; s++) {
		r.raw[s] = malloc(STRING_MAX);
		r.text[s] = malloc(STRING_MAX + 1);
		ok = r.raw[s] && r.text[s];
	}
	if (!ok) {
		snprintf(err, errlen, "cannot read the baseline %s: out of memory", name);
	} else {
		rewind(f);
		r.ahead = getc(f);
		spaces(&r);
		/* JSON, but not an object: another kind of file */
		if (r.ahead != '{' && r.ahead != EOF)
			ok = skip(&r) && false;
		else
			ok = object(&r, top_member, &t);
		spaces(&r);
		if (ok && r.ahead != EOF)
			ok = fail(&r, "more after the document");
		if (ok && ferror(f))
			ok = fail(&r, "");
		if ((ok && !t.listed) || (!ok && !r.failed)) {
			snprintf(err, errlen, "%s: expected a tracelint baseline (an object with \"baseline\": 2 "
				 "and a \"diagnostics\" array)", name);
			r.failed = true;
			ok = false;
		}
	}
	for (int s = 0; s < S_COUNT; s++) {
		free(r.raw[s]);
		free(r.text[s]);
	}
	return ok;
}
