/* The excerpt printed under a diagnostic in text output: the bytes around
 * a binary offset as a hex and ASCII dump with the offending byte marked, or
 * the text line with a caret at the column, as compilers show source. Read
 * back from the file after validation (never from standard input or the
 * decompressed copy of a compressed file, whose offsets are not the file's). */
#ifndef TL_EXCERPT_H
#define TL_EXCERPT_H

#include "tracelint.h"

#include <stdbool.h>
#include <stdio.h>

/* Writes the excerpt of d (found in the file at path, the member of a trace
 * directory already joined) to out; nothing when the bytes cannot be read
 * again. color: the caret and marks in ANSI colours, as gcc's. */
void tl_write_excerpt(FILE *out, const char *path, const struct tl_diagnostic *d, bool color);

#endif
