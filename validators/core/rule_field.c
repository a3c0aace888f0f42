/* The field a rule means, looked up by the formats' describe hooks. */
#include "format.h"

#include <string.h>

const struct tl_rule_field *tl_rule_field(const struct tl_rule_field *fields, size_t n,
					  const char *rule)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(fields[i].rule, rule) == 0)
			return &fields[i];
	return NULL;
}
