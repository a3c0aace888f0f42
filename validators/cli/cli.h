/* tracelint's command line: what the options say, and the exit statuses. */
#ifndef TL_CLI_H
#define TL_CLI_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

struct cli {
	struct tl_options opts;
	enum tl_output_style style;
	bool quiet;
	bool list_rules;
	bool explain;            /* --explain: the paths are rule IDs or globs */
	/* --select, --ignore, --severity, --error in command-line order
	 * (a --select first turns every rule off) */
	struct tl_rule_setting *rules;
	size_t rule_count, rule_cap;
	bool selected;
	char **paths;
	size_t path_count;
	const char *files_from;  /* --files-from: more paths, one a line ("-": standard input) */
	bool staged_deletions;   /* --staged-deletions: also the traces a staged deletion broke */
	bool force_exclude;      /* --force-exclude: a config's exclude= drops named paths too */
	bool nul_separated;      /* -0: those paths end with NUL bytes, not newlines */
	/* given on the command line, so that they win over a config file */
	bool format_given, endian_given, max_errors_given, max_memory_given;
	const char *config_path; /* --config */
	bool no_config;          /* --no-config */
	int unknown_format;      /* --unknown-format: -1 not given, 0 skip, 1 error */
	unsigned jobs;           /* -j: 0 = one per core */
	const char *baseline;    /* --baseline: report only diagnostics not recorded here */
	const char *write_baseline; /* --write-baseline: record every diagnostic here */
	bool write_through_symlink; /* --write-through-symlink: a link at it is followed */
	const char *sarif_root;  /* --sarif-root: SARIF URIs relative to this directory */
	const char *help_base;   /* --sarif-help-base: where the rule catalogs are published */
	int context;             /* --context 1, --no-context 0, -1: on a terminal */
	int color;               /* --color: 0 never, 1 always, 2 auto (default) */
};

/* Reads the options (anywhere on the line, GNU style; "--" ends them) and the
 * paths. Returns -1 to go on, or the exit status to stop with (usage error,
 * --help, --version). */
int cli_parse(struct cli *c, int argc, char **argv);
/* A byte count with an optional K, M, G or T suffix; 0 is "no limit" (UINT64_MAX). */
bool cli_parse_size(const char *s, uint64_t *out);
void cli_free(struct cli *c);

/* --list-rules: the paths are rule IDs or globs; text or JSON (-o json). */
int cli_list_rules(const struct cli *c);

/* The paths to validate once directories are walked (walk.c). */
struct cli_target {
	char *path;
	bool walked;   /* found by a walk: an unrecognised format is skipped, not an error */
	bool folded;   /* a trace directory named through one of its member files */
	const char *skip_reason; /* found by a walk but not validated, and why */
};
struct cli_targets {
	struct cli_target *items;
	size_t count, cap;
};
bool cli_expand(struct cli_targets *t, char *const *paths, size_t count);
/* Adds the paths listed in a file (--files-from, -0); false with errno set
 * when it cannot be read or memory runs out. */
bool cli_expand_list(struct cli_targets *t, const char *list, bool nul_separated);
void cli_targets_free(struct cli_targets *t);
/* Drops the targets from first on (found by walking root) that the git
 * repository around root ignores (gitignore.c); false when memory runs out. */
bool cli_drop_ignored(struct cli_targets *t, size_t first, const char *root);
/* Adds a trace directory, once however often it or its members are named. */
bool cli_expand_trace(struct cli_targets *t, const char *dir);
/* --staged-deletions: adds each trace directory of the git work tree that a
 * staged deletion took a member from (staged.c); false with a message in err. */
bool cli_expand_staged_deletions(struct cli_targets *t, char *err, size_t errlen);

int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
