#!/usr/bin/python3
"""Content adapter for the Kaitai Struct grammars (grammars/xray.ksy,
grammars/tfile.ksy): parses a trace with the Python parser the Kaitai
compiler generates from them and prints what it read in the schema of
`tracelint dump` (JSON Lines, a header line first), so that a reader built
on the grammars can be compared with the expected content of each case.

Usage: kaitai-content.py --parsers=DIR FILE

DIR holds xray.py and tfile.py, as `node grammars/ksy-check.js
compile-python DIR grammars/xray.ksy grammars/tfile.ksy` (or `make
kaitai-python`) writes them. The runtime is Debian's python3-kaitaistruct.
The format is told by the file's magic ("\\x7fTRACE0" tfile, else XRay);
.gz, .bz2, .xz and .zst files are decompressed first.

XRay: the header, and the function records (kinds function-enter, -exit,
-tail-exit, -enter-arg) with func-id, args, cpu, thread, process and the
absolute tsc, replayed from the metadata records as LLVM's trace expander
does (a version-5 event's TSC delta included; the events themselves are
not printed). tfile: frames and their R, M and V blocks; the register block size is
the description's R line, the byte order the first of little and big under
which the grammar reads the file to its end. Byte offsets are not printed
(the generated parsers do not keep them).

Exit status: 0 parsed, 1 the grammar rejects the file (the reason on
standard error), 2 usage or a parser that cannot be loaded."""
import json
import os
import re
import sys

FUNCTION_KINDS = ["function-enter", "function-exit", "function-tail-exit", "function-enter-arg"]
MAX_ARGS = 8  # as tracelint dump keeps them


def out(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")


def load_parsers(directory):
    """Imports the generated modules. The compiler of grammars/ (0.11) writes
    a check that refuses a runtime older than 0.11, and Debian ships 0.10:
    the check is let through only when the runtime has every stream method,
    helper and error class the generated code names, so a parser that needs
    something newer still fails here, by name."""
    import kaitaistruct
    from kaitaistruct import KaitaiStream
    missing = set()
    for name in ("xray.py", "tfile.py"):
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise SystemExit("kaitai-content: %s (generate the parsers: make kaitai-python)" % e)
        for attr in set(re.findall(r"\b_io\.([a-z_0-9]+)\(", text)) | set(re.findall(r"\bKaitaiStream\.([a-z_0-9]+)", text)):
            if not hasattr(KaitaiStream, attr):
                missing.add("KaitaiStream." + attr)
        for attr in set(re.findall(r"\bkaitaistruct\.([A-Za-z_]+)", text)):
            if not hasattr(kaitaistruct, attr):
                missing.add("kaitaistruct." + attr)
    if missing:
        raise SystemExit("kaitai-content: the kaitaistruct runtime %s lacks %s, which the parsers use" %
                         (getattr(kaitaistruct, "__version__", "?"), ", ".join(sorted(missing))))
    if getattr(kaitaistruct, "API_VERSION", (0, 9)) < (0, 11):
        kaitaistruct.API_VERSION = (0, 11)
    sys.path.insert(0, directory)
    import tfile
    import xray
    return xray, tfile


class Pending:
    """The function record waiting for the CallArgument records after it."""

    def __init__(self):
        self.line = None

    def open(self, action, func_id, cpu, thread, process, tsc):
        self.flush()
        self.action = action
        self.line = {"func-id": func_id, "cpu": cpu, "thread": thread, "process": process, "tsc": tsc}
        self.args = []
        self.omitted = 0

    def arg(self, value):
        if self.line is None:
            return
        if len(self.args) < MAX_ARGS:
            self.args.append(value)
        else:
            self.omitted += 1

    def flush(self):
        if self.line is None:
            return
        action = 3 if self.action == 0 and self.args else self.action
        line = {"kind": FUNCTION_KINDS[action] if action < 4 else "function-action-unknown"}
        line["func-id"] = self.line["func-id"]
        if self.args or action == 3:
            line["args"] = self.args
        if self.omitted:
            line["args-omitted"] = self.omitted
        for key in ("cpu", "thread", "process", "tsc"):
            line[key] = self.line[key]
        out(line)
        self.line = None


def fdr_records(x, records, state, p):
    for rec in records:
        if not rec.is_metadata:
            f = rec.body
            state["tsc"] = (state["tsc"] + f.tsc_delta) & 0xFFFFFFFFFFFFFFFF
            p.open(f.action, f.function_id, state["cpu"], state["thread"], state["process"], state["tsc"])
            continue
        kind = rec.kind
        data = rec.body.data
        if kind == 6:  # CallArgument
            p.arg(data.value)
            continue
        p.flush()
        if kind == 0:  # NewBuffer
            state["thread"] = data.id
            state["process"] = 0
        elif kind == 9:  # Pid
            state["process"] = data.id
        elif kind == 2:  # NewCPUId
            state["cpu"] = data.cpu
            state["tsc"] = data.tsc
        elif kind == 3:  # TSCWrap
            state["tsc"] = data.tsc
        elif kind in (5, 8) and state["version"] >= 5:  # an event: its signed TSC delta counts
            delta = int.from_bytes(data.tsc_or_delta, "big" if x.is_be else "little", signed=True)
            state["tsc"] = (state["tsc"] + delta) & 0xFFFFFFFFFFFFFFFF


def read_input(path):
    """The file's bytes, decompressed when its name says so (as tracelint
    reads .gz, .bz2, .xz and .zst cases)."""
    if path.endswith(".zst"):
        import subprocess
        run = subprocess.run(["zstd", "-dcq", path], stdout=subprocess.PIPE)
        if run.returncode != 0:
            raise OSError("zstd cannot decompress %s" % path)
        return run.stdout
    import bz2
    import gzip
    import lzma
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(os.path.splitext(path)[1], open)
    with opener(path, "rb") as f:
        return f.read()


def dump_xray(xray, raw):
    x = xray.Xray.from_bytes(raw)
    t = x.trace
    h = t.header
    fdr = h.type == 1
    head = {"kind": "header", "kinds": FUNCTION_KINDS, "format": "xray", "version": h.version,
            "type": h.type, "mode": "fdr" if fdr else "basic",
            "byte-order": "big" if x.is_be else "little",
            "constant-tsc": bool(h.flags & 1), "nonstop-tsc": bool(h.flags & 2),
            "cycle-frequency": h.cycle_frequency}
    if fdr:
        head["buffer-size"] = h.len_buffer
    out(head)
    p = Pending()
    if not fdr:
        for r in t.basic or []:
            if r.record_type == 1:
                p.arg(r.body.arg if hasattr(r.body, "arg") else None)
                continue
            b = r.body
            p.open(b.entry_type, b.function_id, b.cpu, b.tid, b.pid, b.tsc)
        p.flush()
        return
    state = {"cpu": 0, "thread": 0, "process": 0, "tsc": 0, "version": h.version}
    buffers = t.fdr_v1 if h.version == 1 else t.fdr_extents
    for buf in buffers or []:
        if h.version == 1:
            pre, records = buf.preamble, buf.records
        else:
            # a field whose `if` is false is absent from the generated object
            if getattr(buf.body, "preamble", None) is None:
                continue
            pre, records = buf.body.preamble, buf.body.records
        p.flush()
        fdr_records(x, [pre.new_buffer.record, pre.wallclock.record] +
                    ([pre.pid.record] if getattr(pre, "pid", None) is not None else []) +
                    [pre.new_cpu.record], state, p)
        fdr_records(x, records, state, p)
        p.flush()


def dump_tfile(tfile, raw):
    from io import BytesIO
    from kaitaistruct import KaitaiStream
    m = re.search(rb"\nR ([0-9a-fA-F]{1,8})\n", raw.split(b"\n\n", 1)[0] + b"\n")
    regs = int(m.group(1), 16) if m else 0
    parsed, why = None, None
    for be in (False, True):
        try:
            parsed = tfile.Tfile(be, regs, KaitaiStream(BytesIO(raw)))
            break
        except Exception as e:  # the grammar's own errors, or a short read
            why = why or e
    if parsed is None:
        raise why
    out({"kind": "header", "kinds": ["frame", "registers", "memory", "tsv-value"], "format": "tfile"})
    index = 0
    for fr in parsed.frames:
        if fr.is_end:
            break
        out({"kind": "frame", "index": index, "tracepoint": fr.tpnum, "size": fr.len_blocks})
        for b in fr.blocks.blocks:
            if b.type == 0x52:
                out({"kind": "registers", "frame": index, "size": len(b.registers), "data": b.registers.hex()})
            elif b.type == 0x4D:
                mb = b.memory
                out({"kind": "memory", "frame": index, "address": mb.address, "length": mb.len_data,
                     "data": mb.data.hex()})
            elif b.type == 0x56:
                out({"kind": "tsv-value", "frame": index, "number": b.variable.number, "value": b.variable.value})
        index += 1


def lzma_error():
    import lzma
    return lzma.LZMAError


def main(argv):
    parsers = os.environ.get("TRACELINT_KAITAI_PYTHON")
    args = []
    for a in argv[1:]:
        if a.startswith("--parsers="):
            parsers = a.split("=", 1)[1]
        else:
            args.append(a)
    if len(args) != 1 or not parsers:
        sys.stderr.write(__doc__)
        return 2
    xray, tfile = load_parsers(parsers)
    path = args[0]
    try:
        raw = read_input(path)
    except (OSError, EOFError, lzma_error()) as e:
        sys.stderr.write("kaitai-content: %s\n" % e)
        return 2
    try:
        if raw.startswith(b"\x7fTRACE0"):
            dump_tfile(tfile, raw)
        else:
            dump_xray(xray, raw)
    except Exception as e:  # the grammar rejects the file: a reader's "reject"
        sys.stdout.flush()
        sys.stderr.write("kaitai-content: %s: %s: %s\n" % (path, type(e).__name__, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
