/* Files tracelint writes (baselines): made as a temporary file beside the
 * target (mkstemp) and renamed over it once whole, so that a reader, a
 * concurrent writer or an interrupted run never sees half a document, and
 * a symbolic link or a device at the target is refused, not written through. */
#ifndef TL_CLI_SAFE_FILE_H
#define TL_CLI_SAFE_FILE_H

#include <stdbool.h>
#include <stdio.h>

struct safe_file {
	char *target;
	char *temporary;
	FILE *out;
};

/* Refuses a target that exists but is not a regular file (a symbolic
 * link unless follow_symlink, then the file it names is the target; a
 * directory, a FIFO, a device); makes the temporary file, which is
 * removed if the process is ended by SIGTERM, SIGINT or SIGHUP. false with
 * the reason in err. */
bool safe_file_open(struct safe_file *f, const char *target, bool follow_symlink, char *err,
		    size_t errlen);

/* Flushes, syncs and renames the temporary file over the target; false
 * (the temporary file removed, the target untouched) with the reason. */
bool safe_file_commit(struct safe_file *f, char *err, size_t errlen);

/* Removes the temporary file; the target is untouched. */
void safe_file_abort(struct safe_file *f);

#endif
