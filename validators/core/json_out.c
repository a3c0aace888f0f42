#include "json_out.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

void tl_jset(bool *nomem, json_object *obj, const char *key, json_object *val)
{
	if (!obj || !val || json_object_object_add(obj, key, val) != 0) {
		*nomem = true;
		json_object_put(val);
	}
}

void tl_jset_null(bool *nomem, json_object *obj, const char *key)
{
	if (!obj || json_object_object_add(obj, key, NULL) != 0)
		*nomem = true;
}

void tl_jpush(bool *nomem, json_object *arr, json_object *val)
{
	if (!arr || !val || json_object_array_add(arr, val) != 0) {
		*nomem = true;
		json_object_put(val);
	}
}

json_object *tl_jmade(bool *nomem, json_object *made)
{
	if (!made)
		*nomem = true;
	return made;
}

/* The document is written to the stream as json-c's pretty printer lays it
 * out (two spaces a level, "key":value, '/' not escaped), but straight to
 * the FILE: json-c's own serialiser drops what it cannot append to its
 * buffer when memory runs out and still returns a string. */
static void indent(FILE *out, int level)
{
	for (int i = 0; i < level; i++)
		fputs("  ", out);
}

static void string(FILE *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	putc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\b': fputs("\\b", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\f': fputs("\\f", out); break;
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		default:
			if (c < ' ')
				fprintf(out, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
			else
				putc(c, out);
		}
	}
	putc('"', out);
}

static void value(FILE *out, json_object *v, int level)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("null", out);
		break;
	case json_type_boolean:
		fputs(json_object_get_boolean(v) ? "true" : "false", out);
		break;
	case json_type_int:
		/* json-c holds an int64 or a uint64: a negative value is the former */
		if (json_object_get_int64(v) < 0)
			fprintf(out, "%" PRId64, json_object_get_int64(v));
		else
			fprintf(out, "%" PRIu64, json_object_get_uint64(v));
		break;
	case json_type_double:
		fprintf(out, "%.17g", json_object_get_double(v));
		break;
	case json_type_string:
		string(out, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		break;
	case json_type_object: {
		bool any = false;
		fputs("{\n", out);
		json_object_object_foreach(v, key, child) {
			if (any)
				fputs(",\n", out);
			any = true;
			indent(out, level + 1);
			string(out, key, strlen(key));
			putc(':', out);
			value(out, child, level + 1);
		}
		if (any)
			putc('\n', out);
		indent(out, level);
		putc('}', out);
		break;
	}
	case json_type_array: {
		size_t n = json_object_array_length(v);
		fputs("[\n", out);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputs(",\n", out);
			indent(out, level + 1);
			value(out, json_object_array_get_idx(v, i), level + 1);
		}
		if (n)
			putc('\n', out);
		indent(out, level);
		putc(']', out);
		break;
	}
	}
}

int tl_jprint(FILE *out, json_object *root, bool nomem)
{
	int rc = 0;
	if (nomem || !root) {
		errno = ENOMEM;
		rc = -1;
	} else {
		value(out, root, 0);
		rc = putc('\n', out) == EOF || ferror(out) || fflush(out) != 0 ? -1 : 0;
	}
	json_object_put(root);
	return rc;
}
