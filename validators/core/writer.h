/* Output writers: one file per style behind a small table of functions. */
#ifndef TL_WRITER_H
#define TL_WRITER_H

#include "tracelint.h"
#include <stdio.h>

struct tl_writer_ops {
	void (*begin)(struct tl_writer *w);
	void (*diag)(struct tl_writer *w, const struct tl_diagnostic *d);
	void (*end)(struct tl_writer *w, const struct tl_result *r, enum tl_status status,
		    const char *message);
	int (*finish)(struct tl_writer *w);
	void (*known)(struct tl_writer *w, const struct tl_diagnostic *d); /* NULL: left out */
	/* a path not validated, and why (w->path is that path) */
	void (*skipped)(struct tl_writer *w, const char *reason);
};

/* Names a path that was not validated (a walk's file of no known format, a
 * link a walk does not follow), so that nothing is left out in silence. */
void tl_writer_skipped(struct tl_writer *w, const char *path, const char *reason);

struct tl_writer {
	const struct tl_writer_ops *ops;
	FILE *out;
	bool quiet;
	const char *path;             /* path of the input being reported */
	/* JSON and SARIF styles, written as they go (json_emit.h) */
	bool started;                 /* the document's head is written */
	bool first_item;              /* no file (JSON) or result (SARIF) written yet */
	bool first_diag;              /* JSON: none of the current file's diagnostics yet */
	FILE *spool;                  /* JSON: the file's diagnostics, which follow its counts;
				       * SARIF: the notifications, which follow the results */
	bool any_spooled;             /* SARIF: a notification is spooled */
	FILE *skip_spool;             /* JSON: the skipped paths, which follow the files */
	bool any_skipped;             /* JSON: a skipped path is spooled */
	bool run_failed;              /* SARIF: a path could not be validated */
	bool lost;                    /* a spool could not be made or written (errno kept) */
	int lost_errno;
	bool column_tried;            /* SARIF: the current path opened to count columns */
	int column_fd;                /* its descriptor, or -1 */
	uint64_t known_shown;         /* SARIF: unchanged results of the current path */
	uint64_t known_left_out;      /* SARIF: known diagnostics past --max-errors */
	bool baseline;                /* a baseline is in use (tl_writer_set_baseline) */
	bool context;                 /* text: the bytes or line under each diagnostic */
	bool color;                   /* text: ANSI colours */
	char *source_root;            /* absolute, without a trailing '/'; or NULL */
	char *help_base;              /* SARIF helpUri: this + "<format>.md"; NULL: the project's */
	struct tl_held *held;         /* member diagnostics waiting to be sorted (writer_order.c) */
	size_t held_count, held_cap;
	uint64_t held_seq;
};

extern const struct tl_writer_ops tl_text_writer;
extern const struct tl_writer_ops tl_json_writer;
extern const struct tl_writer_ops tl_sarif_writer;

/* Part of the report could not be written as it should (errno_value says
 * why): tl_writer_finish fails with it. */
void tl_writer_lost(struct tl_writer *w, int errno_value);

/* "PATH" or "PATH/MEMBER" for a diagnostic in a trace directory. */
void tl_diag_path(char *buf, size_t len, const char *path, const struct tl_diagnostic *d);

#endif
