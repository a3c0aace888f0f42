#!/usr/bin/env python3
"""Lists reads of input bytes that bypass the core cursor (core/cursor.h).

Input bytes are those of a struct tl_input (`in->data`, `x.data`) and of any
local pointer initialised from them in the same function. A use is raw when it
indexes them (`data[i]`, `*(data + i)`, `*p`), does pointer arithmetic on them
(`data + off`, which is how a cursor gets built by hand), or hands them to
memcpy/memcmp/memchr/memmove. Passing `in->data, in->size` whole to a reader,
testing `in->data` against NULL and assigning it are not reads.

Usage: raw_reads.py ROOT   (prints file:line: why, for every raw use under
ROOT/validators; exit 1 when there is one). Files in ALLOWED are skipped, each
for the reason given.

Limits: the check is textual. It follows a pointer only within one function
(a parameter of a helper is not traced back to its caller's tl_input), so a
reader that receives (data, size) and indexes them, such as the JSON lexer, is
not seen. Comments and string literals are ignored."""

import os
import re
import sys

# path under validators/ -> why raw access is its job
ALLOWED = {
    "core/cursor.h": "the cursor itself: every checked read ends here",
    "xray/xray_fast.c": "the XRay fast path (validators/xray/README.md): one 64-bit "
                        "load per record from a window whose length the walker checked",
    "core/input.c": "the input layer: maps files and copies their bytes into caller buffers",
    "core/window.c": "the pread window: fills and slides the buffer cursors read from",
    "core/window.h": "the pread window: hands out pointers into its checked buffer",
    "core/decompress.c": "hands compressed input to zlib, bzip2 and zstd, which take pointers",
    "repair/repair_json.c": "copies the whole input once into the working copy that the JSON "
                            "salvage edits and has the validator judge again",
}

# programs, and the mutators that write fuzz inputs: not readers of traces
SKIP_DIRS = {"cli", "conform", "examples", "hooks", "mutate", "web"}

DATA = r"(?:->|\.)\s*data\b"
ALIAS_DECL = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*(?:\([^()]*\)\s*)?[\w\]\[>.-]*" + DATA)
RAW_DATA = [
    (re.compile(DATA + r"\s*\["), "indexes input data"),
    (re.compile(DATA + r"\s*[-+](?![-+=])"), "pointer arithmetic on input data"),
    (re.compile(r"\*\s*\(\s*[^()]*" + DATA), "dereferences input data"),
    (re.compile(r"\bmem(?:cpy|cmp|chr|move)\s*\([^;]*" + DATA), "memcpy/memcmp/memchr of input data"),
]


def strip(text):
    """Comments and string/char literals blanked, line structure kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def alias_uses(name):
    a = re.escape(name)
    return [
        (re.compile(r"\b" + a + r"\s*\["), "indexes input data (through %s)" % name),
        (re.compile(r"\b" + a + r"\s*[-+](?![-+=>])"), "pointer arithmetic on input data (through %s)" % name),
        (re.compile(r"(?<![\w)\]])\s*\*\s*\(?\s*" + a + r"\b(?!\s*=[^=])"), "dereferences input data (through %s)" % name),
        (re.compile(r"\b" + a + r"\s*(?:\+\+|--)|(?:\+\+|--)\s*" + a + r"\b"), "walks input data (through %s)" % name),
        (re.compile(r"\bmem(?:cpy|cmp|chr|move)\s*\([^;]*\b" + a + r"\b"), "memcpy/memcmp/memchr of input data (through %s)" % name),
    ]


def scan_file(path):
    findings = []
    depth, aliases = 0, {}
    for lineno, line in enumerate(strip(open(path, encoding="utf-8", errors="replace").read()).split("\n"), 1):
        why = [w for rx, w in RAW_DATA if rx.search(line)]
        for m in ALIAS_DECL.finditer(line):
            aliases[m.group(1)] = alias_uses(m.group(1))
        for name, uses in aliases.items():
            decl = re.search(r"\b" + re.escape(name) + r"\s*=", line)
            for rx, w in uses:
                if rx.search(line) and not (decl and "dereferences" in w):
                    why.append(w)
        if why:
            findings.append((lineno, sorted(set(why))))
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            depth, aliases = 0, {}
    return findings


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    base = os.path.join(root, "validators")
    bad = 0
    for d, dirs, files in sorted(os.walk(base)):
        rel_dir = os.path.relpath(d, base)
        if rel_dir.split(os.sep)[0] in SKIP_DIRS:
            continue
        dirs.sort()
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if rel in ALLOWED:
                continue
            for lineno, why in scan_file(os.path.join(d, f)):
                print("validators/%s:%d: %s" % (rel, lineno, "; ".join(why)))
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
