#!/usr/bin/env python3
"""Writes a large valid DCFG and its DCFG-trace for benchmarks (not test cases):
  python3 corpus/dcfg/gen_large.py ROUTINES OUT.dcfg.json OUT.trace.json [IMAGES]
Each routine is four blocks with a loop (entry, head, body, exit) called in a
chain from START to END; the trace walks the whole chain on one thread, its
sequence written literally so the decoder visits every edge. About 420 bytes
of DCFG per routine: 360000 routines give ~150 MB. IMAGES (default 1) spreads
the routines over that many images, the chain calling from one into the next,
for the cost of a process of many images."""
import sys

R = int(sys.argv[1])
dcfg_path, trace_path = sys.argv[2], sys.argv[3]
K = int(sys.argv[4]) if len(sys.argv) > 4 else 1
R -= R % 3  # the sequence packs three routines into two characters


def blk(r, k):
    return 10 + 4 * r + k


def edge(r, k):
    return 10 + 5 * r + k


with open(dcfg_path, "w") as f:
    w = f.write
    w('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,\n')
    w('"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "big"]],\n')
    w('"EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "CALL"], '
      '[5, "FALL_THROUGH"], [6, "CONDITIONAL_BRANCH"], [7, "UNCONDITIONAL_BRANCH"]],\n')
    w('"SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"], [3, "UNKNOWN"]],\n')
    w('"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [4242, {\n')
    w('"INSTR_COUNT_PER_THREAD": [%d], "INSTR_COUNT": %d,\n' % (14 * R, 14 * R))
    w('"IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"]')
    for k in range(K):
        rs = range(k * R // K, (k + 1) * R // K)
        w('%s[%d, "%#x", %d, {"FILE_NAME_ID": 1,\n' % (',\n' if k else ', ', k + 1, 0x400000 + k * 0x10000000, 64 * len(rs)))
        w('"BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"]')
        for r in rs:
            o = 64 * (r - rs.start)
            w(',\n[%d, "%#x", 8, 2, 4, 1], [%d, "%#x", 6, 2, 3, 4], [%d, "%#x", 5, 1, 0, 3], [%d, "%#x", 4, 1, 0, 1]'
              % (blk(r, 0), o, blk(r, 1), o + 8, blk(r, 2), o + 16, blk(r, 3), o + 32))
        w('],\n"ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"]')
        for r in rs:
            b = [blk(r, k) for k in range(4)]
            w(',\n[%d, [%d], [["NODE_ID", "IDOM_NODE_ID"], [%d, %d], [%d, %d], [%d, %d], [%d, %d]], '
              '[["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS"], [%d, [%d], [%d, %d]]]]'
              % (b[0], b[3], b[0], b[0], b[1], b[0], b[2], b[1], b[3], b[1], b[1], b[2], b[1], b[2]))
        w(']}]')
    w('],\n"EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],\n')
    w('[1, 1, %d, 1, [1]]' % blk(0, 0))
    for r in range(R):
        b = [blk(r, k) for k in range(4)]
        nxt = (blk(r + 1, 0), 3) if r + 1 < R else (2, 2)
        w(',\n[%d, %d, %d, 5, [1]], [%d, %d, %d, 6, [3]], [%d, %d, %d, 7, [3]], [%d, %d, %d, 6, [1]], [%d, %d, %d, %d, [1]]'
          % (edge(r, 0), b[0], b[1], edge(r, 1), b[1], b[2], edge(r, 2), b[2], b[1], edge(r, 3), b[1], b[3],
             edge(r, 4), b[3], nxt[0], nxt[1]))
    w(']}]]}\n')

with open(trace_path, "w") as f:
    w = f.write
    w('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [\n')
    w('["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],\n[4242, {},\n')
    w('[["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"], [1, "", [%d]]' % edge(0, 0))
    for r in range(R):
        e = [edge(r, k) for k in range(5)]
        w(',\n[%d, "0", [%d]], [%d, "1", [%d]], [%d, "", [%d]], [%d, "0", [%d]], [%d, "1", [%d]], [%d, "", [%d]]'
          % (e[0], e[1], e[0], e[3], e[1], e[2], e[2], e[1], e[2], e[3], e[3], e[4]))
        if r + 1 < R:
            w(', [%d, "", [%d]]' % (e[4], edge(r + 1, 0)))
    w('],\n[["THREAD_ID", "TRACE_DATA"], [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", '
      '"FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],\n')
    w('[0, %d, %d, 1, "%s"]]]]]]}\n' % (14 * R, 1 + 9 * R, "ER" * (R // 3)))
