/* Writer construction and dispatch (see writer.h). */
#include "writer.h"
#include "writer_order.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct tl_writer *tl_writer_new(enum tl_output_style style, void *stdio_file, bool quiet)
{
	struct tl_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->out = stdio_file;
	w->quiet = quiet;
	switch (style) {
	case TL_OUTPUT_JSON: w->ops = &tl_json_writer; break;
	case TL_OUTPUT_SARIF: w->ops = &tl_sarif_writer; break;
	default: w->ops = &tl_text_writer; break;
	}
	return w;
}

void tl_writer_begin(struct tl_writer *w, const char *path)
{
	w->path = path;
	w->ops->begin(w);
}

void tl_writer_diag(const struct tl_diagnostic *diag, void *writer)
{
	struct tl_writer *w = writer;
	tl_writer_hold(w, diag);
}

void tl_writer_end(struct tl_writer *w, const struct tl_result *result, enum tl_status status,
		   const char *message)
{
	tl_writer_release(w);
	w->ops->end(w, result, status, message);
}

void tl_writer_skipped(struct tl_writer *w, const char *path, const char *reason)
{
	w->path = path;
	w->ops->skipped(w, reason);
}

int tl_writer_finish(struct tl_writer *w)
{
	tl_writer_release(w);
	int rc = w->ops->finish(w);
	if (rc == 0 && w->lost) {
		errno = w->lost_errno;
		rc = -1;
	}
	tl_writer_drop_held(w);
	free(w->source_root);
	free(w->help_base);
	free(w);
	return rc;
}

void tl_writer_set_baseline(struct tl_writer *w, bool active)
{
	w->baseline = active;
}

void tl_writer_known(struct tl_writer *w, const struct tl_diagnostic *diag)
{
	if (w->ops->known)
		w->ops->known(w, diag);
}

bool tl_writer_set_source_root(struct tl_writer *w, const char *dir)
{
	char *abs = realpath(dir, NULL);
	if (!abs)
		return false;
	size_t n = strlen(abs);
	if (n > 1 && abs[n - 1] == '/')
		abs[n - 1] = '\0';
	free(w->source_root);
	w->source_root = abs;
	return true;
}

bool tl_writer_set_help_base(struct tl_writer *w, const char *base)
{
	char *copy = strdup(base);
	if (!copy)
		return false;
	free(w->help_base);
	w->help_base = copy;
	return true;
}

void tl_writer_set_context(struct tl_writer *w, bool context)
{
	w->context = context;
}

void tl_writer_set_color(struct tl_writer *w, bool color)
{
	w->color = color;
}
