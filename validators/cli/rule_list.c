/* See rule_list.h. */
#include "rule_list.h"
#include "grow.h"

bool cli_add_rule(struct tl_rule_setting **rules, size_t *count, size_t *cap,
		  struct tl_rule_setting s)
{
	struct tl_rule_setting *more = tl_grow_array(*rules, cap, *count, sizeof *more, 16);
	if (!more)
		return false;
	*rules = more;
	more[(*count)++] = s;
	return true;
}
