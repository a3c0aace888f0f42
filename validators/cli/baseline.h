/* Baselines: the diagnostics a team has accepted, recorded by
 * --write-baseline and matched by --baseline so that only new ones fail.
 *
 * A baseline file is JSON, {"tool": "tracelint", "baseline": 2,
 * "diagnostics": [{"path", "rule", "fingerprint", "message"}]}, read and
 * written as a stream. The fingerprint alone decides a match; path, rule
 * and message are for the people who review the file. In a version 2 file
 * paths (and the paths the fingerprints are made of) are relative to the
 * repository holding the baseline file, or to the file's directory outside
 * a repository, so it matches from any working directory, whichever way a
 * path is spelled. A version 1 file keyed paths as they were given; it is
 * matched that way, and written again as version 2. In memory a baseline is
 * a hashed multiset of fingerprints: flat in the number of diagnostics. */
#ifndef TL_CLI_BASELINE_H
#define TL_CLI_BASELINE_H

#include "safe_file.h"
#include "tracelint.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where a baseline's paths are relative to. */
struct baseline_anchor {
	char *root;        /* absolute, resolved, no trailing '/' but for "/" */
};

/* The anchor of a baseline file: the repository around it (a directory
 * holding .git), else its directory. false with errno set. */
bool baseline_anchor_init(struct baseline_anchor *a, const char *baseline_file);
void baseline_anchor_free(struct baseline_anchor *a);
/* The path a validated PATH is keyed by: relative to the anchor ("../"
 * when outside it); "-" stays "-". */
void baseline_key_path(const struct baseline_anchor *a, const char *path, char *out, size_t len);

struct known_slot;

struct baseline_known {
	FILE *file;                /* kept open: read again for the entries not seen */
	char *name;
	int version;               /* 1: keyed by paths as given; 2: by anchored paths */
	struct baseline_anchor anchor;
	struct known_slot *slots;  /* open addressing by fingerprint */
	size_t slot_count, used;
	uint64_t entries;
	pthread_mutex_t lock;      /* -j: workers match at the same time */
};

/* Reads FILE (a regular file: a FIFO or a device is refused); false with a
 * message in err (the file's name and what is wrong). */
bool baseline_load(struct baseline_known *b, const char *file, char *err, size_t errlen);

/* Marks one recorded diagnostic with this fingerprint as seen; false when
 * none is left (the diagnostic is new). A fingerprint recorded n times
 * matches n diagnostics. */
bool baseline_match(struct baseline_known *b, uint64_t fingerprint);

/* Calls gone() for each recorded diagnostic not matched, in the file's
 * order (the first ones recorded of a fingerprint count as matched). */
typedef void (*baseline_gone_fn)(const char *path, const char *rule, const char *message, void *user);
bool baseline_each_gone(struct baseline_known *b, baseline_gone_fn gone, void *user, char *err,
			size_t errlen);

void baseline_known_free(struct baseline_known *b);

/* --write-baseline: the file is made (beside its target) before the run and
 * each diagnostic is appended as it is found. */
struct baseline_out {
	struct safe_file file;
	struct baseline_anchor anchor;
	bool any;
};

/* follow_symlink: a symbolic link at file is followed, not refused. */
bool baseline_out_open(struct baseline_out *b, const char *file, bool follow_symlink, char *err,
		       size_t errlen);
void baseline_out_add(struct baseline_out *b, const char *path, const char *rule,
		      uint64_t fingerprint, const char *message);
/* Ends the document and puts it in place; false with a message. */
bool baseline_out_commit(struct baseline_out *b, char *err, size_t errlen);
void baseline_out_abort(struct baseline_out *b);

/* A fingerprint as tl_diagnostic_fingerprint writes it, as a number. */
uint64_t baseline_fingerprint(const char *keyed_path, const struct tl_diagnostic *d);

#endif
