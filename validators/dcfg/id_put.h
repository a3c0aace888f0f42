/* Inserting an id while a JSON document is read: memory running out ends
 * the validation ("out of memory", no verdict) rather than losing the id,
 * which would show up later as a missing reference. */
#ifndef TL_DCFG_ID_PUT_H
#define TL_DCFG_ID_PUT_H

#include "idmap.h"
#include "json_check.h"

static inline uint32_t tl_dcfg_id_put(struct tl_json_check *v, struct tl_dcfg_idmap *m, uint64_t key, uint32_t val)
{
	bool nomem = false;
	uint32_t prev = tl_dcfg_idmap_put(m, key, val, &nomem);
	if (nomem)
		tl_jv_out_of_memory(v);
	return prev;
}

/* Inserts id (its value val) and reports rule at cell when the id is already
 * there: what names the id and its scope ("THREAD_ID in the process"). */
static inline bool tl_dcfg_id_unique(struct tl_json_check *v, enum tl_rule_id rule, struct tl_dcfg_idmap *m, uint64_t id,
				     uint32_t val, uint32_t cell, const char *what)
{
	if (tl_dcfg_id_put(v, m, id, val) == IDMAP_NONE)
		return true;
	tl_jv_report(v, rule, cell, MSG_DCFG_ID_UNIQUE, what, (unsigned long long)id);
	return false;
}

#endif
