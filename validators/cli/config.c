/* Which config applies to a path, and what it makes of the options: the
 * defaults, then the config's [tracelint] section, then each [path "GLOB"]
 * section matching the path in file order, then the command line. */
#include "config.h"
#include "cli.h"
#include "config_file.h"
#include "glob.h"
#include "grow.h"
#include "rule_list.h"
#include "safe_text.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_configs {
	bool disabled;                 /* --no-config */
	struct config_file *named;     /* --config FILE */
	struct config_file **loaded;   /* found by discovery, each read once */
	size_t loaded_count, loaded_cap;
	char last_dir[PATH_MAX];       /* walks give many files of one directory in a row */
	struct config_file *last_found;
	char **skipped;                /* untrusted configs found, each noted once */
	size_t skipped_count, skipped_cap;
	char *home;                    /* the user's home directory (absolute), or NULL */
};

static struct config_file *load(const char *path, char *err, size_t errlen)
{
	struct config_file *f = malloc(sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!config_file_load(f, path, err, errlen)) {
		config_file_free(f);
		free(f);
		return NULL;
	}
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *abs = realpath(slash ? (*dir ? dir : "/") : ".", NULL);
	if (!abs) {
		snprintf(err, errlen, "cannot resolve the directory of the config %s: %s", path, strerror(errno));
		config_file_free(f);
		free(f);
		return NULL;
	}
	f->dir = abs;
	return f;
}

struct cli_configs *cli_configs_new(const struct cli *c, char *err, size_t errlen)
{
	struct cli_configs *cc = calloc(1, sizeof *cc);
	if (!cc) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cc->disabled = c->no_config;
	const char *home = getenv("HOME");
	if (!home || !*home) {
		const struct passwd *pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	cc->home = home ? realpath(home, NULL) : NULL;
	/* main refuses --config with --no-config */
	if (c->config_path && !(cc->named = load(c->config_path, err, errlen))) {
		cli_configs_free(cc);
		return NULL;
	}
	return cc;
}

/* The directory part and the last component of path ("a/b/" gives "a", "b"). */
static void split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	size_t n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '/')
		tmp[--n] = '\0';
	char *slash = strrchr(tmp, '/');
	if (!slash) {
		snprintf(dir, dirlen, ".");
		*base = path;
	} else {
		*slash = '\0';
		snprintf(dir, dirlen, "%s", *tmp ? tmp : "/");
		*base = path + (slash - tmp) + 1;
	}
}

static bool exists(const char *dir, const char *name, bool want_dir)
{
	char p[PATH_MAX + 64];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
	return stat(p, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

static struct config_file *cached(struct cli_configs *cc, const char *path)
{
	for (size_t i = 0; i < cc->loaded_count; i++)
		if (strcmp(cc->loaded[i]->path, path) == 0)
			return cc->loaded[i];
	return NULL;
}

/* dir is below (or is) top, both absolute. */
static bool within(const char *dir, const char *top)
{
	size_t n = strlen(top);
	return strcmp(top, "/") == 0 || (strncmp(dir, top, n) == 0 && (dir[n] == '/' || dir[n] == '\0'));
}

/* Where discovery from abs_dir stops: the nearest directory holding .git
 * (the repository root); outside a repository the user's home directory
 * when abs_dir is in it, else abs_dir itself (nothing above is looked at). */
static void ceiling_of(const struct cli_configs *cc, const char *abs_dir, char *top, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", abs_dir);
	for (;;) {
		if (exists(dir, ".git", false) || exists(dir, ".git", true)) {
			snprintf(top, len, "%s", dir);
			return;
		}
		if (strcmp(dir, "/") == 0)
			break;
		char *slash = strrchr(dir, '/');
		slash[slash == dir] = '\0';
	}
	snprintf(top, len, "%s", cc->home && within(abs_dir, cc->home) ? cc->home : abs_dir);
}

/* Why the config `file` in `dir` is not to be trusted (as git's
 * safe.directory): it belongs to someone other than the user or root, or
 * others may replace it (its directory belongs to someone else, or other
 * users may write it and it is not sticky). NULL when trusted. */
static const char *distrust(const char *dir, const char *file, char *why, size_t len)
{
	struct stat fs, ds;
	uid_t me = geteuid();
	if (stat(file, &fs) != 0 || stat(dir, &ds) != 0)
		return strerror(errno);
	if (fs.st_uid != me && fs.st_uid != 0) {
		snprintf(why, len, "it belongs to user %lu, not to you or root", (unsigned long)fs.st_uid);
		return why;
	}
	if (ds.st_uid != me && ds.st_uid != 0) {
		snprintf(why, len, "its directory belongs to user %lu, not to you or root", (unsigned long)ds.st_uid);
		return why;
	}
	if ((ds.st_mode & (S_IWGRP | S_IWOTH)) && !(ds.st_mode & S_ISVTX)) {
		snprintf(why, len, "other users may write its directory (mode %04o)", (unsigned)(ds.st_mode & 07777));
		return why;
	}
	return NULL;
}

/* Notes an untrusted config on standard error, once; false without memory. */
static bool note_skipped(struct cli_configs *cc, const char *file, const char *why)
{
	for (size_t i = 0; i < cc->skipped_count; i++)
		if (strcmp(cc->skipped[i], file) == 0)
			return true;
	char **more = tl_grow_array(cc->skipped, &cc->skipped_cap, cc->skipped_count, sizeof *more, 4);
	if (!more)
		return false;
	cc->skipped = more;
	if (!(cc->skipped[cc->skipped_count] = strdup(file)))
		return false;
	cc->skipped_count++;
	char shown[PATH_MAX * 4];
	tl_text_escape(shown, sizeof shown, file);
	fprintf(stderr, "tracelint: note: ignoring the config %s: %s\n", shown, why);
	return true;
}

/* From the directory upward: the first trusted .tracelint.ini, up to the
 * ceiling (ceiling_of). */
static bool discover(struct cli_configs *cc, const char *abs_dir, struct config_file **found,
		     char *err, size_t errlen)
{
	if (strcmp(abs_dir, cc->last_dir) == 0) {
		*found = cc->last_found;
		return true;
	}
	char dir[PATH_MAX], top[PATH_MAX], why[128];
	snprintf(dir, sizeof dir, "%s", abs_dir);
	ceiling_of(cc, abs_dir, top, sizeof top);
	*found = NULL;
	for (;;) {
		char file[PATH_MAX + 64];
		snprintf(file, sizeof file, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, CLI_CONFIG_NAME);
		const char *untrusted = exists(dir, CLI_CONFIG_NAME, false) ? distrust(dir, file, why, sizeof why) : NULL;
		if (untrusted && !note_skipped(cc, file, untrusted)) {
			snprintf(err, errlen, "out of memory");
			return false;
		}
		if (!untrusted && exists(dir, CLI_CONFIG_NAME, false)) {
			if (!(*found = cached(cc, file))) {
				struct config_file **more = tl_grow_array(cc->loaded, &cc->loaded_cap,
									  cc->loaded_count, sizeof *more, 4);
				if (!more) {
					snprintf(err, errlen, "out of memory");
					return false;
				}
				cc->loaded = more;
				if (!(*found = load(file, err, errlen)))
					return false;
				cc->loaded[cc->loaded_count++] = *found;
			}
			break;
		}
		/* dir is absolute (realpath's) and stays so, so it holds a slash */
		char *slash = strrchr(dir, '/');
		if (strcmp(dir, top) == 0 || strcmp(dir, "/") == 0)
			break;
		slash[slash == dir] = '\0'; /* the parent; "/x" becomes "/" */
	}
	snprintf(cc->last_dir, sizeof cc->last_dir, "%s", abs_dir);
	cc->last_found = *found;
	return true;
}

/* A config path value: {dir}, {name} and {stem} of the validated path
 * filled in; relative results are relative to the config's directory,
 * unless they start with {dir} (the path's own directory, as given). */
static char *expand(const char *templ, const struct config_file *f, const char *path)
{
	char dir[PATH_MAX], out[PATH_MAX] = "";
	const char *base;
	split_path(path, dir, sizeof dir, &base);
	char stem[PATH_MAX];
	snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base, "."), base);
	size_t n = 0;
	for (const char *t = templ; *t && n + 1 < sizeof out;) {
		const char *with = NULL;
		size_t skip = 0;
		if (strncmp(t, "{dir}", 5) == 0)
			with = dir, skip = 5;
		else if (strncmp(t, "{name}", 6) == 0)
			with = base, skip = 6;
		else if (strncmp(t, "{stem}", 6) == 0)
			with = stem, skip = 6;
		if (with) {
			n += (size_t)snprintf(out + n, sizeof out - n, "%s", with);
			if (n >= sizeof out)
				n = sizeof out - 1;
			t += skip;
		} else {
			out[n++] = *t++;
			out[n] = '\0';
		}
	}
	char full[2 * PATH_MAX];
	if (out[0] != '/' && strncmp(templ, "{dir}", 5) != 0)
		snprintf(full, sizeof full, "%s/%s", f->dir, out);
	else
		snprintf(full, sizeof full, "%s", out);
	return strdup(full);
}

static bool push_rules(struct cli_file_options *o, size_t *cap, size_t *count,
		       const struct tl_rule_setting *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!cli_add_rule(&o->rules, count, cap, rules[i]))
			return false;
	return true;
}

static bool apply_section(struct cli_file_options *o, const struct config_section *s,
			  const struct config_file *f, const char *path)
{
	if (s->format >= 0)
		o->opts.format = (enum tl_format_id)s->format;
	if (s->endian >= 0)
		o->opts.endian = (enum tl_endian)s->endian;
	if (s->werror >= 0)
		o->opts.werror = s->werror;
	if (s->max_errors >= 0)
		o->opts.max_errors = (unsigned)s->max_errors;
	if (s->threads >= 0)
		o->opts.threads = (unsigned)s->threads;
	if (s->has_max_memory)
		o->opts.max_memory = s->max_memory;
	if (s->pair) {
		free(o->pair_path);
		if (!(o->pair_path = expand(s->pair, f, path)))
			return false;
	}
	if (s->instr_map) {
		free(o->instr_map_path);
		if (!(o->instr_map_path = expand(s->instr_map, f, path)))
			return false;
	}
	return true;
}

/* path relative to the config's directory, or false when it lies outside. */
static bool relative_to(const struct config_file *f, const char *path, char *rel, size_t len)
{
	char dir[PATH_MAX];
	const char *base;
	split_path(path, dir, sizeof dir, &base);
	char *abs = strcmp(path, "-") == 0 ? NULL : realpath(dir, NULL);
	if (!abs)
		return false;
	size_t n = strlen(f->dir);
	bool inside = strcmp(f->dir, "/") == 0 ? true
		      : strncmp(abs, f->dir, n) == 0 && (abs[n] == '/' || abs[n] == '\0');
	if (inside) {
		const char *below = strcmp(f->dir, "/") == 0 ? abs + 1 : abs + n + (abs[n] == '/');
		snprintf(rel, len, "%s%s%.*s", below, *below ? "/" : "",
			 (int)strcspn(base, "/"), base);
	}
	free(abs);
	return inside;
}

bool cli_configs_resolve(struct cli_configs *cc, const struct cli *c, const char *path,
			 bool walked, struct cli_file_options *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->opts = c->opts;
	struct config_file *f = cc->named;
	if (!f && !cc->disabled) {
		char dir[PATH_MAX];
		const char *base;
		if (strcmp(path, "-") == 0)
			snprintf(dir, sizeof dir, ".");
		else
			split_path(path, dir, sizeof dir, &base);
		char *abs = realpath(dir, NULL);
		bool ok = !abs || discover(cc, abs, &f, err, errlen);
		free(abs);
		if (!ok)
			return false;
	}
	size_t cap = 0, count = 0;
	bool ok = true;
	if (f) {
		out->config = f->path;
		char rel[PATH_MAX];
		bool inside = relative_to(f, path, rel, sizeof rel);
		/* [tracelint] first wherever it is written, then the matching [path] sections */
		for (int pass = 0; pass < 2; pass++) {
			for (size_t i = 0; ok && i < f->section_count; i++) {
				const struct config_section *s = &f->sections[i];
				bool applies = pass == 0 ? !s->glob : s->glob && inside && cli_glob_match(s->glob, rel);
				if (applies)
					ok = push_rules(out, &cap, &count, s->rules, s->rule_count) &&
					     apply_section(out, s, f, path);
			}
		}
		bool force = c->force_exclude || f->force_exclude == 1;
		for (size_t i = 0; (walked || force) && inside && i < f->exclude_count; i++)
			out->excluded |= cli_glob_match(f->excludes[i], rel);
	}
	ok = ok && push_rules(out, &cap, &count, c->rules, c->rule_count);
	if (!ok) {
		snprintf(err, errlen, "out of memory");
		cli_file_options_free(out);
		return false;
	}
	out->opts.rule_settings = out->rules;
	out->opts.rule_setting_count = count;
	if (out->pair_path)
		out->opts.pair_path = out->pair_path;
	if (out->instr_map_path)
		out->opts.instr_map_path = out->instr_map_path;
	/* the command line over the config */
	if (c->format_given)
		out->opts.format = c->opts.format;
	if (c->endian_given)
		out->opts.endian = c->opts.endian;
	if (c->max_errors_given)
		out->opts.max_errors = c->opts.max_errors;
	if (c->max_memory_given)
		out->opts.max_memory = c->opts.max_memory;
	if (c->opts.threads)
		out->opts.threads = c->opts.threads;
	if (c->opts.werror)
		out->opts.werror = true;
	if (c->opts.pair_path)
		out->opts.pair_path = c->opts.pair_path;
	if (c->opts.instr_map_path)
		out->opts.instr_map_path = c->opts.instr_map_path;
	int unknown = c->unknown_format >= 0 ? c->unknown_format : f ? f->unknown_format : -1;
	out->skip_unknown = unknown >= 0 ? unknown == 0 : walked;
	return true;
}

void cli_file_options_free(struct cli_file_options *o)
{
	free(o->rules);
	free(o->pair_path);
	free(o->instr_map_path);
	memset(o, 0, sizeof *o);
}

void cli_configs_free(struct cli_configs *cc)
{
	if (!cc)
		return;
	if (cc->named) {
		config_file_free(cc->named);
		free(cc->named);
	}
	for (size_t i = 0; i < cc->loaded_count; i++) {
		config_file_free(cc->loaded[i]);
		free(cc->loaded[i]);
	}
	free(cc->loaded);
	for (size_t i = 0; i < cc->skipped_count; i++)
		free(cc->skipped[i]);
	free(cc->skipped);
	free(cc->home);
	free(cc);
}
