/* The rule settings of the command line, of a config section and of their merge
 * are growable arrays of one kind: one way to add to them. */
#ifndef TL_CLI_RULE_LIST_H
#define TL_CLI_RULE_LIST_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>

/* Appends s to *rules (*count used, *cap allocated); false when memory runs out,
 * and then the array is unchanged. */
bool cli_add_rule(struct tl_rule_setting **rules, size_t *count, size_t *cap,
		  struct tl_rule_setting s);

#endif
