/* The report of tracelint repair: text, JSON or SARIF. */
#ifndef TL_REPAIR_REPORT_H
#define TL_REPAIR_REPORT_H

#include "tracelint.h"
#include "validators/repair/repair.h"

#include <stdio.h>

/* The warnings the validator still reports on the output (listed, at most
 * REPAIR_WARNINGS_KEPT; the count is complete). */
#define REPAIR_WARNINGS_KEPT 100
struct repair_warning {
	const char *rule;
	uint64_t offset;
	char message[200];
};
struct repair_warnings {
	struct repair_warning items[REPAIR_WARNINGS_KEPT];
	size_t kept;
	uint64_t count;
};
void repair_warnings_add(struct repair_warnings *w, const struct tl_diagnostic *d);
void repair_warnings_free(struct repair_warnings *w);

struct repair_view {
	const char *input, *output;
	enum tl_repair_outcome outcome;
	const struct tl_repair_report *rep;
	const struct repair_warnings *warnings;
	bool quiet;
};

/* 0, or -1 with errno set. */
int repair_report_write(FILE *to, enum tl_output_style style, const struct repair_view *v);

#endif
