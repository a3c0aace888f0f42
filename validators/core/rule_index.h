/* The rule catalog indexed for matching many patterns: IDs sorted, so an
 * exact ID is a binary search and a glob is tried only on the IDs that
 * start with its literal prefix, and each rule's former ID at hand. Built
 * per use (the library keeps no mutable static state): a sort of the
 * catalog, small next to matching a long rule list against every rule. */
#ifndef TL_RULE_INDEX_H
#define TL_RULE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tl_rule_index {
	uint16_t *by_id;       /* rule numbers (enum tl_rule_id) in ID order */
	const char **former;   /* per rule number: its former ID, or NULL */
	uint16_t *renamed;     /* rule numbers that have a former ID */
	size_t n, nrenamed;
};

bool tl_rule_index_init(struct tl_rule_index *x);
void tl_rule_index_free(struct tl_rule_index *x);
/* Calls each(rule number, user) for every rule the pattern matches, as
 * tl_rule_matches decides (format name, ID or former ID, globs with
 * fnmatch), each rule once; returns how many. each may be NULL. */
size_t tl_rule_index_match(const struct tl_rule_index *x, const char *pattern, void (*each)(size_t, void *),
			   void *user);

#endif
