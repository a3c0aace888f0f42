#!/usr/bin/env python3
"""Writes a valid DCFG and its DCFG-trace from a random program model:
  python3 corpus/dcfg/gen_program.py [options] OUT.dcfg.json OUT.trace.json

The model is a program of ROUTINES structured routines (blocks, if/else,
while and do-while loops nested up to three deep, calls) spread over IMAGES
images. Routine r calls r+1 unconditionally (so every routine runs) and,
while the thread's edge budget lasts, other later routines from inside
branches and loops. Each of THREADS threads runs it from START to END; the
walk gives every count of the DCFG. From the executed part of the program
the DCFG gets its blocks, edges (call bypass edges with count 0), routines
with their immediate dominators (computed here, iteratively) and natural
loops with their nesting, exits, symbols and source lines. The trace gets a
Huffman-coded transition table per edge, each thread's walk cut into chunks,
sequences written in modified Base64 with (N*...) repeat groups (nested
where loops nest) and <key> dictionary references (some values referring
to other keys).

Options: --seed S (1), --routines N (40), --images K (2), --threads T (2),
--budget E (edges per thread before optional work stops, 20000),
--chunk C (mean edges per chunk, 4000), --dispatch W (0: routine 0 also
runs an interpreter loop: a while loop around a W-way switch, an indirect
branch to one of W one-block cases, as wide as real dispatch tables),
--dispatch-skew (the cases chosen with skewed weights, so their Huffman codes
are skewed; otherwise uniformly, giving codes of about log2(W) bits),
--dispatch-trips N (iterations of that loop, 400). Large inputs: --routines 400000
--budget 0 gives a DCFG of about 220 MB."""
import argparse
import heapq
import json
import random
import sys

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-"
START, END = 1, 2
TYPES = {"ENTRY": 1, "EXIT": 2, "CALL": 3, "RETURN": 4, "FALL_THROUGH": 5,
         "CONDITIONAL_BRANCH": 6, "UNCONDITIONAL_BRANCH": 7, "CALL_BYPASS": 8}
INTER = {"CALL", "RETURN", "EXIT", "ENTRY"}
TRIPS = (1, 2, 3, 4, 6, 8, 16, 40, 100)  # a loop's usual iteration count


class Block:
    __slots__ = ("id", "routine", "instrs", "size", "last", "addr", "count")

    def __init__(self, bid, routine, rng):
        self.id, self.routine = bid, routine
        lengths = [rng.randint(1, 7) for _ in range(rng.randint(1, 8))]
        self.instrs, self.size, self.last = len(lengths), sum(lengths), sum(lengths) - lengths[-1]
        self.addr, self.count = 0, 0


class Program:
    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.args = args
        self.blocks = []
        self.edges = {}          # (src id, dst id) -> [edge id, type, counts per thread]
        self.routines = []       # per routine: (entry block, ret block, body tree)
        self.next_edge = 1

    # -- building ---------------------------------------------------------
    def block(self, r):
        b = Block(10 + len(self.blocks), r, self.rng)
        self.blocks.append(b)
        return b

    def edge(self, src, dst, kind):
        key = (src, dst)
        if key not in self.edges:
            self.edges[key] = [0, kind, None]
        return key

    def tree(self, r, depth):
        """A random statement list; calls go to later routines only."""
        rng, out = self.rng, []
        for _ in range(rng.randint(1, 3 if depth else 4)):
            x = rng.random()
            later = r + 1 < len(self.routines)
            if depth < 3 and x < 0.18:
                out.append(("if", self.tree(r, depth + 1)))
            elif depth < 3 and x < 0.32:
                out.append(("ifelse", self.tree(r, depth + 1), self.tree(r, depth + 1)))
            elif depth < 3 and x < 0.46:
                out.append(("while", self.tree(r, depth + 1), rng.choice(TRIPS)))
            elif depth < 3 and x < 0.58:
                out.append(("dowhile", self.tree(r, depth + 1), rng.choice(TRIPS)))
            elif later and x < 0.66:
                callee = rng.randint(r + 1, min(len(self.routines) - 1, r + 50))
                out.append(("if", [("call", callee)]))
            else:
                out.append(("block",))
        return out

    def compile_seq(self, r, stmts, nxt, last_kind="FALL_THROUGH"):
        """Blocks and intra-routine edges of stmts, leading to block nxt;
        returns the compiled statements (with their blocks) and the entry."""
        compiled = []
        for i, s in enumerate(reversed(stmts)):
            kind = last_kind if i == 0 else "FALL_THROUGH"
            c, nxt = self.compile_stmt(r, s, nxt, kind)
            compiled.append(c)
        compiled.reverse()
        return compiled, nxt

    def compile_stmt(self, r, s, nxt, kind):
        op = s[0]
        if op == "block":
            b = self.block(r)
            self.edge(b.id, nxt.id, kind)
            return ("block", b), b
        if op == "if":
            c = self.block(r)
            body, entry = self.compile_seq(r, s[1], nxt, "UNCONDITIONAL_BRANCH")
            self.edge(c.id, entry.id, "FALL_THROUGH")
            self.edge(c.id, nxt.id, "CONDITIONAL_BRANCH")
            return ("if", c, body), c
        if op == "ifelse":
            c = self.block(r)
            body1, e1 = self.compile_seq(r, s[1], nxt, "UNCONDITIONAL_BRANCH")
            body2, e2 = self.compile_seq(r, s[2], nxt, "FALL_THROUGH")
            self.edge(c.id, e1.id, "FALL_THROUGH")
            self.edge(c.id, e2.id, "CONDITIONAL_BRANCH")
            return ("ifelse", c, body1, body2), c
        if op == "while":
            h = self.block(r)
            body, entry = self.compile_seq(r, s[1], h, "UNCONDITIONAL_BRANCH")
            self.edge(h.id, entry.id, "FALL_THROUGH")
            self.edge(h.id, nxt.id, "CONDITIONAL_BRANCH")
            return ("while", h, body, s[2]), h
        if op == "dowhile":
            t = self.block(r)
            body, entry = self.compile_seq(r, s[1], t)
            self.edge(t.id, entry.id, "CONDITIONAL_BRANCH")
            self.edge(t.id, nxt.id, "FALL_THROUGH")
            return ("dowhile", t, body, s[2]), entry
        if op == "switch":
            d = self.block(r)
            bodies = []
            for case in s[2]:
                body, entry = self.compile_seq(r, case, nxt, "UNCONDITIONAL_BRANCH")
                self.edge(d.id, entry.id, "INDIRECT_BRANCH")
                bodies.append(body)
            # the weights as a tuple: the call-site search descends into lists only
            return ("switch", d, s[1]) + tuple(bodies), d
        # call: the call block, then the return site the callee returns to
        cb, rs = self.block(r), self.block(r)
        self.edge(rs.id, nxt.id, kind)
        return ("call", cb, rs, s[1]), cb

    def build(self):
        n = self.args.routines
        self.routines = [None] * n
        for r in range(n):
            body = [("block",)] + self.tree(r, 0)
            if r == 0 and self.args.dispatch:
                w = self.args.dispatch
                weights = tuple(self.rng.random() ** 6 + 1e-3 if self.args.dispatch_skew else 1.0 for _ in range(w))
                cases = [[("block",)] for _ in range(w)]
                body.insert(1, ("while", [("switch", weights, cases)], self.args.dispatch_trips))
            if r + 1 < n:
                body.insert(self.rng.randint(1, len(body)), ("call", r + 1))
            ret = self.block(r)
            compiled, entry = self.compile_seq(r, body, ret)
            self.routines[r] = (entry, ret, compiled)
        # call and bypass edges, now that every routine's entry exists
        self.call_sites = []

        def calls(stmts):
            for c in stmts:
                if c[0] == "call":
                    self.call_sites.append(c)
                for part in c[2:]:
                    if isinstance(part, list):
                        calls(part)
        for _, _, compiled in self.routines:
            calls(compiled)
        for _, cb, rs, callee in self.call_sites:
            entry, ret, _ = self.routines[callee]
            self.edge(cb.id, entry.id, "CALL")
            self.edge(ret.id, rs.id, "RETURN")
            self.edge(cb.id, rs.id, "CALL_BYPASS")

    # -- running ------------------------------------------------------------
    def run(self, root, thread, nthreads):
        """Walks the program from START to END on one thread: the edge keys."""
        rng, budget = self.rng, self.args.budget
        walk = []
        entry, _, _ = self.routines[root]
        self.edge(START, entry.id, "ENTRY")
        prev = [START]

        def visit(b):
            walk.append((prev[0], b.id))
            prev[0] = b.id

        def iterations(trip):
            if trip > TRIPS[-1]:
                return trip  # the interpreter loop (--dispatch) runs in full
            x = rng.random()
            if len(walk) >= budget:  # bounded: nested loops then run at most twice
                return 2 if x < 0.3 else 1 if x < 0.6 else 0
            # mostly the loop's own trip count, so nested loops repeat whole patterns
            return trip if x < 0.7 else rng.randint(0, 4)

        def seq(stmts):
            for c in stmts:
                op = c[0]
                if op == "block":
                    visit(c[1])
                elif op == "if":
                    visit(c[1])
                    taken = len(walk) < budget and rng.random() < 0.6
                    if taken:
                        yield from seq(c[2])
                elif op == "ifelse":
                    visit(c[1])
                    yield from seq(c[2] if rng.random() < 0.5 else c[3])
                elif op == "while":
                    for _ in range(iterations(c[3])):
                        visit(c[1])
                        yield from seq(c[2])
                    visit(c[1])
                elif op == "switch":
                    visit(c[1])
                    yield from seq(c[3 + rng.choices(range(len(c[2])), weights=c[2])[0]])
                elif op == "dowhile":
                    for _ in range(max(1, iterations(c[3]))):
                        yield from seq(c[2])
                        visit(c[1])
                else:
                    visit(c[1])
                    yield c[3]      # the driver runs the callee
                    visit(c[2])

        def routine(r):
            _, ret, compiled = self.routines[r]
            yield from seq(compiled)
            visit(ret)

        stack = [routine(root)]
        while stack:
            try:
                callee = next(stack[-1])
            except StopIteration:
                stack.pop()
                continue
            stack.append(routine(callee))
        walk.append((prev[0], END))
        self.edge(prev[0], END, "EXIT")
        for key in walk:
            e = self.edges[key]
            if e[2] is None:
                e[2] = [0] * nthreads
            e[2][thread] += 1
        return walk


def dominators(entry, succ, pred):
    """Immediate dominators by the iterative algorithm over reverse postorder."""
    order, seen, stack = [], {entry}, [(entry, iter(succ.get(entry, ())))]
    while stack:
        b, it = stack[-1]
        for t in it:
            if t not in seen:
                seen.add(t)
                stack.append((t, iter(succ.get(t, ()))))
                break
        else:
            order.append(b)
            stack.pop()
    order.reverse()
    num = {b: i for i, b in enumerate(order)}
    idom = {entry: entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = None
            for q in pred.get(b, ()):
                if q not in idom:
                    continue
                if new is None:
                    new = q
                    continue
                a, c = q, new
                while a != c:
                    while num[a] > num[c]:
                        a = idom[a]
                    while num[c] > num[a]:
                        c = idom[c]
                new = a
            if idom.get(b) != new:
                idom[b] = new
                changed = True
    return idom


def dominates(idom, a, b):
    while True:
        if a == b:
            return True
        if idom[b] == b:
            return False
        b = idom[b]


def loops_of(nodes, succ, pred, idom):
    """Natural loops: head -> (back-edge sources, body), with innermost parents."""
    loops = {}
    for t in nodes:
        for h in succ.get(t, ()):
            if dominates(idom, h, t):
                loops.setdefault(h, [[], None])[0].append(t)
    for h, lp in loops.items():
        body, work = {h}, list(lp[0])
        while work:
            x = work.pop()
            if x not in body:
                body.add(x)
                work.extend(pred.get(x, ()))
        lp[1] = body
    rows = []
    for h, (sources, body) in loops.items():
        outer = [g for g, (_, b2) in loops.items() if g != h and body < b2]
        parent = min(outer, key=lambda g: len(loops[g][1])) if outer else 0
        rows.append([h, sorted(sources), sorted(body), parent])
    rows.sort()
    return rows


def huffman(weights):
    """Code strings for the given weights (a complete prefix code, at most 32 bits a code)."""
    if len(weights) == 1:
        return [""]
    heap = [(w, i, [i]) for i, w in enumerate(weights)]
    heapq.heapify(heap)
    codes, k = [""] * len(weights), len(weights)
    while len(heap) > 1:
        w1, _, a = heapq.heappop(heap)
        w2, _, b = heapq.heappop(heap)
        for i in a:
            codes[i] = "0" + codes[i]
        for i in b:
            codes[i] = "1" + codes[i]
        heapq.heappush(heap, (w1 + w2, k, a + b))
        k += 1
    if max(len(c) for c in codes) > 32:  # the format's limit: fixed-length codes instead
        bits = max(1, (len(weights) - 1).bit_length())
        codes = [format(i, "0%db" % bits) for i in range(len(weights))]
    return codes


def compress_repeats(tokens, max_len):
    """Replaces a token run repeated consecutively by (N*run) when shorter."""
    out, i, n = [], 0, len(tokens)
    while i < n:
        best = None
        for L in range(1, max_len + 1):
            if i + 2 * L > n:
                break
            k = 1
            while i + (k + 1) * L <= n and tokens[i + k * L:i + (k + 1) * L] == tokens[i:i + L]:
                k += 1
            if k < 2:
                continue
            unit = "".join(tokens[i:i + L])
            group = "(%d*%s)" % (k, unit)
            saved = k * len(unit) - len(group)
            if saved > 0 and (best is None or saved > best[0]):
                best = (saved, k * L, group)
        if best:
            out.append(best[2])
            i += best[1]
        else:
            out.append(tokens[i])
            i += 1
    return out


def replace_run(tokens, run, ref):
    out, i, L = [], 0, len(run)
    while i < len(tokens):
        if tuple(tokens[i:i + L]) == run:
            out.append(ref)
            i += L
        else:
            out.append(tokens[i])
            i += 1
    return out


def dictionary(seqs, rounds=2, per_round=6, sample=200000):
    """Runs of tokens (characters, repeat groups, references) that recur
    become <key> references; the second round's values may refer to the
    first round's keys. seqs are token lists; returns (keys, new seqs)."""
    keys, names = {}, iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for _ in range(rounds):
        counts = {}
        for toks in seqs:
            for L in (4, 6, 9):
                for i in range(0, min(len(toks), sample) - L + 1, 2):
                    run = tuple(toks[i:i + L])
                    counts[run] = counts.get(run, 0) + 1
        gain = lambda item: item[1] * (len("".join(item[0])) - 3)
        # the second round looks for runs holding a reference: values that refer to keys
        nested = bool(keys)
        best = sorted((x for x in counts.items() if x[1] >= (2 if nested else 3) and gain(x) > 0 and
                       (not nested or any(t[0] == "<" for t in x[0]))), key=gain)[-per_round:]
        for run, _ in reversed(best):
            k = next(names)
            before = seqs
            seqs = [replace_run(t, run, "<%s>" % k) for t in seqs]
            if seqs == before:
                continue
            keys[k] = "".join(run)
    return keys, seqs


def encode(bits):
    bits += "0" * (-len(bits) % 6)
    return "".join(B64[int(bits[j:j + 6], 2)] for j in range(0, len(bits), 6))


def write_dcfg(prog, path, nthreads, thread_instrs):
    blocks = [b for b in prog.blocks if b.count]
    by_id = {b.id: b for b in prog.blocks}
    edges = sorted((e[0], s, d, e[1], e[2] or [0] * nthreads) for (s, d), e in prog.edges.items() if e[0])
    nimg = prog.args.images
    nr = len(prog.routines)
    img_of = lambda r: r * nimg // nr
    # addresses: routines laid out in order inside their image
    offs = [0] * nimg
    span = {}
    for b in prog.blocks:
        k = img_of(b.routine)
        b.addr = offs[k]
        offs[k] += b.size + (b.id % 3)
        lo, hi = span.get(b.routine, (b.addr, b.addr + b.size))
        span[b.routine] = (min(lo, b.addr), max(hi, b.addr + b.size))
    # routine graphs over executed intra-routine edges
    succ, pred, leaves = {}, {}, set()
    for eid, s, d, kind, counts in edges:
        if kind in INTER or d in (START, END) or by_id[s].routine != by_id[d].routine:
            if s not in (START, END):
                leaves.add(s)
            continue
        succ.setdefault(s, []).append(d)
        pred.setdefault(d, []).append(s)
    w = open(path, "w").write
    w('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,\n')
    w('"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "program"], [2, "program.c"]],\n')
    w('"EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"]%s],\n' % "".join(', [%d, "%s"]' % (v, k) for k, v in TYPES.items()))
    w('"SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],\n')
    w('"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [4242, {\n')
    w('"INSTR_COUNT_PER_THREAD": %s, "INSTR_COUNT": %d,\n' % (json.dumps(thread_instrs), sum(thread_instrs)))
    w('"IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"]')
    for k in range(nimg):
        routines = [r for r in range(nr) if img_of(r) == k and prog.routines[r][0].count]
        w(',\n[%d, "%#x", %d, {"FILE_NAME_ID": 1,\n' % (k + 1, 0x400000 + k * 0x10000000, max(offs[k], 1)))
        w('"SYMBOLS": [["NAME", "ADDR_OFFSET", "SIZE"]%s],\n' % "".join(
            ',\n["f%d", "%#x", %d]' % (r, span[r][0], span[r][1] - span[r][0]) for r in routines))
        w('"SOURCE_DATA": [["FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE", "NUM_INSTRS"]%s],\n' % "".join(
            ',\n[2, %d, "%#x", %d, %d]' % (10 * r + 1, prog.routines[r][0].addr, prog.routines[r][0].size,
                                          prog.routines[r][0].instrs) for r in routines))
        w('"BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"]')
        for b in blocks:
            if img_of(b.routine) == k:
                w(',\n[%d, "%#x", %d, %d, %d, %d]' % (b.id, b.addr, b.size, b.instrs, b.last, b.count))
        w('],\n"ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"]')
        members = {}
        for b in blocks:
            members.setdefault(b.routine, []).append(b.id)
        for r in routines:
            entry = prog.routines[r][0].id
            idom = dominators(entry, succ, pred)
            exits = sorted(x for x in members[r] if x in leaves)
            nodes = "".join(', [%d, %d]' % (x, idom[x]) for x in members[r])
            rows = loops_of(members[r], succ, pred, idom)
            w(',\n[%d, %s, [["NODE_ID", "IDOM_NODE_ID"]%s]' % (entry, json.dumps(exits), nodes))
            if rows:
                w(', [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS", '
                  '"PARENT_LOOP_HEAD_NODE_ID"]%s]' % "".join(", " + json.dumps(x) for x in rows))
            w(']')
        w(']}]')
    w('],\n"EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]')
    for eid, s, d, kind, counts in edges:
        w(',\n[%d, %d, %d, %d, %s]' % (eid, s, d, TYPES[kind], json.dumps(counts)))
    w(']}]]}\n')


def write_trace(prog, path, walks, rng):
    succ_count = {}
    for walk in walks:
        for a, b in zip(walk, walk[1:]):
            m = succ_count.setdefault(a, {})
            m[b] = m.get(b, 0) + 1
    code = {}
    rows = []
    for a in sorted(succ_count):
        nexts = sorted(succ_count[a])
        codes = huffman([succ_count[a][b] for b in nexts])
        for b, c in zip(nexts, codes):
            code[(a, b)] = c
            rows.append('[%d, "%s", [%d]]' % (a, c, b))
    instrs = {b.id: b.instrs for b in prog.blocks}
    instrs[START] = 0
    src = {e[0]: s for (s, d), e in prog.edges.items() if e[0]}
    threads = []
    for t, walk in enumerate(walks):
        chunks, i, before = [], 0, 0
        while i < len(walk):
            n = max(1, min(len(walk) - i, int(rng.expovariate(1.0 / prog.args.chunk)) + 1))
            part = walk[i:i + n]
            bits = "".join(code[(a, b)] for a, b in zip(part, part[1:]))
            ic = sum(instrs[src[e]] for e in part)
            chunks.append([before, ic, n, part[0], bits])
            before += ic
            i += n
        threads.append(chunks)
    # sequences: Base64, then repeat groups (characters, then groups of groups), then the dictionary
    seqs = []
    for chunks in threads:
        for c in chunks:
            toks = compress_repeats(list(encode(c[4])), 6)
            seqs.append(compress_repeats(toks, 3))
    keys, seqs = dictionary(seqs)
    k = 0
    for chunks in threads:
        for c in chunks:
            c[4] = "".join(seqs[k])
            k += 1
    w = open(path, "w").write
    w('{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [\n')
    w('["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],\n[4242, %s,\n' % json.dumps(keys))
    w('[["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]%s],\n' % "".join(",\n" + r for r in rows))
    w('[["THREAD_ID", "TRACE_DATA"]')
    for t, chunks in enumerate(threads):
        w(',\n[%d, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]%s]]'
          % (t, "".join(',\n[%d, %d, %d, %d, "%s"]' % tuple(c) for c in chunks)))
    w(']]]}\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--routines", type=int, default=40)
    ap.add_argument("--images", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--chunk", type=int, default=4000)
    ap.add_argument("--dispatch", type=int, default=0)
    ap.add_argument("--dispatch-skew", action="store_true")
    ap.add_argument("--dispatch-trips", type=int, default=400)
    ap.add_argument("dcfg")
    ap.add_argument("trace")
    args = ap.parse_args()
    args.images = max(1, min(args.images, args.routines))
    if args.dispatch:
        TYPES["INDIRECT_BRANCH"] = 9  # only then, so the other outputs stay as they were
    prog = Program(args)
    prog.build()
    walks_keys = []
    for t in range(args.threads):
        root = 0 if t == 0 else prog.rng.randrange(args.routines)
        walks_keys.append(prog.run(root, t, args.threads))
    # executed edges get dense ids in order of first use; call bypass edges of executed calls join them
    for walk in walks_keys:
        for key in walk:
            e = prog.edges[key]
            if not e[0]:
                e[0] = prog.next_edge
                prog.next_edge += 1
    by_id = {b.id: b for b in prog.blocks}
    for walk in walks_keys:
        for s, d in walk:
            if d not in (START, END):
                by_id[d].count += 1
    for (s, d), e in prog.edges.items():
        if e[1] == "CALL_BYPASS" and not e[0] and by_id[s].count and by_id[d].count:
            e[0] = prog.next_edge
            prog.next_edge += 1
    walks = [[prog.edges[k][0] for k in walk] for walk in walks_keys]
    thread_instrs = []
    for walk in walks_keys:
        thread_instrs.append(sum(by_id[d].instrs for s, d in walk if d not in (START, END)))
    write_dcfg(prog, args.dcfg, args.threads, thread_instrs)
    write_trace(prog, args.trace, walks, random.Random(args.seed + 1))
    print("%s: %d routines, %d blocks, %d edges executed; %s: %d edges walked"
          % (args.dcfg, len(prog.routines), sum(1 for b in prog.blocks if b.count), prog.next_edge - 1,
             args.trace, sum(len(w) for w in walks)), file=sys.stderr)


if __name__ == "__main__":
    main()
