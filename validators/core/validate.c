/* The public entry points: choose the format, run its validator, give the verdict. */
#include "detect.h"
#include "format.h"

#include <stdio.h>
#include <string.h>

void tl_options_init(struct tl_options *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->max_errors = 100;
}

static enum tl_status fail(char *err, size_t errlen, enum tl_status status, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return status;
}

static enum tl_status run(const struct tl_input *in, const char *path,
			  const struct tl_member *members, size_t member_count,
			  const struct tl_options *opts, struct tl_result *result, char *err,
			  size_t errlen)
{
	memset(result, 0, sizeof *result);
	const struct tl_format *f;
	if (opts->format == TL_FORMAT_AUTO) {
		f = tl_detect(in, err, errlen);
		if (!f)
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
	struct tl_ctx ctx = { opts, result, path, members, member_count, false, false,
			      err, errlen, false, in, { 0 } };
	tl_rule_policy_resolve(opts, ctx.severity);
	f->validate(&ctx, in);
	if (ctx.refused)
		return TL_E_USAGE;
	/* Bytes read past a shrinking file's new end were zeros: no verdict. */
	if (tl_input_changed(in))
		tl_unreadable(&ctx, "cannot read %s: it changed (shrank) while being read",
			      path ? path : "the input");
	if (ctx.unreadable) {
		result->valid = false;
		return TL_E_IO;
	}
	result->valid = result->errors == 0 && !(opts->werror && result->warnings > 0);
	return TL_OK;
}

enum tl_status tl_validate_input(const struct tl_input *in, const char *path,
				 const struct tl_options *opts, struct tl_result *result, char *err,
				 size_t errlen)
{
	return run(in, path, NULL, 0, opts, result, err, errlen);
}

enum tl_status tl_validate_path(const char *path, const struct tl_options *opts,
				struct tl_result *result, char *err, size_t errlen)
{
	struct tl_input in;
	memset(result, 0, sizeof *result);
	if (!tl_input_open_limited(&in, path, opts->stdin_limit ? opts->stdin_limit
							       : TL_STDIN_LIMIT_DEFAULT, err, errlen))
		return TL_E_IO;
	enum tl_status s = run(&in, path, NULL, 0, opts, result, err, errlen);
	tl_input_close(&in);
	return s;
}

enum tl_status tl_validate_buffer(const void *data, size_t size, const char *name,
				  const struct tl_options *opts, struct tl_result *result,
				  char *err, size_t errlen)
{
	struct tl_input in;
	tl_input_from_memory(&in, data, size, name);
	return run(&in, name, NULL, 0, opts, result, err, errlen);
}

enum tl_status tl_validate_members(const struct tl_member *members, size_t count,
				   const char *name, const struct tl_options *opts,
				   struct tl_result *result, char *err, size_t errlen)
{
	struct tl_input in;
	tl_input_from_memory(&in, NULL, 0, name);
	in.is_directory = true;
	return run(&in, name, members, count, opts, result, err, errlen);
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
