/* A file in memory read as the core reads the input for a format's
 * describe hook (struct tl_format's describe), and the hook run on one
 * fabricated diagnostic: for the unit tests of the describe hooks. */
#ifndef TESTS_SUPPORT_READ_BACK_H
#define TESTS_SUPPORT_READ_BACK_H

#include <atf-c.h>

#include <string.h>

#include "format.h"

struct mem_file {
	const uint8_t *p;
	size_t n;
};

static inline size_t mem_read_back(void *f, uint64_t off, uint8_t *buf, size_t n)
{
	const struct mem_file *file = f;
	if (off >= file->n)
		return 0;
	if (n > file->n - off)
		n = (size_t)(file->n - off);
	memcpy(buf, file->p + off, n);
	return n;
}

typedef void (*describe_fn)(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
			    struct tl_field_view *view);

/* The view `hook` gives a diagnostic of rule `id` at off (record index
 * `record`, member `member`) in the n bytes at p; it starts as the writer's
 * default, the one byte at off and no fields. */
static inline struct tl_field_view describe_with(describe_fn hook, const uint8_t *p, size_t n,
						 const char *id, const char *member, uint64_t off,
						 int64_t record)
{
	struct mem_file f = { p, n };
	struct tl_diagnostic d = {
		.rule = tl_rule_find(id),
		.loc = { .offset = off, .record = record, .member = member },
	};
	ATF_REQUIRE_MSG(d.rule != NULL, "no rule %s", id);
	struct tl_field_view v = { .offset = off, .width = 1, .fields = "" };
	hook(&d, mem_read_back, &f, &v);
	return v;
}

#endif
