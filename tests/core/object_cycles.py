#!/usr/bin/env python3
"""Prints every cycle of dependencies between the object files of an archive
(strongly connected components of "A calls a function B defines"), one per line."""
import subprocess, sys, collections
out = subprocess.run(["nm", "-A", sys.argv[1]], capture_output=True, text=True).stdout
defs, uses = {}, collections.defaultdict(set)
for line in out.splitlines():
    parts = line.split()
    obj = parts[0].split(":")[1]
    if len(parts) != 3:
        continue
    if parts[1] == "U":
        uses[obj].add(parts[2])
    elif parts[1] in "TDRB":
        defs[parts[2]] = obj
g = {o: {defs[s] for s in us if s in defs and defs[s] != o} for o, us in uses.items()}
# strongly connected components (Tarjan)
idx, low, st, on, comps, n = {}, {}, [], set(), [], [0]
def sc(v):
    idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
    for w in g.get(v, ()):
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        c = []
        while True:
            w = st.pop(); on.discard(w); c.append(w)
            if w == v: break
        if len(c) > 1: comps.append(sorted(c))
sys.setrecursionlimit(10000)
for v in list(g): 
    if v not in idx: sc(v)
for c in comps: print(" ".join(c))
