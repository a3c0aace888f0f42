/* The public entry points: choose the format, run its validator, give the verdict. */
#include "detect.h"
#include "format.h"
#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void tl_options_init_sized(struct tl_options *opts, size_t struct_size)
{
	struct tl_options defaults;
	memset(&defaults, 0, sizeof defaults);
	defaults.struct_size = struct_size < sizeof defaults ? struct_size : sizeof defaults;
	defaults.max_errors = 100;
	/* a program built against an older header has a shorter struct */
	memset(opts, 0, struct_size);
	memcpy(opts, &defaults, defaults.struct_size);
}

const char *tl_version(void)
{
	return TRACELINT_VERSION;
}

int tl_version_number(void)
{
	return TRACELINT_VERSION_NUMBER;
}

/* The caller's options as this library's struct: fields the caller's
 * (older, shorter) struct lacks keep their defaults. */
static void full_options(struct tl_options *full, const struct tl_options *caller)
{
	tl_options_init_sized(full, sizeof *full);
	size_t n = caller->struct_size;
	if (n < sizeof full->struct_size || n > sizeof *full)
		n = sizeof *full; /* never initialised by tl_options_init: take it whole */
	memcpy(full, caller, n);
	full->struct_size = sizeof *full;
}

/* The result back into the caller's struct, as much as it holds. */
static void give_result(struct tl_result *caller, size_t caller_size, const struct tl_result *full)
{
	memcpy(caller, full, caller_size < sizeof *full ? caller_size : sizeof *full);
}

static enum tl_status fail(char *err, size_t errlen, enum tl_status status, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return status;
}

/* A compressed file whose stream is cut short, corrupt or followed by other
 * bytes, under a name that binds a format: a defect of the file (exit 1),
 * located at the decompressed byte where the stream broke off, since every
 * other diagnostic of a compressed file counts decompressed bytes. */
static void report_stream_defect(struct tl_ctx *ctx, const struct tl_input *in)
{
	const struct tl_stream_defect *d = &in->defect;
	const char *codec = tl_compression_name((enum tl_compression)in->compression);
	struct tl_location loc = tl_at(d->decoded_at);
	unsigned long long at = (unsigned long long)d->compressed_at, out = (unsigned long long)d->decoded_at;
	switch (d->fault) {
	case TL_STREAM_CUT:
		tl_report(ctx, RULE_TL_COMPRESSED_STREAM, &loc,
			  MSG_TL_COMPRESSED_STREAM, codec, at, out);
		tl_set_detail(ctx, "%s stream cut short", codec);
		break;
	case TL_STREAM_CORRUPT:
		tl_report(ctx, RULE_TL_COMPRESSED_STREAM, &loc,
			  MSG_TL_COMPRESSED_STREAM_2, codec, at, d->reason, out);
		tl_set_detail(ctx, "corrupt %s stream", codec);
		break;
	default:
		tl_report(ctx, RULE_TL_COMPRESSED_STREAM, &loc,
			  MSG_TL_COMPRESSED_STREAM_3,
			  codec, at);
		tl_set_detail(ctx, "bytes after the %s stream", codec);
		break;
	}
}

bool tl_stream_defect_judged(const struct tl_input *in, enum tl_format_id format, const char *name)
{
	return in->error == EBADMSG && in->defect.fault &&
	       (format != TL_FORMAT_AUTO || (name && tl_format_by_name(name)));
}

static enum tl_status run(const struct tl_input *in, const char *path,
			  const struct tl_member *members, size_t member_count,
			  const struct tl_options *opts, struct tl_result *result, char *err,
			  size_t errlen)
{
	memset(result, 0, sizeof *result);
	const struct tl_format *f, *other = NULL;
	if (opts->format == TL_FORMAT_AUTO) {
		/* a name that binds a format decides; content only for the others */
		f = in->is_directory ? NULL : tl_format_by_name(path);
		if (f)
			other = tl_detect_other(f, in);
		else if (!(f = tl_detect(in, err, errlen)))
			return TL_E_UNKNOWN_FORMAT;
	} else {
		f = tl_format_get(opts->format);
		if (!f)
			return fail(err, errlen, TL_E_USAGE, "unknown format");
		if (!f->directory && in->is_directory)
			return fail(err, errlen, TL_E_IO, "is a directory, not a file of this format");
	}
	if (opts->pair_path && f->id != TL_FORMAT_DCFG_TRACE)
		return fail(err, errlen, TL_E_USAGE, "--pair applies to DCFG-trace files only");
	if (opts->instr_map_path && f->id != TL_FORMAT_XRAY)
		return fail(err, errlen, TL_E_USAGE, "--instr-map applies to XRay traces only");
	result->format = f->id;
	struct tl_ctx ctx = { .opts = opts, .result = result, .path = path, .members = members,
			      .member_count = member_count, .err = err, .errlen = errlen, .input = in, .format = f };
	tl_rule_policy_resolve(opts, ctx.severity);
	if (in->defect.fault) {
		report_stream_defect(&ctx, in);
	} else if (other) {
		/* its rules would describe another format's bytes: say which it is */
		struct tl_location loc = tl_at(0);
		tl_report(&ctx, RULE_TL_FORMAT_NAME, &loc,
			  MSG_TL_FORMAT_NAME, f->name,
			  other->name);
		tl_set_detail(&ctx, "holds %s, not %s", other->name, f->name);
	} else {
		f->validate(&ctx, in);
	}
	/* Bytes read past a shrinking file's new end were zeros: no verdict. */
	if (!ctx.refused && tl_input_changed(in))
		tl_unreadable(&ctx, "cannot read %s: %s", path ? path : "the input", tl_input_change_reason(in));
	return tl_conclude(&ctx);
}

/* run() for a caller whose options and result may be of an older, shorter layout. */
static enum tl_status run_sized(const struct tl_input *in, const char *path,
				const struct tl_member *members, size_t member_count,
				const struct tl_options *opts, struct tl_result *result,
				size_t result_size, char *err, size_t errlen)
{
	struct tl_options o;
	struct tl_result r;
	full_options(&o, opts);
	enum tl_status s = run(in, path, members, member_count, &o, &r, err, errlen);
	give_result(result, result_size, &r);
	return s;
}

enum tl_status tl_validate_input(const struct tl_input *in, const char *path,
				 const struct tl_options *opts, struct tl_result *result, char *err,
				 size_t errlen)
{
	return run(in, path, NULL, 0, opts, result, err, errlen);
}

enum tl_status tl_validate_path_sized(const char *path, const struct tl_options *opts,
				      struct tl_result *result, size_t result_size, char *err,
				      size_t errlen)
{
	struct tl_options o;
	struct tl_input in;
	full_options(&o, opts);
	if (!tl_input_open_threads(&in, path, o.stdin_limit ? o.stdin_limit : TL_STDIN_LIMIT_DEFAULT,
				   o.threads, err, errlen)) {
		/* a broken stream is the file's defect when its format is known
		 * (named, or bound by the name); content could tell nothing */
		if (tl_stream_defect_judged(&in, o.format, path))
			return run_sized(&in, path, NULL, 0, &o, result, result_size, err, errlen);
		struct tl_result r;
		memset(&r, 0, sizeof r);
		give_result(result, result_size, &r);
		return TL_E_IO;
	}
	enum tl_status s = run_sized(&in, path, NULL, 0, &o, result, result_size, err, errlen);
	tl_input_close(&in);
	return s;
}

enum tl_status tl_validate_buffer_sized(const void *data, size_t size, const char *name,
					const struct tl_options *opts, struct tl_result *result,
					size_t result_size, char *err, size_t errlen)
{
	struct tl_input in;
	tl_input_from_memory(&in, data, size, name);
	return run_sized(&in, name, NULL, 0, opts, result, result_size, err, errlen);
}

enum tl_status tl_validate_members_sized(const struct tl_member *members, size_t count,
					 const char *name, const struct tl_options *opts,
					 struct tl_result *result, size_t result_size, char *err,
					 size_t errlen)
{
	struct tl_input in;
	tl_input_from_memory(&in, NULL, 0, name);
	in.is_directory = true;
	return run_sized(&in, name, members, count, opts, result, result_size, err, errlen);
}

enum tl_status tl_detect_path(const char *path, enum tl_format_id *format, char *err, size_t errlen)
{
	struct tl_input in;
	if (!tl_input_open(&in, path, err, errlen))
		return TL_E_IO;
	const struct tl_format *f = tl_detect(&in, err, errlen);
	tl_input_close(&in);
	if (!f)
		return TL_E_UNKNOWN_FORMAT;
	*format = f->id;
	return TL_OK;
}
