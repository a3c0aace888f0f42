/* What a format validator provides to the core: a content probe for
 * auto-detection and a validation entry point. */
#ifndef TL_FORMAT_H
#define TL_FORMAT_H

#include "context.h"

#include <string.h>

/* What a binary diagnostic's context says (diag_context.c): the bytes its
 * marker spans and, for records the format decodes, their fields. */
struct tl_field_view {
	uint64_t offset;        /* first byte marked */
	uint64_t width;         /* bytes marked, at least 1 */
	char fields[200];       /* "record: kind=function-exit func=8 tsc_delta=41", or "" */
};

/* For a describe hook: the field a rule's marker spans, at bytes past the start
 * of the record or frame the diagnostic is in, width bytes (a format may let 0
 * mean the whole record). Rules without a row keep the format's default. */
struct tl_rule_field {
	const char *rule;
	uint8_t at, width;
};
/* The row of fields[0..n) for rule, or NULL (rule_field.c). */
const struct tl_rule_field *tl_rule_field(const struct tl_rule_field *fields, size_t n,
					  const char *rule);

/* Reads up to n bytes at off of the input a diagnostic is about; how many. */
typedef size_t (*tl_read_back_fn)(void *file, uint64_t off, uint8_t *buf, size_t n);

struct tl_format {
	enum tl_format_id id;
	const char *name;            /* command-line name */
	const char *summary;
	/* Takes a trace directory (in->is_directory, no data); such a format is
	 * also offered single files (one member of a trace) to probe and validate. */
	bool directory;
	/* Confidence 0..100 that in holds this format; 0 means no, with a
	 * short reason in *why_not for the "nothing matched" message. */
	int (*probe)(const struct tl_input *in, const char **why_not);
	void (*validate)(struct tl_ctx *ctx, const struct tl_input *in);
	/* Optional: validation in steps over an input that grows (a stream).
	 * step validates what in->size bytes allow and returns; with final set
	 * no more bytes come and it finishes. validate() must give what
	 * begin, one final step and end give. */
	const struct tl_format_stepper *stepper;
	/* Optional: for the context of a binary diagnostic d (tl_options.context),
	 * the field it is about and its record's decoded fields, found from the
	 * bytes being validated (view comes preset to d's one byte and no
	 * fields). The core calls it as d is reported, so it only reads and
	 * must call nothing that reports. */
	void (*describe)(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
			 struct tl_field_view *view);
	/* Whether a file called base (no directory, no .gz/.bz2/.zst) is of this
	 * format by its name alone: such a file is validated as this format
	 * whatever it holds. */
	bool (*named)(const char *base);
};

struct tl_format_stepper {
	void *(*begin)(struct tl_ctx *ctx);   /* NULL: out of memory */
	void (*step)(void *state, struct tl_ctx *ctx, const struct tl_input *in, bool final);
	void (*end)(void *state);
};

extern const struct tl_format tl_format_xray;
extern const struct tl_format tl_format_dcfg;
extern const struct tl_format tl_format_dcfg_trace;
extern const struct tl_format tl_format_umtrace;
extern const struct tl_format tl_format_tfile;

const struct tl_format *tl_format_get(enum tl_format_id id);

/* For the formats' named(): base ends with suffix and has a name before it. */
static inline bool tl_name_ends_with(const char *base, const char *suffix)
{
	size_t b = strlen(base), s = strlen(suffix);
	return b > s && memcmp(base + b - s, suffix, s) == 0;
}

/* tl_validate_path on an input already open (tests shrink it first). */
enum tl_status tl_validate_input(const struct tl_input *in, const char *path,
				 const struct tl_options *opts, struct tl_result *result, char *err,
				 size_t errlen);

#endif
