/* The excerpt printed under a diagnostic in text output: the bytes around
 * a binary offset as a hex and ASCII dump with the offending field marked,
 * or the text line with a caret at the column, as compilers show source.
 * Made from the context the diagnostic carries (tl_options.context), never
 * by reading the input again. */
#ifndef TL_EXCERPT_H
#define TL_EXCERPT_H

#include "tracelint.h"

#include <stdbool.h>
#include <stdio.h>

/* Writes the excerpt of d to out; nothing when d carries no context or its
 * bytes could not be read. color: the caret and marks in ANSI colours, as
 * gcc's. */
void tl_write_excerpt(FILE *out, const struct tl_diagnostic *d, bool color);

#endif
