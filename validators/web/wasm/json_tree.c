/* The json-c subset of json-c/json.h: values on the heap, objects as lists
 * of members in insertion order, arrays as growing vectors. */
#include <json-c/json.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct json_object {
	json_type type;
	bool is_unsigned;             /* json_type_int made by json_object_new_uint64 */
	union {
		bool b;
		int64_t i;
		uint64_t u;
		double d;
		struct { char *s; size_t len; } str;
		struct { struct json_member *first, *last; } obj;
		struct { json_object **items; size_t n, cap; } arr;
	} v;
};

static json_object *made(json_type type)
{
	json_object *o = calloc(1, sizeof *o);
	if (o)
		o->type = type;
	return o;
}

json_object *json_object_new_object(void) { return made(json_type_object); }
json_object *json_object_new_array(void) { return made(json_type_array); }

json_object *json_object_new_string(const char *s)
{
	json_object *o = made(json_type_string);
	if (!o)
		return NULL;
	o->v.str.len = strlen(s);
	o->v.str.s = malloc(o->v.str.len + 1);
	if (!o->v.str.s) {
		free(o);
		return NULL;
	}
	memcpy(o->v.str.s, s, o->v.str.len + 1);
	return o;
}

json_object *json_object_new_boolean(json_bool b)
{
	json_object *o = made(json_type_boolean);
	if (o)
		o->v.b = b != 0;
	return o;
}

json_object *json_object_new_int64(int64_t i)
{
	json_object *o = made(json_type_int);
	if (o)
		o->v.i = i;
	return o;
}

json_object *json_object_new_uint64(uint64_t u)
{
	json_object *o = made(json_type_int);
	if (o) {
		o->v.u = u;
		o->is_unsigned = true;
	}
	return o;
}

void json_object_put(json_object *o)
{
	if (!o)
		return;
	if (o->type == json_type_string) {
		free(o->v.str.s);
	} else if (o->type == json_type_object) {
		struct json_member *m = o->v.obj.first;
		while (m) {
			struct json_member *next = m->next;
			free(m->key);
			json_object_put(m->value);
			free(m);
			m = next;
		}
	} else if (o->type == json_type_array) {
		for (size_t i = 0; i < o->v.arr.n; i++)
			json_object_put(o->v.arr.items[i]);
		free(o->v.arr.items);
	}
	free(o);
}

int json_object_object_add(json_object *o, const char *key, json_object *val)
{
	if (!o || o->type != json_type_object)
		return -1;
	for (struct json_member *m = o->v.obj.first; m; m = m->next)
		if (strcmp(m->key, key) == 0) {
			if (m->value != val)
				json_object_put(m->value);
			m->value = val;
			return 0;
		}
	struct json_member *m = calloc(1, sizeof *m);
	size_t n = strlen(key);
	if (!m || !(m->key = malloc(n + 1))) {
		free(m);
		return -1;
	}
	memcpy(m->key, key, n + 1);
	m->value = val;
	if (o->v.obj.last)
		o->v.obj.last->next = m;
	else
		o->v.obj.first = m;
	o->v.obj.last = m;
	return 0;
}

json_object *json_object_object_get(const json_object *o, const char *key)
{
	for (struct json_member *m = json_object_first_member(o); m; m = m->next)
		if (strcmp(m->key, key) == 0)
			return m->value;
	return NULL;
}

struct json_member *json_object_first_member(const json_object *o)
{
	return o && o->type == json_type_object ? o->v.obj.first : NULL;
}

int json_object_array_add(json_object *o, json_object *val)
{
	if (!o || o->type != json_type_array)
		return -1;
	if (o->v.arr.n == o->v.arr.cap) {
		size_t cap = o->v.arr.cap ? 2 * o->v.arr.cap : 8;
		json_object **items = realloc(o->v.arr.items, cap * sizeof *items);
		if (!items)
			return -1;
		o->v.arr.items = items;
		o->v.arr.cap = cap;
	}
	o->v.arr.items[o->v.arr.n++] = val;
	return 0;
}

size_t json_object_array_length(const json_object *o)
{
	return o && o->type == json_type_array ? o->v.arr.n : 0;
}

json_object *json_object_array_get_idx(const json_object *o, size_t i)
{
	return i < json_object_array_length(o) ? o->v.arr.items[i] : NULL;
}

json_type json_object_get_type(const json_object *o)
{
	return o ? o->type : json_type_null;
}

json_bool json_object_get_boolean(const json_object *o)
{
	return o && o->type == json_type_boolean && o->v.b;
}

double json_object_get_double(const json_object *o)
{
	if (!o)
		return 0;
	if (o->type == json_type_double)
		return o->v.d;
	if (o->type == json_type_int)
		return o->is_unsigned ? (double)o->v.u : (double)o->v.i;
	return 0;
}

int64_t json_object_get_int64(const json_object *o)
{
	if (!o || o->type != json_type_int)
		return 0;
	if (o->is_unsigned)
		return o->v.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)o->v.u;
	return o->v.i;
}

uint64_t json_object_get_uint64(const json_object *o)
{
	if (!o || o->type != json_type_int)
		return 0;
	if (o->is_unsigned)
		return o->v.u;
	return o->v.i < 0 ? 0 : (uint64_t)o->v.i;
}

const char *json_object_get_string(json_object *o)
{
	return o && o->type == json_type_string ? o->v.str.s : NULL;
}

int json_object_get_string_len(const json_object *o)
{
	return o && o->type == json_type_string ? (int)o->v.str.len : 0;
}
