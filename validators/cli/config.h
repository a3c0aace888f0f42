/* Config files (.tracelint.ini): found from a file's directory upward, as
 * .clang-tidy and .shellcheckrc are, stopping at the repository root (or
 * the home directory outside one) and skipping configs other users could
 * have written; or named with --config; or none with --no-config. See
 * tracelint(1). */
#ifndef TL_CLI_CONFIG_H
#define TL_CLI_CONFIG_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>

#define CLI_CONFIG_NAME ".tracelint.ini"

struct cli;

/* What one path is validated with: the command line over its config. */
struct cli_file_options {
	struct tl_options opts;
	struct tl_rule_setting *rules;   /* owned array: the config's settings, then the command line's */
	char *pair_path, *instr_map_path; /* owned, when the config names them */
	bool excluded;                   /* found by a walk, and the config excludes it */
	bool skip_unknown;               /* a file of no known format is skipped, not an error */
	const char *config;              /* the config file used, or NULL */
};

struct cli_configs;

/* NULL with a message in err when --config names a file that cannot be read
 * or is malformed (PATH:LINE:COLUMN: what is wrong). */
struct cli_configs *cli_configs_new(const struct cli *c, char *err, size_t errlen);
/* false with a message in err when the config found for path is malformed. */
bool cli_configs_resolve(struct cli_configs *cc, const struct cli *c, const char *path,
			 bool walked, struct cli_file_options *out, char *err, size_t errlen);
void cli_file_options_free(struct cli_file_options *f);
void cli_configs_free(struct cli_configs *cc);

#endif
