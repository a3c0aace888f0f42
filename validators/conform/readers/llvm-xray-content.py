#!/usr/bin/env python3
"""Content adapter for llvm-xray: runs `llvm-xray convert -f yaml` on an XRay
trace and prints what it decoded in the schema of `tracelint dump` (JSON
Lines: a header line, then one line per record), so the two can be compared.

Usage: llvm-xray-content.py [--llvm-xray=PROG] FILE

Fields kept: the header's version, type and cycle frequency; each record's
kind, func-id (function records), args, cpu, thread, process, tsc, data
(event payloads, one character per byte) and type (typed events). llvm-xray
carries the func-id and type of the record before into events and later
records; those stale values are left out. Records come in llvm-xray's order
(sorted by TSC). The exit status is llvm-xray's."""
import json
import subprocess
import sys

FUNCTION_KINDS = {"function-enter", "function-exit", "function-tail-exit", "function-enter-arg"}


def data_of(value):
    # yaml gives a str; its code points are the payload's bytes as llvm-xray wrote them
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return str(value)


def main(argv):
    prog = "llvm-xray"
    args = []
    for a in argv[1:]:
        if a.startswith("--llvm-xray="):
            prog = a.split("=", 1)[1]
        else:
            args.append(a)
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    import yaml  # Debian python3-yaml
    run = subprocess.run([prog, "convert", "--output-format=yaml", "--symbolize=false",
                          "--output=-", args[0]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sys.stderr.write(run.stderr.decode("utf-8", "replace"))
    if run.returncode != 0:
        return run.returncode
    doc = yaml.load(run.stdout, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out = sys.stdout
    h = doc.get("header", {})
    out.write(json.dumps({"kind": "header", "kinds": sorted(FUNCTION_KINDS) + ["custom-event", "typed-event"],
                          "format": "xray", "version": h.get("version"),
                          "type": h.get("type"), "constant-tsc": h.get("constant-tsc"),
                          "nonstop-tsc": h.get("nonstop-tsc"),
                          "cycle-frequency": h.get("cycle-frequency")}, separators=(",", ":")) + "\n")
    for r in doc.get("records") or []:
        kind = r.get("kind")
        line = {"kind": kind}
        if kind in FUNCTION_KINDS:
            line["func-id"] = r.get("func-id")
        if kind == "typed-event":
            line["type"] = r.get("type")
        if r.get("args"):
            line["args"] = list(r["args"])
        elif kind == "function-enter-arg":
            line["args"] = []
        for key in ("cpu", "thread", "process", "tsc"):
            line[key] = r.get(key) or 0  # the YAML leaves out zeros
        if kind in ("custom-event", "typed-event"):
            line["data"] = data_of(r.get("data"))
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
