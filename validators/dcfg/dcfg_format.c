/* Placeholder registration until the DCFG validators land (see their issue). */
#include "format.h"

static int probe(const struct tl_input *in, const char **why_not)
{
	(void)in;
	*why_not = "validator not built yet";
	return 0;
}

static void validate(struct tl_ctx *ctx, const struct tl_input *in)
{
	(void)ctx;
	(void)in;
}

const struct tl_format tl_format_dcfg = {
	TL_FORMAT_DCFG, "dcfg", "placeholder", false, probe, validate,
};
const struct tl_format tl_format_dcfg_trace = {
	TL_FORMAT_DCFG_TRACE, "dcfg-trace", "placeholder", false, probe, validate,
};
