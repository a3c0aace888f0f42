/* Rule IDs, generated from the catalogs in specs/ (see gen-rules.awk):
 * a rule that is not in a catalog does not compile. */
#ifndef TL_RULES_H
#define TL_RULES_H

enum tl_rule_id {
#define TL_RULE(sym, id, sev, fmt, summary, source) sym,
#include "rules.inc"
#undef TL_RULE
	TL_RULE_COUNT
};

#endif
