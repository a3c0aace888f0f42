#ifndef TL_RULE_TABLE_H
#define TL_RULE_TABLE_H
#include "rules.h"
#include "tracelint.h"
const struct tl_rule_info *tl_rule_by_id(enum tl_rule_id id);
#endif
