#ifndef TL_RULE_TABLE_H
#define TL_RULE_TABLE_H
#include "rules.h"
#include "tracelint.h"
const struct tl_rule_info *tl_rule_by_id(enum tl_rule_id id);
/* The ID a rule had before it was renamed, or NULL (rule_alias.c). */
const char *tl_rule_former_id(const struct tl_rule_info *rule);
/* The current ID of a former ID, or NULL. */
const char *tl_rule_alias_target(const char *former);
#endif
