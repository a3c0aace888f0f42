/* Lines the description may hold once (R, status): the first counts, a
 * later one is a duplicate. */
#include "tfile.h"

bool tl_tfile_once(struct tl_ctx *ctx, struct tfile_once *once, const struct tfile_text *t,
		   unsigned keylen, enum tl_rule_id rule, const char *what)
{
	if (++once->count > 1) {
		struct tl_location loc = tl_at_text(t->offset - keylen, t->line, 1);
		tl_report(ctx, rule, &loc, MSG_TFILE_ONCE,
			  what, once->line);
		return false;
	}
	once->line = t->line;
	once->offset = t->offset - keylen;
	return true;
}
