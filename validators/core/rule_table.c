/* The rule catalog as data, generated from specs/ (rules.inc). */
#include "rule_table.h"

#include <string.h>

static const struct tl_rule_info rules[] = {
#define TL_RULE(sym, id, sev, fmt, summary, source) { id, sev, fmt, summary, source },
#include "rules.inc"
#undef TL_RULE
};

const struct tl_rule_info *tl_rule_by_id(enum tl_rule_id id) { return &rules[id]; }

size_t tl_rule_count(void) { return sizeof rules / sizeof rules[0]; }

const struct tl_rule_info *tl_rule_at(size_t index)
{
	return index < tl_rule_count() ? &rules[index] : NULL;
}

const struct tl_rule_info *tl_rule_find(const char *id)
{
	for (size_t i = 0; i < tl_rule_count(); i++)
		if (strcmp(rules[i].id, id) == 0)
			return &rules[i];
	const char *renamed = tl_rule_alias_target(id);
	return renamed ? tl_rule_find(renamed) : NULL;
}

const char *tl_severity_name(enum tl_severity severity)
{
	switch (severity) {
	case TL_ERROR: return "error";
	case TL_WARNING: return "warning";
	case TL_NOTE: return "note";
	}
	return "?";
}
