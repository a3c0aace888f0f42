/* Reporting: severity from the catalog, counting, the error limit, the
 * baseline, delivery. */
#include "context.h"
#include "diag_context.h"
#include "rule_table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void deliver(struct tl_ctx *ctx, const struct tl_rule_info *rule, enum tl_severity severity,
		    const struct tl_location *loc, const char *message, bool known)
{
	tl_diag_fn fn = known ? ctx->opts->on_known : ctx->opts->on_diag;
	if (!fn)
		return;
	struct tl_diagnostic d = { rule, severity, *loc, message, NULL };
	struct tl_diag_context_buf context;
	if (ctx->opts->context) {
		tl_diag_context_take(ctx, &d, &context);
		d.context = &context.context;
	}
	fn(&d, ctx->opts->user);
}

/* Asks the caller's baseline; a known diagnostic is counted among the known too. */
static bool known_to_baseline(struct tl_ctx *ctx, const struct tl_rule_info *rule,
			      enum tl_severity severity, const struct tl_location *loc,
			      const char *message)
{
	struct tl_diagnostic d = { rule, severity, *loc, message, NULL };
	if (!ctx->opts->is_known(&d, ctx->opts->user))
		return false;
	struct tl_result *r = ctx->result;
	switch (severity) {
	case TL_ERROR: r->known_errors++; break;
	case TL_WARNING: r->known_warnings++; break;
	case TL_NOTE: r->known_notes++; break;
	}
	return true;
}

/* The one policy of a run: severity, counting, the error limit, the
 * baseline's verdict on each diagnostic, delivery. A baseline changes none of
 * the counts or where reporting stops: it only says which diagnostics are
 * known, so that a run with a baseline and one without see the same. */
void tl_report(struct tl_ctx *ctx, enum tl_rule_id id, const struct tl_location *loc,
	       const char *fmt, ...)
{
	const struct tl_rule_info *rule = tl_rule_by_id(id);
	struct tl_result *r = ctx->result;
	unsigned limit = ctx->opts->max_errors;
	if (ctx->severity[id] == TL_SEVERITY_OFF)
		return;
	enum tl_severity severity = (enum tl_severity)ctx->severity[id];
	switch (severity) {
	case TL_ERROR: r->errors++; break;
	case TL_WARNING: r->warnings++; break;
	case TL_NOTE: r->notes++; break;
	}
	bool past_limit = ctx->stopped;
	if (!past_limit && ctx->input && tl_input_changed_fast(ctx->input)) {
		tl_unreadable(ctx, "cannot read %s: %s", ctx->path ? ctx->path : "the input",
			      tl_input_change_reason(ctx->input));
		return;
	}
	/* Past the limit nothing more is reported; warnings share the limit so a
	 * defect repeated in every record cannot flood the output either. */
	if (!past_limit && limit && severity == TL_WARNING && r->warnings > limit) {
		past_limit = true;
		if (r->warnings == (uint64_t)limit + 1) {
			/* Said once, at the first warning left out. */
			char note[160];
			snprintf(note, sizeof note,
				 MSG_TL_MAX_ERRORS, limit);
			r->truncated = true;
			r->notes++;
			deliver(ctx, tl_rule_by_id(RULE_TL_MAX_ERRORS), TL_NOTE, loc, note, false);
		}
	}
	/* a diagnostic left out is still one the baseline must know, for the verdict */
	if (past_limit && !ctx->opts->is_known)
		return;

	char message[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	bool known = ctx->opts->is_known && known_to_baseline(ctx, rule, severity, loc, message);
	if (past_limit)
		return;
	deliver(ctx, rule, severity, loc, message, known);

	if (limit && severity == TL_ERROR && r->errors >= limit) {
		ctx->stopped = true;
		r->truncated = true;
		char note[160];
		snprintf(note, sizeof note,
			 MSG_TL_MAX_ERRORS_2, limit);
		r->notes++;
		deliver(ctx, tl_rule_by_id(RULE_TL_MAX_ERRORS), TL_NOTE, loc, note, false);
	}
}

void tl_refuse(struct tl_ctx *ctx, const char *message)
{
	ctx->refused = true;
	if (ctx->err && ctx->errlen)
		snprintf(ctx->err, ctx->errlen, "%s", message);
}

void tl_unreadable(struct tl_ctx *ctx, const char *fmt, ...)
{
	if (!ctx->unreadable && ctx->err && ctx->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ctx->err, ctx->errlen, fmt, ap);
		va_end(ap);
	}
	ctx->unreadable = true;
	ctx->stopped = true;
}

void tl_out_of_memory(struct tl_ctx *ctx)
{
	tl_unreadable(ctx, "cannot validate %s: out of memory", ctx->path ? ctx->path : "the input");
}

bool tl_open_option_input(struct tl_ctx *ctx, const char *option, const char *path,
			  struct tl_input *out)
{
	char why[512];
	if (!tl_input_open(out, path, why, sizeof why)) {
		tl_unreadable(ctx, "%s=%s: %s", option, path, why);
		return false;
	}
	if (out->is_directory) {
		tl_unreadable(ctx, "%s=%s: is a directory, not a file", option, path);
		tl_input_close(out);
		return false;
	}
	return true;
}

/* A member open now, or no longer, for diag_context.c. */
static void track_member(struct tl_ctx *ctx, const struct tl_input *from, const struct tl_input *to)
{
	for (size_t i = 0; i < TL_OPEN_MEMBERS_MAX; i++) {
		if (ctx->open_members[i] == from) {
			ctx->open_members[i] = to;
			return;
		}
	}
}

void tl_close_input(struct tl_ctx *ctx, struct tl_input *in)
{
	track_member(ctx, in, NULL);
	if (tl_input_changed(in)) {
		if (in->name == ctx->opts->pair_path || ctx->members)
			tl_unreadable(ctx, "cannot read %s: %s", in->name, tl_input_change_reason(in));
		else
			tl_unreadable(ctx, "cannot read %s/%s: %s", ctx->path, in->name,
				      tl_input_change_reason(in));
	}
	tl_input_close(in);
}

enum tl_status tl_conclude(struct tl_ctx *ctx)
{
	struct tl_result *r = ctx->result;
	if (ctx->refused)
		return TL_E_USAGE;
	if (ctx->unreadable) {
		r->valid = false;
		return TL_E_IO;
	}
	/* known diagnostics (tl_options.is_known) are counted, not judged */
	r->valid = r->errors == r->known_errors &&
		   !(ctx->opts->werror && r->warnings > r->known_warnings);
	return TL_OK;
}

void tl_set_detail(struct tl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->result->detail, sizeof ctx->result->detail, fmt, ap);
	va_end(ap);
}

bool tl_open_member(struct tl_ctx *ctx, const char *member, struct tl_input *out, char *err,
		    size_t errlen)
{
	if (ctx->members) {
		for (size_t i = 0; i < ctx->member_count; i++) {
			if (ctx->members[i].name && strcmp(ctx->members[i].name, member) == 0) {
				tl_input_from_memory(out, ctx->members[i].data, ctx->members[i].size,
						     member);
				track_member(ctx, NULL, out);
				return true;
			}
		}
		if (err && errlen)
			snprintf(err, errlen, "no member %s", member);
		return false;
	}
	char path[4096];
	int n = snprintf(path, sizeof path, "%s/%s", ctx->path, member);
	if (n < 0 || (size_t)n >= sizeof path) {
		if (err && errlen)
			snprintf(err, errlen, "path too long for member %s", member);
		/* The reason first: the directory's path is what is long. */
		tl_unreadable(ctx, "cannot read member %s: path too long (over %zu bytes) in %s",
			      member, sizeof path - 1, ctx->path);
		return false;
	}
	if (!tl_input_open(out, path, err, errlen)) {
		/* Absent is a property of the trace; anything else of the machine. */
		if (out->error != ENOENT)
			tl_unreadable(ctx, "%s", err && errlen ? err : "cannot read a member");
		return false;
	}
	out->name = member;
	if (out->is_directory) {
		if (err && errlen)
			snprintf(err, errlen, "%s is a directory", member);
		tl_unreadable(ctx, "cannot read %s: it is a directory, not a file", path);
		tl_input_close(out);
		return false;
	}
	track_member(ctx, NULL, out);
	return true;
}

const char *tl_quote(char *buf, size_t buflen, const uint8_t *bytes, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	if (buflen == 0)
		return buf;
	for (size_t i = 0; i < n; i++) {
		uint8_t b = bytes[i];
		bool plain = b >= 0x20 && b < 0x7f && b != '\\' && b != '"';
		size_t need = plain ? 1 : (b == '\\' || b == '"') ? 2 : 4;
		if (o + need + 4 > buflen) {
			if (o + 4 <= buflen)
				memcpy(buf + o, "...", 3), o += 3;
			break;
		}
		if (plain) {
			buf[o++] = (char)b;
		} else if (b == '\\' || b == '"') {
			buf[o++] = '\\';
			buf[o++] = (char)b;
		} else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[b >> 4];
			buf[o++] = hex[b & 15];
		}
	}
	buf[o < buflen ? o : buflen - 1] = '\0';
	return buf;
}
