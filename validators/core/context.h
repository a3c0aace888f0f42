/* The validation context: what a format validator reports into. Validators
 * only say tl_report(ctx, RULE_..., &loc, "expected ..., found ...", ...);
 * severity, counting, the error limit and delivery are handled here. */
#ifndef TL_CONTEXT_H
#define TL_CONTEXT_H

#include "tracelint.h"
#include "input.h"
#include "rules.h"

struct tl_ctx {
	const struct tl_options *opts;
	struct tl_result *result;
	const char *path;                  /* file or directory being validated */
	const struct tl_member *members;   /* in-memory trace directory, or NULL */
	size_t member_count;
	bool stopped;                      /* max_errors reached: validators may bail out */
	/* Set by tl_refuse(): an option's input (e.g. --instr-map) is unusable. */
	bool refused;
	char *err;
	size_t errlen;
	/* Each rule's severity under the options' rule settings, or TL_SEVERITY_OFF
	 * (tl_rule_policy_resolve fills it before the validator runs). */
	uint8_t severity[TL_RULE_COUNT];
};

enum { TL_SEVERITY_OFF = 0xff };
void tl_rule_policy_resolve(const struct tl_options *opts, uint8_t severity[TL_RULE_COUNT]);

static inline struct tl_location tl_at(uint64_t offset)
{
	struct tl_location loc = { offset, 0, 0, -1, NULL, NULL };
	return loc;
}

static inline struct tl_location tl_at_record(uint64_t offset, int64_t record)
{
	struct tl_location loc = { offset, 0, 0, record, NULL, NULL };
	return loc;
}

static inline struct tl_location tl_at_text(uint64_t offset, uint32_t line, uint32_t column)
{
	struct tl_location loc = { offset, line, column, -1, NULL, NULL };
	return loc;
}

void tl_report(struct tl_ctx *ctx, enum tl_rule_id rule, const struct tl_location *loc,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* True once the error limit is reached; long loops should stop early. */
static inline bool tl_stopped(const struct tl_ctx *ctx) { return ctx->stopped; }

/* The validator cannot use an input named by an option: the call ends with
 * TL_E_USAGE and this message instead of a verdict. */
void tl_refuse(struct tl_ctx *ctx, const char *message);

/* Free text for the verdict line, e.g. which byte order was used. */
void tl_set_detail(struct tl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Opens a member file of the trace directory being validated (on disk, or
 * in memory when fuzzing). Returns false with a reason in err if absent. */
bool tl_open_member(struct tl_ctx *ctx, const char *member, struct tl_input *out,
		    char *err, size_t errlen);

/* Appends printable text to buf for a message: bytes outside printable ASCII
 * become \xNN, and long text is cut with "...". Returns buf. */
const char *tl_quote(char *buf, size_t buflen, const uint8_t *bytes, size_t n);

#endif
