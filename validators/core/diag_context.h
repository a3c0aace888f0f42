/* A diagnostic's context (struct tl_diag_context), taken when it is reported:
 * the format's describe hook finds the field and decodes its record from the
 * bytes being validated, and the bytes a text excerpt shows are copied, so
 * that no report reads the input again. */
#ifndef TL_DIAG_CONTEXT_H
#define TL_DIAG_CONTEXT_H

#include "context.h"
#include "format.h"

/* A binary excerpt shows the 16-byte rows of the offset and the field, at
 * least two and at most three; a text excerpt the line, read up to 4096 bytes. */
enum { TL_EXCERPT_ROW = 16, TL_EXCERPT_ROWS = 2, TL_EXCERPT_MAX_ROWS = 3, TL_EXCERPT_LINE = 4096 };

/* The context and the storage its pointers point into. */
struct tl_diag_context_buf {
	struct tl_diag_context context;
	char record[sizeof ((struct tl_field_view *)0)->fields];
	uint8_t bytes[TL_EXCERPT_LINE];
};

/* Fills buf with the context of d, found in the input ctx validates (or the
 * member d names); buf->context.bytes is empty when there is none to read. */
void tl_diag_context_take(const struct tl_ctx *ctx, const struct tl_diagnostic *d,
			  struct tl_diag_context_buf *buf);

#endif
