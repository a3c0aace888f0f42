/* The part of json-c's API that the library's JSON and SARIF writers use
 * (validators/core/json_out.c, output_json.c, output_sarif.c), for the
 * WebAssembly build, where json-c is not available: a tree of values whose
 * objects keep their keys in insertion order, as json-c's do. Serialising
 * is json_out.c's own. */
#ifndef TL_WEB_JSON_C_H
#define TL_WEB_JSON_C_H

#include <stddef.h>
#include <stdint.h>

typedef enum json_type {
	json_type_null,
	json_type_boolean,
	json_type_double,
	json_type_int,
	json_type_object,
	json_type_array,
	json_type_string
} json_type;

typedef struct json_object json_object;
typedef int json_bool;

/* An object's member, in the order added. */
struct json_member {
	char *key;
	json_object *value;
	struct json_member *next;
};

json_object *json_object_new_object(void);
json_object *json_object_new_array(void);
json_object *json_object_new_string(const char *s);
json_object *json_object_new_boolean(json_bool b);
json_object *json_object_new_int64(int64_t i);
json_object *json_object_new_uint64(uint64_t u);
void json_object_put(json_object *obj);

/* Adds key (replacing a member of that name); 0 on success. The object owns val. */
int json_object_object_add(json_object *obj, const char *key, json_object *val);
json_object *json_object_object_get(const json_object *obj, const char *key);
int json_object_array_add(json_object *arr, json_object *val);
size_t json_object_array_length(const json_object *arr);
json_object *json_object_array_get_idx(const json_object *arr, size_t i);

json_type json_object_get_type(const json_object *obj);
json_bool json_object_get_boolean(const json_object *obj);
double json_object_get_double(const json_object *obj);
int64_t json_object_get_int64(const json_object *obj);
uint64_t json_object_get_uint64(const json_object *obj);
const char *json_object_get_string(json_object *obj);
int json_object_get_string_len(const json_object *obj);

struct json_member *json_object_first_member(const json_object *obj);

#define json_object_object_foreach(obj, key, val)                                              \
	char *key = NULL;                                                                      \
	json_object *val = NULL;                                                               \
	for (struct json_member *key##_m = json_object_first_member(obj);                      \
	     key##_m && ((key = key##_m->key), (val = key##_m->value), 1); key##_m = key##_m->next)

#endif
