#ifndef TL_DETECT_H
#define TL_DETECT_H
#include "format.h"
/* The most confident format for in, or NULL with the list of what was tried. */
const struct tl_format *tl_detect(const struct tl_input *in, char *err, size_t errlen);
#endif
