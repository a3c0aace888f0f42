/* A validation context that reports nothing (the dump's validation run,
 * beside it, reports): for decoders that take one, such as the tfile
 * description reader and the DCFG model reader. */
#ifndef TL_DUMP_QUIET_CTX_H
#define TL_DUMP_QUIET_CTX_H

#include "context.h"

struct quiet_ctx {
	struct tl_ctx ctx;
	struct tl_options opts;
	struct tl_result result;
	char err[256];
};

void quiet_ctx_init(struct quiet_ctx *q, const struct tl_options *given, const char *path);

#endif
