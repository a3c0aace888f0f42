/* The silent context (quiet_ctx.h). */
#include "quiet_ctx.h"

#include <string.h>

void quiet_ctx_init(struct quiet_ctx *q, const struct tl_options *given, const char *path)
{
	memset(q, 0, sizeof *q);
	q->opts = *given;
	q->opts.on_diag = NULL;
	q->opts.user = NULL;
	q->opts.max_errors = 0;
	q->ctx.opts = &q->opts;
	q->ctx.result = &q->result;
	q->ctx.path = path;
	q->ctx.err = q->err;
	q->ctx.errlen = sizeof q->err;
	tl_rule_policy_resolve(&q->opts, q->ctx.severity);
}
