/* Placeholder registration until the tfile validator lands (see its issue). */
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

const struct tl_format tl_format_tfile = {
	TL_FORMAT_TFILE, "tfile", "placeholder", false, probe, validate,
};
