/* Rule control: the severity each rule is reported with, from the catalog
 * and the caller's settings (select, ignore, per-rule severity). Resolved once
 * per validation into the context's table, so reporting costs one lookup. */
#include "context.h"
#include "rule_index.h"
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

struct setting_apply {
	uint8_t *severity;
	enum tl_rule_action action;
};

static void apply(size_t rule, void *user)
{
	const struct setting_apply *a = user;
	switch (a->action) {
	case TL_RULE_DEFAULT: a->severity[rule] = (uint8_t)tl_rule_by_id((enum tl_rule_id)rule)->severity; break;
	case TL_RULE_OFF: a->severity[rule] = TL_SEVERITY_OFF; break;
	case TL_RULE_NOTE: a->severity[rule] = TL_NOTE; break;
	case TL_RULE_WARNING: a->severity[rule] = TL_WARNING; break;
	case TL_RULE_ERROR: a->severity[rule] = TL_ERROR; break;
	}
}

/* Settings applied in order, each to the rules it matches (the last match
 * wins, as in resolve): linear in the settings, not settings x catalog. */
void tl_rule_policy_resolve(const struct tl_options *opts, uint8_t severity[TL_RULE_COUNT])
{
	for (size_t id = 0; id < TL_RULE_COUNT; id++)
		severity[id] = (uint8_t)tl_rule_by_id((enum tl_rule_id)id)->severity;
	if (!opts->rule_setting_count)
		return;
	struct tl_rule_index x;
	if (!tl_rule_index_init(&x)) { /* without memory, rule by rule */
		for (size_t id = 0; id < TL_RULE_COUNT; id++)
			severity[id] = resolve(opts, tl_rule_by_id((enum tl_rule_id)id));
		return;
	}
	for (size_t i = 0; i < opts->rule_setting_count; i++) {
		const struct tl_rule_setting *s = &opts->rule_settings[i];
		struct setting_apply a = { severity, s->action };
		if (s->pattern)
			tl_rule_index_match(&x, s->pattern, apply, &a);
	}
	tl_rule_index_free(&x);
}
