/* The formats tracelint knows, and detection by content. */
#include "format.h"
#include "detect.h"

#include <stdio.h>
#include <string.h>

/* Probe order only breaks ties between equal confidences. */
static const struct tl_format *const formats[] = {
	&tl_format_tfile, &tl_format_xray, &tl_format_dcfg, &tl_format_dcfg_trace,
	&tl_format_umtrace,
};

const struct tl_format *tl_format_get(enum tl_format_id id)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i]->id == id)
			return formats[i];
	return NULL;
}

const char *tl_format_name(enum tl_format_id id)
{
	if (id == TL_FORMAT_AUTO)
		return "auto";
	const struct tl_format *f = tl_format_get(id);
	return f ? f->name : "unknown";
}

enum tl_format_id tl_format_from_name(const char *name)
{
	if (strcmp(name, "auto") == 0)
		return TL_FORMAT_AUTO;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i]->id;
	return TL_FORMAT_COUNT;
}

const struct tl_format *tl_format_by_name(const char *path)
{
	static const char *const codecs[] = { ".gz", ".bz2", ".zst" };
	const char *slash = path ? strrchr(path, '/') : NULL;
	char base[256];
	int n = snprintf(base, sizeof base, "%s", slash ? slash + 1 : path ? path : "");
	if (n <= 0 || (size_t)n >= sizeof base)
		return NULL;
	for (size_t i = 0; i < sizeof codecs / sizeof *codecs; i++)
		if (tl_name_ends_with(base, codecs[i])) {
			base[(size_t)n - strlen(codecs[i])] = '\0';
			break;
		}
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i]->named && formats[i]->named(base))
			return formats[i];
	return NULL;
}

const struct tl_format *tl_detect_other(const struct tl_format *named, const struct tl_input *in)
{
	const char *why = NULL;
	if (named->probe(in, &why) > 0)
		return NULL;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i] != named && formats[i]->probe(in, &why) >= TL_PLAINLY)
			return formats[i];
	return NULL;
}

bool tl_is_trace_directory(const char *dir)
{
	struct tl_input in;
	memset(&in, 0, sizeof in);
	in.name = dir;
	in.is_directory = true;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		const char *why = NULL;
		if (formats[i]->directory && formats[i]->probe(&in, &why) > 0)
			return true;
	}
	return false;
}

const struct tl_format *tl_detect(const struct tl_input *in, char *err, size_t errlen)
{
	const struct tl_format *best = NULL;
	int best_score = 0;
	char tried[768] = "";
	size_t used = 0;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		const struct tl_format *f = formats[i];
		const char *why = NULL;
		int score = 0;
		/* Directory formats also probe single files (one table of a trace). */
		if (in->is_directory && !f->directory)
			why = "needs a file, not a directory";
		else
			score = f->probe(in, &why);
		if (score > best_score) {
			best = f;
			best_score = score;
		}
		if (score <= 0 && used < sizeof tried) {
			int n = snprintf(tried + used, sizeof tried - used, "%s%s (%s)",
					 used ? ", " : "", f->name, why ? why : "no match");
			if (n > 0)
				used += (size_t)n;
		}
	}
	if (!best && err && errlen) {
		if (in->size == 0 && !in->is_directory)
			snprintf(err, errlen, "the input is empty (0 bytes): no format to recognise");
		else
			snprintf(err, errlen, "format not recognised; tried %s", tried);
	}
	return best;
}
