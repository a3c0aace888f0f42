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
	/* --select, --ignore, --severity, --error in command-line order
	 * (a --select first turns every rule off) */
	struct tl_rule_setting *rules;
	size_t rule_count, rule_cap;
	bool selected;
	char **paths;
	size_t path_count;
};

/* Reads the options (anywhere on the line, GNU style; "--" ends them) and the
 * paths. Returns -1 to go on, or the exit status to stop with (usage error,
 * --help, --version). */
int cli_parse(struct cli *c, int argc, char **argv);
void cli_free(struct cli *c);

/* --list-rules: the paths are rule IDs or globs; text or JSON (-o json). */
int cli_list_rules(const struct cli *c);

int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
