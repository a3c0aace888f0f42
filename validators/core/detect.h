#ifndef TL_DETECT_H
#define TL_DETECT_H
#include "format.h"
/* The most confident format for in, or NULL with the list of what was tried. */
const struct tl_format *tl_detect(const struct tl_input *in, char *err, size_t errlen);
/* The format a file's name binds (".xray", "xray-log.*", ".tf", ".tfile",
 * ".dcfg.json", ".trace.json", each also compressed; the UMTracer member
 * names), or NULL when the name binds none. */
const struct tl_format *tl_format_by_name(const char *path);
/* A probe this confident is a file's format beyond doubt (a tfile's magic,
 * DCFG keys, an XRay header followed by a record): a guess scores less. */
#define TL_PLAINLY 50
/* The format in holds plainly when it is not named's at all, else NULL. */
const struct tl_format *tl_detect_other(const struct tl_format *named, const struct tl_input *in);
/* An input whose compressed stream broke off (its open failed with EBADMSG,
 * tl_input.defect) is still judged when its format is known: given
 * (format not TL_FORMAT_AUTO) or bound by name; then it gets
 * TL-COMPRESSED-STREAM, else it stays unreadable. */
bool tl_stream_defect_judged(const struct tl_input *in, enum tl_format_id format, const char *name);
/* Whether dir is a trace directory of some format (a UMTracer trace). */
bool tl_is_trace_directory(const char *dir);
#endif
