/* Reading .tracelint.ini with inih: INI sections and KEY = VALUE lines;
 * this file gives each key its meaning and says where a value is wrong. */
#include "config_file.h"
#include "cli.h"
#include "grow.h"
#include "rule_index.h"
#include "rule_list.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct parse {
	struct config_file *file;
	FILE *in;
	unsigned line;               /* the line inih has just read */
	char text[1024];             /* that line, for columns in messages */
	uintptr_t buf;               /* inih's copy of it, where its keys and values point */
	bool too_long;
	char why[512];               /* the first error, with its column */
	unsigned why_line;
	const char *section;         /* the last section name seen */
	bool key_in_section;         /* a key since the last section line: inih reads an
	                              * indented line as that key's value continued */
	struct tl_rule_index rules;  /* built at the first rule list, so a long one
	                              * is checked pattern by pattern, not against the
	                              * whole catalog each */
	bool rules_ready;
	size_t *slots;               /* [path] sections by glob: open addressing, number + 1 */
	size_t nslots;
	size_t main_section;         /* [tracelint]'s number, or SIZE_MAX */
};

static int fail(struct parse *p, const char *needle, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* [tracelint] or [path "GLOB"] (at least one character of glob). */
static bool section_name_ok(const char *name, size_t n)
{
	return (n == 9 && memcmp(name, "tracelint", 9) == 0) ||
	       (n >= 8 && memcmp(name, "path \"", 6) == 0 && name[n - 1] == '"');
}

/* inih hands a section's name over with its first key, on that key's line:
 * a wrong name is checked here, on its own line, where it is written (and
 * also when no key follows it). inih's name is the text between '[' and
 * the first ']' of a line whose first non-blank is '['. */
static void check_header(struct parse *p, char *line)
{
	char *open = line + strspn(line, " \t\r\f\v");
	if (*open != '[' || (open > line && p->key_in_section))
		return;
	p->key_in_section = false;
	char *close = strchr(open, ']');
	if (p->why[0] || !close)
		return; /* an unclosed name is inih's syntax error */
	size_t n = (size_t)(close - open - 1);
	if (!section_name_ok(open + 1, n))
		fail(p, open + 1, "expected a section [tracelint] or [path \"GLOB\"], found [%.*s]", (int)n, open + 1);
}

/* inih's reader: counts lines, keeps the text, and refuses lines inih would cut. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse *p = stream;
	if (!fgets(str, num, p->in))
		return NULL;
	p->line++;
	p->buf = (uintptr_t)str;
	size_t n = strlen(str);
	if (n + 1 == (size_t)num && str[n - 1] != '\n' && !feof(p->in)) {
		p->too_long = true;
		int c;
		while ((c = fgetc(p->in)) != EOF && c != '\n')
			;
	}
	snprintf(p->text, sizeof p->text, "%s", str);
	check_header(p, str);
	return str;
}

/* The 1-based column of needle in the current line (1 when it is not there).
 * A key, value or section name inih hands over points into its copy of the
 * line: its place there is its column, even when its text also occurs
 * earlier in the line ("max-errors = x"). */
static unsigned column_of(const struct parse *p, const char *needle)
{
	uintptr_t at_buf = (uintptr_t)needle;
	if (needle && at_buf >= p->buf && at_buf - p->buf <= strlen(p->text)) /* an empty value at the end: just past it */
		return (unsigned)(at_buf - p->buf) + 1;
	const char *at = needle && *needle ? strstr(p->text, needle) : NULL;
	return at ? (unsigned)(at - p->text) + 1 : 1;
}

/* The error, "LINE:COLUMN: what", the column at needle; called once at
 * most, as handle ignores every key after the first error. */
static int fail(struct parse *p, const char *needle, const char *fmt, ...)
{
	char what[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(p->why, sizeof p->why, "%u:%u: %s", p->line, column_of(p, needle), what);
	p->why_line = p->line;
	return 0;
}

static struct config_section *new_section(struct parse *p, const char *glob)
{
	struct config_file *f = p->file;
	struct config_section *more = tl_grow_array(f->sections, &f->section_cap, f->section_count,
						     sizeof *more, 4);
	if (!more)
		return NULL;
	f->sections = more;
	struct config_section *s = &f->sections[f->section_count++];
	memset(s, 0, sizeof *s);
	s->format = s->endian = s->werror = -1;
	s->max_errors = s->threads = -1;
	if (glob && !(s->glob = strdup(glob))) {
		f->section_count--;
		return NULL;
	}
	return s;
}

static size_t glob_hash(const char *g)
{
	uint64_t h = 1469598103934665603ull;
	for (; *g; g++)
		h = (h ^ (uint8_t)*g) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of glob g: its section's, or the empty one where it goes. */
static size_t *glob_slot(const struct parse *p, const char *g)
{
	size_t mask = p->nslots - 1;
	for (size_t i = glob_hash(g) & mask;; i = (i + 1) & mask)
		if (!p->slots[i] || strcmp(p->file->sections[p->slots[i] - 1].glob, g) == 0)
			return &p->slots[i];
}

/* Indexes section number k (a [path] section); false without memory. */
static bool index_section(struct parse *p, size_t k)
{
	if (2 * (k + 1) > p->nslots) {
		size_t n = p->nslots ? 2 * p->nslots : 64, *old = p->slots, oldn = p->nslots;
		if (!(p->slots = calloc(n, sizeof *p->slots))) {
			p->slots = old;
			return false;
		}
		p->nslots = n;
		for (size_t i = 0; i < oldn; i++)
			if (old[i])
				*glob_slot(p, p->file->sections[old[i] - 1].glob) = old[i];
		free(old);
	}
	*glob_slot(p, p->file->sections[k].glob) = k + 1;
	return true;
}

/* [tracelint] or [path "GLOB"]; the same name again continues its section. */
static struct config_section *section_for(struct parse *p, const char *name)
{
	struct config_file *f = p->file;
	char glob[1024];
	const char *g = NULL;
	if (strcmp(name, "tracelint") != 0) {
		size_t n = strlen(name);
		if (!section_name_ok(name, n)) { /* check_header reported it on its line */
			fail(p, name, "expected a section [tracelint] or [path \"GLOB\"], found [%s]", name);
			return NULL;
		}
		snprintf(glob, sizeof glob, "%.*s", (int)(n - 7), name + 6);
		g = glob;
	}
	if (!g && p->main_section != SIZE_MAX)
		return &f->sections[p->main_section];
	size_t *slot = g && p->nslots ? glob_slot(p, g) : NULL;
	if (slot && *slot)
		return &f->sections[*slot - 1];
	struct config_section *s = new_section(p, g);
	if (s && !g)
		p->main_section = f->section_count - 1;
	else if (s && !index_section(p, f->section_count - 1))
		s = NULL;
	if (!s)
		fail(p, NULL, "out of memory");
	return s;
}

static bool add_rule(struct config_section *s, const char *pattern, enum tl_rule_action action)
{
	char *copy = strdup(pattern); /* the section owns its patterns */
	if (copy && cli_add_rule(&s->rules, &s->rule_count, &s->rule_cap,
				 (struct tl_rule_setting){ copy, action }))
		return true;
	free(copy);
	return false;
}

/* RULES: IDs, globs or format names, separated by commas or blanks. */
static int add_rules(struct parse *p, struct config_section *s, const char *key, const char *value,
		     enum tl_rule_action action)
{
	char list[1024];
	snprintf(list, sizeof list, "%s", value);
	if (strcmp(key, "select") == 0 && !s->selected) {
		s->selected = true;
		if (!add_rule(s, "*", TL_RULE_OFF))
			return fail(p, NULL, "out of memory");
	}
	for (char *save = NULL, *r = strtok_r(list, ", \t", &save); r; r = strtok_r(NULL, ", \t", &save)) {
		if (!p->rules_ready && !(p->rules_ready = tl_rule_index_init(&p->rules)))
			return fail(p, NULL, "out of memory");
		if (tl_rule_index_match(&p->rules, r, NULL, NULL) == 0)
			return fail(p, r, "%s: '%s' matches no rule (see tracelint --list-rules)", key, r);
		if (!add_rule(s, r, action))
			return fail(p, NULL, "out of memory");
	}
	return 1;
}

static int choice(struct parse *p, const char *key, const char *value, const char *const *names,
		  int count, int *out)
{
	for (int i = 0; i < count; i++) {
		if (strcmp(value, names[i]) == 0) {
			*out = i;
			return 1;
		}
	}
	return fail(p, value, "%s: unknown value '%s'", key, value);
}

static int set_string(struct parse *p, char **slot, const char *value)
{
	free(*slot);
	if (!(*slot = strdup(value)))
		return fail(p, NULL, "out of memory");
	return 1;
}

/* A whole number from least to most into *out; what says what was expected. */
static int whole_number(struct parse *p, const char *key, const char *value, unsigned long long least,
			unsigned long long most, const char *what, long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(value, &end, 10);
	if (*value < '0' || *value > '9' || *end || errno || v < least || v > most)
		return fail(p, value, "%s: expected %s, found '%s'", key, what, value);
	*out = (long long)v;
	return 1;
}

static int global_key(struct parse *p, const char *key, const char *value)
{
	struct config_file *f = p->file;
	if (strcmp(key, "exclude") == 0) {
		char list[1024];
		snprintf(list, sizeof list, "%s", value);
		for (char *save = NULL, *g = strtok_r(list, ", \t", &save); g; g = strtok_r(NULL, ", \t", &save)) {
			char **more = tl_grow_array(f->excludes, &f->exclude_cap, f->exclude_count, sizeof *more, 8);
			if (!more || !(more[f->exclude_count] = strdup(g)))
				return fail(p, NULL, "out of memory");
			f->excludes = more;
			f->exclude_count++;
		}
		return 1;
	}
	if (strcmp(key, "force-exclude") == 0) {
		static const char *const bools[] = { "false", "true" };
		return choice(p, key, value, bools, 2, &f->force_exclude);
	}
	static const char *const actions[] = { "skip", "error" };
	return choice(p, key, value, actions, 2, &f->unknown_format);
}

static int handle(void *user, const char *section, const char *key, const char *value)
{
	struct parse *p = user;
	p->key_in_section = true;
	if (p->why[0])
		return 1; /* the first error is the one reported */
	if (!*section)
		return fail(p, key, "expected '%s' inside a section ([tracelint] or [path \"GLOB\"])", key);
	struct config_section *s = section_for(p, section);
	if (!s)
		return 0;
	static const char *const bools[] = { "false", "true" };
	static const char *const orders[] = { "auto", "little", "big" };
	if (strcmp(key, "select") == 0 || strcmp(key, "warning") == 0 || strcmp(key, "note") == 0 ||
	    strcmp(key, "error") == 0 || strcmp(key, "ignore") == 0 || strcmp(key, "default") == 0) {
		enum tl_rule_action action = key[0] == 'w' ? TL_RULE_WARNING : key[0] == 'n' ? TL_RULE_NOTE
					   : key[0] == 'e' ? TL_RULE_ERROR : key[0] == 'i' ? TL_RULE_OFF
					   : TL_RULE_DEFAULT;
		return add_rules(p, s, key, value, action);
	}
	if (strcmp(key, "werror") == 0)
		return choice(p, key, value, bools, 2, &s->werror);
	if (strcmp(key, "endian") == 0)
		return choice(p, key, value, orders, 3, &s->endian);
	if (strcmp(key, "format") == 0) {
		enum tl_format_id id = tl_format_from_name(value);
		if (id == TL_FORMAT_COUNT)
			return fail(p, value, "format: unknown format '%s' (auto, xray, dcfg, dcfg-trace, umtrace, tfile)", value);
		s->format = id;
		return 1;
	}
	if (strcmp(key, "max-errors") == 0)
		return whole_number(p, key, value, 0, UINT_MAX, "a whole number", &s->max_errors);
	if (strcmp(key, "max-memory") == 0) {
		if (!cli_parse_size(value, &s->max_memory))
			return fail(p, value, "%s: expected a size such as 512M or 8G (0: no limit), found '%s'", key, value);
		s->has_max_memory = true;
		return 1;
	}
	if (strcmp(key, "threads") == 0)
		return whole_number(p, key, value, 1, 64, "a number of threads from 1 to 64", &s->threads);
	if (strcmp(key, "pair") == 0)
		return set_string(p, &s->pair, value);
	if (strcmp(key, "instr-map") == 0)
		return set_string(p, &s->instr_map, value);
	if (!s->glob && (strcmp(key, "exclude") == 0 || strcmp(key, "unknown-format") == 0 ||
			 strcmp(key, "force-exclude") == 0))
		return global_key(p, key, value);
	return fail(p, key, "unknown key '%s'%s (see CONFIGURATION in tracelint(1))", key,
		    s->glob ? " in a [path] section" : "");
}

/* Opened without waiting on a FIFO or a device and refused unless it is a
 * regular file: a config is read to its end, which /dev/zero has not, a
 * FIFO may never give, and a directory reads as nothing. */
FILE *config_file_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot read the config %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
				 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket"
				 : "not a regular file";
		snprintf(err, errlen, "the config %s is %s: expected a regular file", path, what);
		close(fd);
		return NULL;
	}
	int flags = fcntl(fd, F_GETFL);
	FILE *in = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "r");
	if (!in) {
		snprintf(err, errlen, "cannot read the config %s: %s", path, strerror(errno));
		close(fd);
	}
	return in;
}

/* What is wrong with line `line`, which inih could not read, and where. */
static const char *syntax_error(const char *path, unsigned line, unsigned *column)
{
	char text[1024] = "", ignored[8];
	FILE *in = config_file_open(path, ignored, sizeof ignored);
	for (unsigned n = 0; in && n < line && fgets(text, sizeof text, in); n++)
		;
	if (in)
		fclose(in);
	text[strcspn(text, "\r\n")] = '\0';
	size_t lead = strspn(text, " \t");
	*column = (unsigned)lead + 1;
	if (text[lead] == '[') {
		*column = (unsigned)strlen(text) + 1;
		return "expected ']' to close the section name";
	}
	return "expected [SECTION], KEY = VALUE, or a comment (; or #)";
}

bool config_file_load(struct config_file *f, const char *path, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	f->unknown_format = -1;
	f->force_exclude = -1;
	struct parse p = { .file = f, .main_section = SIZE_MAX };
	if (!(f->path = strdup(path)) || !(p.in = config_file_open(path, err, errlen))) {
		if (!f->path)
			snprintf(err, errlen, "out of memory");
		return false;
	}
	int rc = ini_parse_stream(read_line, &p, handle, &p);
	fclose(p.in);
	free(p.slots);
	if (p.rules_ready)
		tl_rule_index_free(&p.rules);
	/* an error of ours made handle return 0 on its line, so inih returns
	 * the first failing line: with p.why, rc is -2 or from 1 to why_line;
	 * a section name's error (check_header) leaves inih at 0 or a later line */
	if (rc == 0 && !p.too_long && !p.why[0])
		return true;
	if (rc == -2) {
		snprintf(err, errlen, "%s: out of memory", path);
	} else if (p.why[0] && (rc == 0 || (unsigned)rc >= p.why_line)) {
		snprintf(err, errlen, "%s:%s", path, p.why);
	} else if (p.too_long) {
		snprintf(err, errlen, "%s: expected lines of at most %d characters, found a longer one", path,
			 INI_MAX_LINE - 2);
	} else {
		/* inih's own error: a line that is neither [SECTION] nor KEY = VALUE */
		unsigned column;
		const char *what = syntax_error(path, (unsigned)rc, &column);
		snprintf(err, errlen, "%s:%d:%u: %s", path, rc, column, what);
	}
	return false;
}

void config_file_free(struct config_file *f)
{
	for (size_t i = 0; i < f->section_count; i++) {
		struct config_section *s = &f->sections[i];
		for (size_t r = 0; r < s->rule_count; r++)
			free((void *)(uintptr_t)s->rules[r].pattern);
		free(s->rules);
		free(s->glob);
		free(s->pair);
		free(s->instr_map);
	}
	free(f->sections);
	for (size_t i = 0; i < f->exclude_count; i++)
		free(f->excludes[i]);
	free(f->excludes);
	free(f->path);
	free(f->dir);
	memset(f, 0, sizeof *f);
}
