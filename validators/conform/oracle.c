/* tracelint as the oracle: validates a file or a buffer through libtracelint
 * with the options of the case's .args sidecar, and keeps the first error's
 * rule to name in the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/conform/conform.h"

struct first_error {
	char rule[64];
	char where[48];
	char message[CONFORM_LINE];
	FILE *all;               /* every diagnostic is written here, or NULL */
};

/* A location as the corpus's .expected sidecars write it. */
static void location_text(char *out, size_t len, const struct tl_location *loc)
{
	int n = loc->member ? snprintf(out, len, "%s:", loc->member) : 0;
	if (n < 0 || (size_t)n >= len)
		n = 0;
	if (loc->line)
		snprintf(out + n, len - (size_t)n, "%u:%u", loc->line, loc->column);
	else
		snprintf(out + n, len - (size_t)n, "%llu", (unsigned long long)loc->offset);
}

static void on_diag(const struct tl_diagnostic *d, void *user)
{
	struct first_error *fe = user;
	char where[sizeof fe->where];
	location_text(where, sizeof where, &d->loc);
	if (d->severity == TL_ERROR && !fe->rule[0] && d->rule) {
		snprintf(fe->rule, sizeof fe->rule, "%s", d->rule->id);
		snprintf(fe->where, sizeof fe->where, "%s", where);
		copy_line(fe->message, sizeof fe->message, d->message, strlen(d->message));
	}
	if (fe->all)
		fprintf(fe->all, "%s %s %s %s\n", where, tl_severity_name(d->severity),
			d->rule ? d->rule->id : "?", d->message);
}

/* The paths .args options name, resolved against the case's directory. */
struct arg_paths {
	char pair[4096];
	char instr_map[4096];
};

static void resolve(char *out, size_t outlen, const char *case_dir, const char *path)
{
	if (path[0] == '/' || !case_dir)
		snprintf(out, outlen, "%s", path);
	else
		snprintf(out, outlen, "%s/%s", case_dir, path);
}

/* Applies the .args options the library understands; --pair= and
 * --instr-map= are relative to the case's directory. */
static int apply_args(struct tl_options *o, const char *args, const char *case_dir,
		      struct arg_paths *paths, char *err, size_t errlen)
{
	if (!args)
		return 0;
	char *copy = xstrdup(args);
	int rc = 0;
	for (char *a = strtok(copy, "\n"); a; a = strtok(NULL, "\n")) {
		if (strcmp(a, "--endian=little") == 0) {
			o->endian = TL_ENDIAN_LITTLE;
		} else if (strcmp(a, "--endian=big") == 0) {
			o->endian = TL_ENDIAN_BIG;
		} else if (strncmp(a, "--format=", 9) == 0) {
			o->format = tl_format_from_name(a + 9);
			if (o->format == TL_FORMAT_COUNT) {
				snprintf(err, errlen, "unknown format in .args: %s", a + 9);
				rc = -1;
			}
		} else if (strncmp(a, "--pair=", 7) == 0) {
			resolve(paths->pair, sizeof paths->pair, case_dir, a + 7);
			o->pair_path = paths->pair;
		} else if (strncmp(a, "--instr-map=", 12) == 0) {
			resolve(paths->instr_map, sizeof paths->instr_map, case_dir, a + 12);
			o->instr_map_path = paths->instr_map;
		} else if (strcmp(a, "--werror") == 0) {
			o->werror = true;
		}
		/* --max-errors and output options change the report, not the verdict. */
	}
	free(copy);
	return rc;
}

static int finish(enum tl_status st, const struct tl_result *res, const struct first_error *fe,
		  struct verdict *v, char *err, size_t errlen)
{
	if (st != TL_OK) {
		if (!err[0])
			snprintf(err, errlen, "tracelint could not validate (status %d)", (int)st);
		return -1;
	}
	v->reject = !res->valid;
	snprintf(v->rule, sizeof v->rule, "%s", v->reject ? fe->rule : "");
	snprintf(v->where, sizeof v->where, "%s", v->reject ? fe->where : "");
	snprintf(v->message, sizeof v->message, "%s", v->reject ? fe->message : "");
	return 0;
}

int oracle_path(enum tl_format_id fmt, const char *path, const char *args,
		struct verdict *v, char *err, size_t errlen)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = fmt;
	char dir[4096];
	struct arg_paths paths;
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	err[0] = '\0';
	if (apply_args(&o, args, slash ? dir : ".", &paths, err, errlen) != 0)
		return -1;
	struct first_error fe = { "", "", "", NULL };
	o.on_diag = on_diag;
	o.user = &fe;
	struct tl_result res;
	enum tl_status st = tl_validate_path(path, &o, &res, err, errlen);
	return finish(st, &res, &fe, v, err, errlen);
}

/* A mutant validated from memory; its diagnostics are listed on `list`
 * when that is not NULL. */
static int validate_mutant(enum tl_format_id fmt, const void *data, size_t size, const char *args,
			   const char *case_dir, FILE *list, struct verdict *v, char *err, size_t errlen)
{
	struct tl_options o;
	tl_options_init(&o);
	o.format = fmt;
	struct arg_paths paths;
	err[0] = '\0';
	if (apply_args(&o, args, case_dir, &paths, err, errlen) != 0)
		return -1;
	struct first_error fe = { "", "", "", list };
	o.on_diag = on_diag;
	o.user = &fe;
	struct tl_result res;
	enum tl_status st = tl_validate_buffer(data, size, "mutant", &o, &res, err, errlen);
	return finish(st, &res, &fe, v, err, errlen);
}

int oracle_buffer(enum tl_format_id fmt, const void *data, size_t size, const char *args,
		  const char *case_dir, struct verdict *v, char *err, size_t errlen)
{
	return validate_mutant(fmt, data, size, args, case_dir, NULL, v, err, errlen);
}

int oracle_buffer_list(enum tl_format_id fmt, const void *data, size_t size, const char *args,
		       const char *case_dir, FILE *out, char *err, size_t errlen)
{
	struct verdict v;
	return validate_mutant(fmt, data, size, args, case_dir, out, &v, err, errlen);
}

void oracle_detail(enum tl_format_id fmt, const struct corpus_case *c, struct verdict *v)
{
	struct verdict run;
	char err[512];
	if (oracle_path(fmt, c->path, c->args, &run, err, sizeof err) != 0 || !run.reject)
		return;
	if (!v->rule[0] || strcmp(run.rule, v->rule) == 0 || !c->labelled) {
		snprintf(v->where, sizeof v->where, "%s", run.where);
		snprintf(v->message, sizeof v->message, "%s", run.message);
	}
}

/* Can tracelint judge this format in this build? Not when the catalog has no
 * rule of the format (its validator is not in this build), nor when
 * it rejects none of the corpus's invalid cases. */
bool oracle_available(enum tl_format_id fmt, const struct corpus *c, char *why, size_t whylen)
{
	const char *name = tl_format_name(fmt);
	size_t rules = 0;
	for (size_t i = 0; i < tl_rule_count(); i++)
		if (strcmp(tl_rule_at(i)->format, name) == 0)
			rules++;
	if (!rules) {
		snprintf(why, whylen, "tracelint's catalog has no %s rule in this build", name);
		return false;
	}
	size_t invalid = 0, rejected = 0;
	for (size_t i = 0; i < c->count; i++) {
		if (c->cases[i].kind != CASE_INVALID)
			continue;
		invalid++;
		struct verdict v;
		char err[256];
		if (oracle_path(fmt, c->cases[i].path, c->cases[i].args, &v, err, sizeof err) == 0 && v.reject)
			rejected++;
	}
	if (invalid && !rejected) {
		snprintf(why, whylen, "tracelint rejects none of the %zu invalid %s cases", invalid, name);
		return false;
	}
	return true;
}
