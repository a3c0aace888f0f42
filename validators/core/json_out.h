/* Building the JSON and SARIF reports with json-c when memory may run out.
 * json-c returns NULL from a failed constructor and asserts when asked to
 * add to a NULL container; these helpers take NULL anywhere, free what
 * could not be placed and set *nomem, so a writer learns at the end that its
 * document is incomplete instead of printing it. */
#ifndef TL_JSON_OUT_H
#define TL_JSON_OUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

/* obj[key] = val (val NULL counts as a failed allocation). */
void tl_jset(bool *nomem, json_object *obj, const char *key, json_object *val);
/* obj[key] = null, on purpose. */
void tl_jset_null(bool *nomem, json_object *obj, const char *key);
/* arr += val. */
void tl_jpush(bool *nomem, json_object *arr, json_object *val);
/* made, noting a NULL. */
json_object *tl_jmade(bool *nomem, json_object *made);
/* Prints root pretty and frees it: 0, or -1 with errno set (ENOMEM when a
 * part of the document was lost or it could not be serialised). */
int tl_jprint(FILE *out, json_object *root, bool nomem);

#endif
