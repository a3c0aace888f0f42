#!/usr/bin/env python3
"""Writes a DCFG-trace whose one chunk is a long random walk over a Huffman-coded
transition table, for the decoder benchmark (validators/dcfg/bench/dcfg-decode.sh; not a
test case):
  python3 corpus/dcfg/gen_walk.py EDGES STATES SEED OUT.trace.json [SHAPE]
SHAPE "mixed" (the default): out-degrees are skewed like real code (most blocks have one successor, so most
steps cost no bit; some branch two ways; a few indirect jumps have many targets),
successor weights are skewed too, and the sequence is written literally (no
repeats), so the decoder visits every edge.
SHAPE "fixedW" or "skewW" (W = 16, 64, 256, ...): wide dispatch, as in an
interpreter loop or a switch table: every state has W successors, coded with
fixed log2(W)-bit codes chosen uniformly, or Huffman codes of skewed weights
(a few hot targets, a long tail of codes up to about 20 bits)."""
import bisect
import random
import sys

from gen_program import huffman  # the same coder as the program-model generator

N, S, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
shape = sys.argv[5] if len(sys.argv) > 5 else "mixed"
rng = random.Random(seed)
wide = 0 if shape == "mixed" else int(shape.lstrip("fixedskew"))
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-"


table = []  # per state: (successors, codes, cumulative weights)
for s in range(S):
    if wide:
        succ = [rng.randrange(S) for _ in range(wide)]
        if shape.startswith("fixed"):
            bits = (wide - 1).bit_length()
            w = [1.0] * wide
            codes = [format(i, "0%db" % bits) for i in range(wide)]
        else:
            w = [rng.random() ** 6 + 1e-5 for _ in range(wide)]
            codes = huffman(w)
        table.append((succ, codes, [sum(w[:i + 1]) for i in range(wide)]))
        continue
    r = rng.random()
    d = 1 if r < 0.6 else 2 if r < 0.9 else rng.randint(3, 4) if r < 0.98 else rng.randint(8, 16)
    # a block with one successor falls through forward, so no cycle is free of branches
    succ = [(s + rng.randint(1, 64)) % S] if d == 1 else [rng.randrange(S) for _ in range(d)]
    w = [rng.random() ** 2 + 0.01 for _ in range(d)]
    cum, t = [], 0.0
    for x in w:
        t += x
        cum.append(t)
    table.append((succ, huffman(w), cum))

out_chars, pending, cur = [], "", 0  # bits turned into characters as they come: memory stays small
fixed_bits = (wide - 1).bit_length() if shape.startswith("fixed") else 0
if fixed_bits:
    # A complete fixed-length code chosen uniformly: any bits are a walk, so the
    # characters are drawn directly (fast enough for the bench's 100 MB), and the
    # bits after the last code are cleared.
    nchars = -(-(N - 1) * fixed_bits // 6)
    spare = nchars * 6 - (N - 1) * fixed_bits
    seq = "".join(rng.choices(B64, k=nchars))
    if spare:
        seq = seq[:-1] + B64[B64.index(seq[-1]) & ~((1 << spare) - 1)]
    out_chars = [seq]
for step in range(N - 1 if not fixed_bits else 0):
    succ, codes, cum = table[cur]
    i = bisect.bisect_left(cum, rng.random() * cum[-1])
    i = min(i, len(succ) - 1)
    pending += codes[i]
    cur = succ[i]
    if len(pending) >= 6000:
        whole = len(pending) - len(pending) % 6
        out_chars.append("".join(B64[int(pending[j:j + 6], 2)] for j in range(0, whole, 6)))
        pending = pending[whole:]
pending += "0" * (-len(pending) % 6)
if not fixed_bits:
    out_chars.append("".join(B64[int(pending[j:j + 6], 2)] for j in range(0, len(pending), 6)))
seq = "".join(out_chars)

with open(out, "w") as f:
    w = f.write
    w('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [\n')
    w('["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],\n[1, {},\n')
    w('[["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]')
    for s, (succ, codes, _) in enumerate(table):
        for t, c in zip(succ, codes):
            w(',\n[%d, "%s", [%d]]' % (s + 1, c, t + 1))
    w('],\n[["THREAD_ID", "TRACE_DATA"], [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", '
      '"FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],\n[0, 0, %d, 1, "%s"]]]]]]}\n' % (N, seq))
