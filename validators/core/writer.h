/* Output writers: one file per style behind a small table of functions. */
#ifndef TL_WRITER_H
#define TL_WRITER_H

#include "tracelint.h"
#include <stdio.h>

struct json_object;

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
	struct json_object *root;     /* JSON and SARIF styles */
	struct json_object *current;  /* diagnostics or results array */
	struct json_object *file;     /* JSON style: the current file object */
	bool nomem;                   /* JSON and SARIF styles: the document lost a part (json_out.h) */
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

/* "PATH" or "PATH/MEMBER" for a diagnostic in a trace directory. */
void tl_diag_path(char *buf, size_t len, const char *path, const struct tl_diagnostic *d);

#endif
