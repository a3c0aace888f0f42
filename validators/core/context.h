/* The validation context: what a format validator reports into. Validators
 * only say tl_report(ctx, RULE_..., &loc, MSG_..., ...), the message template
 * named in the rule's catalog (specs/, "## Messages");
 * severity, counting, the error limit and delivery are handled here. */
#ifndef TL_CONTEXT_H
#define TL_CONTEXT_H

#include "tracelint.h"
#include "input.h"
#include "rules.h"
#include "messages.h"

/* The format a report wrapper passes on a message it has already rendered
 * from its catalog template. */
#define TL_MSG_RENDERED "%s"

enum { TL_OPEN_MEMBERS_MAX = 16 };

struct tl_format;

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
	/* Set by tl_unreadable(): a file could not be read; no verdict is given. */
	bool unreadable;
	/* The input validated, or NULL: once it is found to have shrunk, nothing
	 * more is reported (the bytes read are zeros, not the file's). */
	const struct tl_input *input;
	/* Each rule's severity under the options' rule settings, or TL_SEVERITY_OFF
	 * (tl_rule_policy_resolve fills it before the validator runs). */
	uint8_t severity[TL_RULE_COUNT];
	/* The member files open now (tl_open_member), where the context of a
	 * diagnostic about a member is read (diag_context.c). */
	const struct tl_input *open_members[TL_OPEN_MEMBERS_MAX];
	/* The format validating, whose describe hook gives its diagnostics their
	 * context (held here so that reporting needs no registry lookup). */
	const struct tl_format *format;
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

/* A file the validation needs (a member, --pair) could not be read, or
 * changed while being read: the call ends with TL_E_IO and this message
 * instead of a verdict, and reporting stops. The first message is kept. */
void tl_unreadable(struct tl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Memory ran out: no verdict can be given (TL_E_IO, "cannot validate PATH:
 * out of memory"), as for an unreadable file. */
void tl_out_of_memory(struct tl_ctx *ctx);

/* Opens a file named by an option (--pair): false, with the context made
 * unreadable, when it cannot be read. */
bool tl_open_option_input(struct tl_ctx *ctx, const char *option, const char *path,
			  struct tl_input *out);

/* Closes a member or option input, making the context unreadable if the
 * file changed while it was read. */
void tl_close_input(struct tl_ctx *ctx, struct tl_input *in);

/* How a validation ends, for every entry point: TL_E_USAGE when refused,
 * TL_E_IO (not valid, no verdict) when unreadable, else TL_OK with the
 * verdict in ctx->result, which leaves out what a baseline knows. */
enum tl_status tl_conclude(struct tl_ctx *ctx);

/* Free text for the verdict line, e.g. which byte order was used. */
void tl_set_detail(struct tl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Opens a member file of the trace directory being validated (on disk, or
 * in memory when fuzzing). Returns false with a reason in err if absent;
 * a member that exists but cannot be read (permissions, a device, a loop
 * of symbolic links, no memory to map it) also makes the context
 * unreadable (tl_unreadable). */
bool tl_open_member(struct tl_ctx *ctx, const char *member, struct tl_input *out,
		    char *err, size_t errlen);

/* Appends printable text to buf for a message: bytes outside printable ASCII
 * become \xNN, and long text is cut with "...". Returns buf. */
const char *tl_quote(char *buf, size_t buflen, const uint8_t *bytes, size_t n);

#endif
