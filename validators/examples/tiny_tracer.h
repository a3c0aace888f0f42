/* A tiny tracer for the examples: it writes an LLVM XRay basic-mode trace
 * (version 3, little-endian): a 32-byte file header, then one 32-byte record
 * per function entry or exit. With `broken` it writes one record of a type
 * that does not exist, which tracelint reports (XRAY-BASIC-RECORD-TYPE). */
#ifndef TINY_TRACER_H
#define TINY_TRACER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { TINY_RECORD = 32 };

static void tiny_put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The file header: version 3, type 0 (basic mode), constant and nonstop TSC,
 * a 2.4 GHz cycle frequency. */
static void tiny_header(uint8_t out[TINY_RECORD])
{
	memset(out, 0, TINY_RECORD);
	tiny_put(out, 3, 2);
	tiny_put(out + 2, 0, 2);
	tiny_put(out + 4, 3, 4);
	tiny_put(out + 8, 2400000000u, 8);
}

/* Record i of a run of calls: even i enters function 1 + i/2 % 8, odd i
 * leaves it. */
static void tiny_record(uint8_t out[TINY_RECORD], uint64_t i, bool broken)
{
	memset(out, 0, TINY_RECORD);
	tiny_put(out, broken ? 4 : 0, 2);          /* record type: 0 = function */
	tiny_put(out + 2, 0, 1);                   /* cpu */
	tiny_put(out + 3, i % 2, 1);               /* 0 entry, 1 exit */
	tiny_put(out + 4, 1 + (i / 2) % 8, 4);     /* function id */
	tiny_put(out + 8, 1000 + 10 * i, 8);       /* TSC */
	tiny_put(out + 16, 55, 4);                 /* thread id */
	tiny_put(out + 20, 66, 4);                 /* process id */
}

#endif
