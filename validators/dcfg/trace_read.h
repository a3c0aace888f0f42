/* Validation of a DCFG-trace, optionally against its DCFG (--pair). */
#ifndef TL_DCFG_TRACE_READ_H
#define TL_DCFG_TRACE_READ_H

#include "dcfg_model.h"
#include "trace_decode.h"

/* m is the paired DCFG's model, or NULL. */
/* What a DCFG-trace holds, for the verdict line. */
struct tl_dcfg_trace_summary {
	uint64_t processes, threads, chunks, edges;  /* edges: the chunks' EDGE_COUNT */
};

void tl_dcfg_trace_read(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_dcfg_model *m,
			struct tl_dcfg_trace_summary *sum);

#endif
