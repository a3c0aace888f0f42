/* A diagnostic's fingerprint: what identifies "the same defect" across runs
 * and across unrelated edits of the file, for baselines and for SARIF's
 * partialFingerprints. Byte offsets, record indexes and the numbers in a
 * message all move when bytes are inserted earlier in a file, so none of
 * them is part of it: the path, the rule, the member of a trace directory,
 * the JSON Pointer when there is one, and the message with digits masked. */
#include "rule_table.h"
#include "tracelint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* FNV-1a, 64 bits; each part ends with a separator byte so that parts
 * cannot run into each other ("ab"+"c" differs from "a"+"bc"). */
static uint64_t mix_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ULL;
}

static uint64_t mix_end(uint64_t h)
{
	return mix_byte(h, 0xff);
}

/* "./a//b" and "a/b" name the same file. */
static uint64_t mix_path(uint64_t h, const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	for (; *p; p++)
		if (!(p[0] == '/' && p[1] == '/'))
			h = mix_byte(h, (unsigned char)*p);
	return mix_end(h);
}

static uint64_t mix_text(uint64_t h, const char *s, bool mask_digits)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = mix_byte(h, mask_digits && *p >= '0' && *p <= '9' ? '#' : *p);
	return mix_end(h);
}

void tl_diagnostic_fingerprint(char *buf, size_t len, const char *path,
			       const struct tl_diagnostic *d)
{
	uint64_t h = mix_path(0xcbf29ce484222325ULL, path ? path : "");
	/* a renamed rule keeps its former ID here, so recorded baselines still match */
	const char *former = tl_rule_former_id(d->rule);
	h = mix_text(h, former ? former : d->rule->id, false);
	if (d->loc.member)
		h = mix_text(h, d->loc.member, false);
	if (d->loc.pointer)
		h = mix_text(h, d->loc.pointer, false);
	else
		h = mix_text(h, d->message ? d->message : "", true);
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}
