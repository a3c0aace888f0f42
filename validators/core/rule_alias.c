/* Former rule IDs (the catalogs' Former ID column), still accepted wherever
 * an ID is: a pattern matches a rule by its ID or its former ID, and a
 * baseline fingerprint keeps using the former ID so renames do not break
 * recorded baselines. */
#include "rule_table.h"

#include <string.h>

static const struct alias {
	const char *former, *id;
} aliases[] = {
#define TL_ALIAS(former, id) { former, id },
#include "aliases.inc"
#undef TL_ALIAS
};

const char *tl_rule_former_id(const struct tl_rule_info *rule)
{
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
		if (strcmp(aliases[i].id, rule->id) == 0)
			return aliases[i].former;
	return NULL;
}

const char *tl_rule_alias_target(const char *former)
{
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
		if (strcmp(aliases[i].former, former) == 0)
			return aliases[i].id;
	return NULL;
}
