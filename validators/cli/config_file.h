/* One parsed config file (config_file.c); config.c finds and applies them. */
#ifndef TL_CLI_CONFIG_FILE_H
#define TL_CLI_CONFIG_FILE_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* [tracelint] (glob NULL) or [path "GLOB"]: what it sets. */
struct config_section {
	char *glob;
	struct tl_rule_setting *rules;  /* patterns owned */
	size_t rule_count, rule_cap;
	bool selected;                  /* a select= has turned the other rules off */
	int format;                     /* -1: not set */
	int endian;                     /* -1: not set */
	int werror;                     /* -1: not set */
	long long max_errors;           /* -1: not set */
	long long threads;              /* -1: not set */
	bool has_max_memory;
	uint64_t max_memory;            /* as --max-memory */
	char *pair;                     /* template ({dir}, {name}, {stem}) */
	char *instr_map;
};

struct config_file {
	char *path;
	char *dir;                      /* absolute: globs and relative paths start here */
	struct config_section *sections;
	size_t section_count, section_cap;
	char **excludes;
	size_t exclude_count, exclude_cap;
	int unknown_format;             /* -1 not set, 0 skip, 1 error */
	int force_exclude;              /* -1 not set, 0 false, 1 true */
};

/* The config at path opened for reading, or NULL with the reason in err
 * (also when it is not a regular file). */
FILE *config_file_open(const char *path, char *err, size_t errlen);
/* false with "PATH:LINE:COLUMN: what is wrong" in err. */
bool config_file_load(struct config_file *f, const char *path, char *err, size_t errlen);
void config_file_free(struct config_file *f);

#endif
