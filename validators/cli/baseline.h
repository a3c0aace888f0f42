/* Baselines: the diagnostics a team has accepted, recorded by
 * --write-baseline and matched by --baseline so that only new ones fail. */
#ifndef TL_CLI_BASELINE_H
#define TL_CLI_BASELINE_H

#include "tracelint.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct baseline_entry {
	const char *path;    /* as the diagnostic was shown (member included) */
	const char *rule;
	const char *message;
	char *strings;       /* the three above, one block */
	char fingerprint[17];
	size_t seq;          /* its place in the file, for messages in that order */
	bool matched;
};

struct baseline {
	struct baseline_entry *entries;  /* sorted by fingerprint once loaded */
	size_t count, cap;
};

/* Reads FILE; false with a message in err (the file's name and what is wrong). */
bool baseline_load(struct baseline *b, const char *file, char *err, size_t errlen);

/* Marks one recorded diagnostic with this fingerprint as seen; false when none is left
 * (the diagnostic is new). A fingerprint recorded n times matches n diagnostics. */
bool baseline_match(struct baseline *b, const char *fingerprint);

/* Records a diagnostic for --write-baseline. */
bool baseline_add(struct baseline *b, const char *path, const struct tl_diagnostic *d,
		  const char *fingerprint);

/* Writes the recorded diagnostics, in the order they were found. */
bool baseline_write(const struct baseline *b, const char *file, char *err, size_t errlen);

void baseline_free(struct baseline *b);

#endif
