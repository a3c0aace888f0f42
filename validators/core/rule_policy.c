/* Rule control: the severity each rule is reported with, from the catalog
 * and the caller's settings (select, ignore, per-rule severity). Resolved once
 * per validation into the context's table, so reporting costs one lookup. */
#include "context.h"
#include "rule_table.h"

#include <fnmatch.h>
#include <string.h>

bool tl_rule_matches(const char *pattern, const struct tl_rule_info *rule)
{
	if (strcmp(pattern, rule->format) == 0)
		return true;
	const char *former = tl_rule_former_id(rule);
	return fnmatch(pattern, rule->id, 0) == 0 || (former && fnmatch(pattern, former, 0) == 0);
}

size_t tl_rule_pattern_matches(const char *pattern)
{
	size_t n = 0;
	for (size_t i = 0; i < tl_rule_count(); i++)
		n += tl_rule_matches(pattern, tl_rule_at(i));
	return n;
}

/* TL_SEVERITY_OFF or an enum tl_severity. */
static uint8_t resolve(const struct tl_options *opts, const struct tl_rule_info *rule)
{
	uint8_t sev = (uint8_t)rule->severity;
	for (size_t i = 0; i < opts->rule_setting_count; i++) {
		const struct tl_rule_setting *s = &opts->rule_settings[i];
		if (!s->pattern || !tl_rule_matches(s->pattern, rule))
			continue;
		switch (s->action) {
		case TL_RULE_DEFAULT: sev = (uint8_t)rule->severity; break;
		case TL_RULE_OFF: sev = TL_SEVERITY_OFF; break;
		case TL_RULE_NOTE: sev = TL_NOTE; break;
		case TL_RULE_WARNING: sev = TL_WARNING; break;
		case TL_RULE_ERROR: sev = TL_ERROR; break;
		}
	}
	return sev;
}

bool tl_rule_effective(const struct tl_options *opts, const struct tl_rule_info *rule,
		       enum tl_severity *severity)
{
	uint8_t sev = resolve(opts, rule);
	if (sev == TL_SEVERITY_OFF)
		return false;
	*severity = (enum tl_severity)sev;
	return true;
}

void tl_rule_policy_resolve(const struct tl_options *opts, uint8_t severity[TL_RULE_COUNT])
{
	for (size_t id = 0; id < TL_RULE_COUNT; id++) {
		const struct tl_rule_info *rule = tl_rule_by_id((enum tl_rule_id)id);
		severity[id] = opts->rule_setting_count ? resolve(opts, rule) : (uint8_t)rule->severity;
	}
}
