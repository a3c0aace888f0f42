/* DCFG-trace dump: each thread's decoded edge sequence (dump_trace_edges.c). */
#ifndef TL_DUMP_TRACE_EDGES_H
#define TL_DUMP_TRACE_EDGES_H

#include "dump.h"
#include "json_tree.h"

/* The edges of the threads of the PROCESSES row `row` (whose table's header is `header`). */
void dump_trace_edges(struct dump_run *r, struct tl_json_doc *doc, uint32_t header, uint32_t row);

#endif
