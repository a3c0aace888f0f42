#!/usr/bin/python3
"""Content adapter for the Kaitai Struct grammars (grammars/xray.ksy,
grammars/tfile.ksy, grammars/umtrace/*.ksy): parses a trace with the Python
parser the Kaitai compiler generates from them and prints what it read in
the schema of `tracelint dump` (JSON Lines, a header line first), so that a
reader built on the grammars can be compared with the expected content of
each case.

Usage: kaitai-content.py --parsers=DIR [--format=xray|tfile|umtrace] PATH

DIR holds xray.py, tfile.py and the UMTracer modules, as `node
grammars/ksy-check.js compile-python DIR grammars/xray.ksy grammars/tfile.ksy
grammars/umtrace/*.ksy` (or `make kaitai-python`) writes them. The runtime
is Debian's python3-kaitaistruct. Without --format, a directory is a
UMTracer trace and a file is told by its magic ("\\x7fTRACE0" tfile, else
XRay); .gz, .bz2, .xz and .zst files are decompressed first.

XRay: the header, and the function records (kinds function-enter, -exit,
-tail-exit, -enter-arg) with func-id, args, cpu, thread, process and the
absolute tsc, replayed from the metadata records as LLVM's trace expander
does (a version-5 event's TSC delta included; the events themselves are
not printed). tfile: frames and their R, M and V blocks; the register block size is
the description's R line, the byte order the first of little and big under
which the grammar reads the file to its end. UMTracer: threads
(thread.itable), modules (module.itable), execution records (exec.vtable,
each record parsed from the slice exec.offsets gives it) and syscalls
(syscall.vtable, each block parsed from the slice syscall.offsets gives
it); a single member file is read when its name ends with thread.itable or
module.itable, another one gives the header alone, as tracelint dump does.
Byte offsets are not printed (the generated parsers do not keep them).

Exit status: 0 parsed, 1 the grammar rejects the file (the reason on
standard error), 2 usage or a parser that cannot be loaded."""
import json
import os
import re
import sys

FUNCTION_KINDS = ["function-enter", "function-exit", "function-tail-exit", "function-enter-arg"]
# the generated modules of grammars/umtrace this adapter reads with
UMT_MODULES = ("thread_itable", "module_itable", "exec_vtable", "exec_offsets", "syscall_vtable",
               "syscall_offsets", "exec_prev_next_column", "ins_itable", "context_map_itable",
               "address_space_itable")
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
    for name in ("xray.py", "tfile.py") + tuple(m + ".py" for m in UMT_MODULES):
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
    if "kaitaistruct.ValidationNotInEnumError" in missing and hasattr(kaitaistruct, "ValidationFailedError"):
        # 0.11 added this error class for an enum field's `valid` (the UMTracer
        # record type); it is only raised, so it is defined here as 0.11 does
        class ValidationNotInEnumError(kaitaistruct.ValidationFailedError):
            def __init__(self, actual, io, src_path):
                super().__init__("not in the enum, got %r" % (actual,), io, src_path)
                self.actual = actual
        kaitaistruct.ValidationNotInEnumError = ValidationNotInEnumError
        missing.discard("kaitaistruct.ValidationNotInEnumError")
    if missing:
        raise SystemExit("kaitai-content: the kaitaistruct runtime %s lacks %s, which the parsers use" %
                         (getattr(kaitaistruct, "__version__", "?"), ", ".join(sorted(missing))))
    if getattr(kaitaistruct, "API_VERSION", (0, 9)) < (0, 11):
        kaitaistruct.API_VERSION = (0, 11)
    sys.path.insert(0, directory)
    import importlib
    import tfile
    import xray
    umt = {m: importlib.import_module(m) for m in UMT_MODULES}
    return xray, tfile, umt


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


def enum_value(v):
    return v.value if hasattr(v, "value") else v


def umt_records(umt, vtable, offsets_raw):
    """Execution record i: the slice [Offset[i], Offset[i+1]) of exec.vtable."""
    from io import BytesIO
    from kaitaistruct import KaitaiStream
    ev = umt["exec_vtable"]
    head = ev.ExecVtable.ExecHeader(KaitaiStream(BytesIO(vtable[:16])))
    offs = umt["exec_offsets"].ExecOffsets(head.num_records, len(vtable), KaitaiStream(BytesIO(offsets_raw)))
    ids = {0: "ins_id", 4: "syscall_id", 5: "syscall_id", 6: "syscall_id"}
    for i in range(head.num_records):
        start, end = offs.offsets[i], offs.offsets[i + 1]
        rec = parsed(ev.ExecVtable.ExecRec(KaitaiStream(BytesIO(vtable[start:end]))))
        kind = enum_value(rec.type)
        line = {"kind": "record", "eid": i, "thread": rec.thread_id, "type": kind, "flags": rec.flags}
        if kind in ids:
            line["ins-id" if kind == 0 else "syscall-id"] = getattr(rec.body, ids[kind])
        line["size"] = end - start
        out(line)


def umt_syscalls(umt, vtable, offsets_raw):
    """Syscall block i: the slice syscall.offsets gives it, parsed as one syscall_rec."""
    from io import BytesIO
    from kaitaistruct import KaitaiStream
    sv = umt["syscall_vtable"]
    head = sv.SyscallVtable.SyscallHeader(KaitaiStream(BytesIO(vtable[:16])))
    blocks = umt["syscall_offsets"].SyscallOffsets(head.num_records, len(vtable),
                                                   KaitaiStream(BytesIO(offsets_raw))).blocks
    for i, b in enumerate(blocks):
        r = parsed(sv.SyscallVtable.SyscallRec(KaitaiStream(BytesIO(vtable[b.ofs_block:b.ofs_block + b.len_block]))))
        out({"kind": "syscall", "index": i, "convention": r.convention, "completed": r.completed,
             "arg-count": r.num_args, "extra-count": r.num_extras, "begin-eid": r.begin_eid,
             "end-eid": r.end_eid, "result": r.result})


def parsed(obj):
    """obj with its instances read too (the names and decoded instructions a
    table's rows point to are instances, and what they check is the grammar's)."""
    obj._fetch_instances()
    return obj


def dump_umtrace(umt, path):
    out({"kind": "header", "kinds": ["thread", "module", "record", "syscall"], "format": "umtrace"})

    def member(name):
        if not os.path.isdir(path):
            return read_input(path) if path.endswith(name) else None
        try:
            with open(os.path.join(path, name), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    raw = member("thread.itable")
    if raw is not None:
        for r in parsed(umt["thread_itable"].ThreadItable.from_bytes(raw)).rows:
            out({"kind": "thread", "id": r.id, "first-eid": r.first_eid, "last-eid": r.last_eid,
                 "record-count": r.rec_count})
    raw = member("module.itable")
    if raw is not None:
        for i, r in enumerate(parsed(umt["module_itable"].ModuleItable.from_bytes(raw)).rows):
            out({"kind": "module", "index": i, "start": r.start_addr, "end": r.end_addr,
                 "load-eid": r.load_eid, "unload-eid": r.unload_eid})
    if not os.path.isdir(path):
        return
    # the members whose content is not printed are parsed all the same: a
    # reader built on the grammars rejects what they reject
    for name, module, cls in (("ins.itable", "ins_itable", "InsItable"),
                              ("context_map.itable", "context_map_itable", "ContextMapItable"),
                              ("address_space.itable", "address_space_itable", "AddressSpaceItable")):
        raw = member(name)
        if raw is not None:
            parsed(getattr(umt[module], cls).from_bytes(raw))
    vtable, offsets = member("exec.vtable"), member("exec.offsets")
    links = member("exec.prev_next.column")
    if vtable is not None and links is not None:
        from io import BytesIO
        from kaitaistruct import KaitaiStream
        head = umt["exec_vtable"].ExecVtable.ExecHeader(KaitaiStream(BytesIO(vtable[:16])))
        parsed(umt["exec_prev_next_column"].ExecPrevNextColumn(head.num_records, KaitaiStream(BytesIO(links))))
    if vtable is not None and offsets is not None:
        umt_records(umt, vtable, offsets)
    vtable, offsets = member("syscall.vtable"), member("syscall.offsets")
    if vtable is not None and offsets is not None:
        umt_syscalls(umt, vtable, offsets)


def lzma_error():
    import lzma
    return lzma.LZMAError


def main(argv):
    parsers = os.environ.get("TRACELINT_KAITAI_PYTHON")
    fmt = None
    args = []
    for a in argv[1:]:
        if a.startswith("--parsers="):
            parsers = a.split("=", 1)[1]
        elif a.startswith("--format="):
            fmt = a.split("=", 1)[1]
        else:
            args.append(a)
    if len(args) != 1 or not parsers or fmt not in (None, "xray", "tfile", "umtrace"):
        sys.stderr.write(__doc__)
        return 2
    xray, tfile, umt = load_parsers(parsers)
    path = args[0]
    if fmt is None and os.path.isdir(path):
        fmt = "umtrace"
    try:
        raw = read_input(path) if fmt != "umtrace" else b""
    except (OSError, EOFError, lzma_error()) as e:
        sys.stderr.write("kaitai-content: %s\n" % e)
        return 2
    try:
        if fmt == "umtrace":
            dump_umtrace(umt, path)
        elif fmt == "tfile" or (fmt is None and raw.startswith(b"\x7fTRACE0")):
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
