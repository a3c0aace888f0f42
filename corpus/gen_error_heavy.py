#!/usr/bin/env python3
"""Writes error-heavy inputs: one defect in every record, so that the cost of
reporting (or counting past --max-errors) can be measured and tested.

  gen_error_heavy.py xray N OUT      basic-mode XRay, N records of the undefined
                                     type 4: N XRAY-BASIC-RECORD-TYPE errors
  gen_error_heavy.py tfile N OUT     tfile (little-endian), N frames naming the
                                     undefined tracepoint 0x8000: N errors
  gen_error_heavy.py umtrace DIR     a trace umtgen wrote with -m DIR.map: the
                                     flags byte of every instruction record
                                     cleared (one UMT-INS-RECORD-MODE each)
  gen_error_heavy.py dcfg-trace N OUT  DCFG-trace whose transition table repeats
                                     one code N + 1 times, a row a line: N
                                     DTRACE-CODE-DUPLICATE errors, each found
                                     after the table (its row read again to
                                     point at the code)

Prints the number of defects written. The XRay and tfile inputs start from a
corpus case, so they change when it does."""
import os
import struct
import sys

CORPUS = os.path.dirname(os.path.abspath(__file__))


def xray(n, out):
    d = open(os.path.join(CORPUS, "xray/invalid/basic-record-type.xray"), "rb").read()
    bad = d[64:96]  # its record of the undefined type 4
    with open(out, "wb") as f:
        f.write(d[:32])
        for done in range(0, n, 65536):
            f.write(bad * min(65536, n - done))
    return n


def tfile(n, out):
    d = open(os.path.join(CORPUS, "tfile/valid/gdb-locals.tf"), "rb").read()
    desc = d[:d.index(b"\n\n") + 2]
    frame = struct.pack("<HI", 0x8000, 0)  # tracepoint 0x8000: not defined
    with open(out, "wb") as f:
        f.write(desc)
        for done in range(0, n, 65536):
            f.write(frame * min(65536, n - done))
        f.write(struct.pack("<HH", 0, 0))
    return n


def umtrace(trace):
    vt = bytearray(open(os.path.join(trace, "exec.vtable"), "rb").read())
    n = 0
    for line in open(trace + ".map"):
        f = line.split()
        if len(f) >= 8 and f[0] == "rec" and f[3] == "0":
            vt[int(f[7]) + 5] = 0
            n += 1
    open(os.path.join(trace, "exec.vtable"), "wb").write(vt)
    return n


def dcfg_trace(n, out):
    head = ('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [\n'
            '["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],\n'
            '[1, {}, [\n["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]')
    with open(out, "w") as f:
        f.write(head)
        for done in range(0, n + 1, 65536):
            f.write(',\n[1, "0", [1]]' * min(65536, n + 1 - done))
        f.write('\n], [["THREAD_ID", "TRACE_DATA"]]]\n]}\n')
    return n


def main(argv):
    if len(argv) == 4 and argv[1] in ("xray", "tfile"):
        print((xray if argv[1] == "xray" else tfile)(int(argv[2]), argv[3]))
    elif len(argv) == 4 and argv[1] == "dcfg-trace":
        print(dcfg_trace(int(argv[2]), argv[3]))
    elif len(argv) == 3 and argv[1] == "umtrace":
        print(umtrace(argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
