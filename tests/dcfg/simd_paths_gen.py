#!/usr/bin/env python3
"""Hostile JSON texts for the structural index's paths (simd_paths_test.sh).

  simd_paths_gen.py SRCDIR OUTDIR

Writes, into OUTDIR, DCFG texts whose lazy tables hold what the index must
get right at every place in a 64-byte window (each shifted by 0 to 64 bytes
of padding): strings spanning windows, runs of backslashes before quotes,
invalid UTF-8 and control bytes in strings, numbers and literals cut by a
window's end, deep nesting, and seeded random mutations of corpus files
(DCFG and DCFG-trace). Deterministic: the same files every run.
"""
import os
import random
import sys

HEAD = ('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,\n'
        '"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "a"]],\n'
        '"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {"INSTR_COUNT": 3, "INSTR_COUNT_PER_THREAD": [3],\n'
        '"IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"], [1, "0x400000", 4096, {"FILE_NAME_ID": 1,\n'
        '"BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],\n')
TAIL = ('\n]}]],\n"EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]]}]]}\n')

# Rows of BASIC_BLOCKS (a lazy table), each a piece the index must read
# right. Readable rows: one file holds them at every shift; rows that stop
# the reader (a syntax or depth error): one file a shift, every third shift.
ROWS = {
    "long_string": '[10, "0x%s", 8, 2, 4, 1]' % ("0" * 150),
    "long_string_escaped": '[10, "%s\\"%s", 8, 2, 4, 1]' % ("x" * 70, "y" * 70),
    "backslash_runs": ",\n".join('[%d, "%s\\"", 8, 2, 4, 1]' % (10 + k, "\\\\" * k) for k in range(1, 40)),
    "backslash_odd": '[10, "\\\\\\", 8, 2, 4, 1]',
    "utf8_valid": '[10, "\u00e9\u4e2d\U0001f600", 8, 2, 4, 1]',
    "numbers": ",\n".join('[%d, "0x%x", %d, -0, 1.5e3, 0]' % (10 ** k, k, 2 ** (k * 3)) for k in range(1, 19)),
    "literals": '[true, false, null, [true], [false], [null]]',
    "deep_ok": '[' * 900 + '1' + ']' * 900,
    "objects": '[10, {"a": 1, "a": 2}, 8], [{"k": "v"}, {}], [{"x": [1, {"y": "\\u0041"}]}]',
    "blank_runs": ",\n".join('[%d,%s"0x0",\t\r\n8, 2 , 4 ,1 ]' % (10 + k, " " * k) for k in range(70)),
}
STOPS = {
    "utf8_invalid": b'[10, "\xc3\x28\xff\xed\xa0\x80", 8, 2, 4, 1]',
    "control_in_string": '[10, "a\x01b", 8, 2, 4, 1]',
    "newline_in_string": '[10, "a\nb", 8, 2, 4, 1]',
    "number_errors": '[10, 0123, 8, 2, 4, 1], [11, -, 8, 2, 4, 1], [12, 1.5e, 8, 2, 4, 1]',
    "literal_errors": '[true, false, null], [tru, 1], [nul, 1], [falsey]',
    "nul_byte": '[10, 8\x00, 2, 4, 1]',
    "deep": '[' * 1100 + ']' * 1100,
    "separators": '[10,, 8], [10 8], [10, 8,], [, 1], [10]  [11], ["a" "b"], ["a"1], [1"a"]',
    "unclosed": '[10, "0x0", 8, 2, 4, 1',
    "unterminated_string": '[10, "0x0, 8, 2, 4, 1]',
}


def encode(row):
    return row if isinstance(row, bytes) else row.encode()


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, row in ROWS.items():
        rows = b",\n".join(b" " * shift + encode(row) for shift in range(65))
        with open(os.path.join(out, "%s.dcfg.json" % name), "wb") as f:
            f.write(HEAD.encode() + rows + TAIL.encode())
    for name, row in STOPS.items():
        for shift in range(0, 65, 3):
            with open(os.path.join(out, "%s_%02d.dcfg.json" % (name, shift)), "wb") as f:
                f.write(HEAD.encode() + b" " * shift + encode(row) + TAIL.encode())
    rng = random.Random(20261125)
    alphabet = b'"\\ ,[]{}:0123456789-.eEtfn\x00\x01\x80\xc3\xff\n\t'
    bases = ["corpus/dcfg/valid/hello.dcfg.json", "corpus/dcfg/valid/gen_program_s1.dcfg.json",
             "corpus/dcfg-trace/valid/hello.trace.json", "corpus/dcfg-trace/valid/gen_program_s1.trace.json"]
    for b in bases:
        with open(os.path.join(src, b), "rb") as f:
            data = f.read()
        kind = "trace" if "trace" in b else "dcfg"
        stem = os.path.basename(b).split(".")[0]
        for k in range(40):
            m = bytearray(data)
            for _ in range(rng.randint(1, 3)):
                pos = rng.randrange(len(m))
                if rng.random() < 0.3:
                    m[pos:pos] = b" " * rng.randint(1, 64)  # moves what follows to another place in its window
                else:
                    m[pos] = alphabet[rng.randrange(len(alphabet))]
            with open(os.path.join(out, "mut_%s_%02d.%s.json" % (stem, k, kind)), "wb") as f:
                f.write(bytes(m))


if __name__ == "__main__":
    main()
