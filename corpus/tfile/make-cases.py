#!/usr/bin/env python3
"""Writes the hand-made tfile corpus cases: a small synthetic trace laid out
as gdb's tsave lays it out, and one variant per rule of specs/tfile.md.

  python3 corpus/tfile/make-cases.py [build/tracelint]

Each case lands in valid/ (no error; warnings and notes allowed) or invalid/
with its .expected sidecar. The sidecar is taken from tracelint's JSON output,
but only after checking that the case triggers the rule it was made for and,
for valid cases, no error: a case that stops showing its rule fails the
script instead of silently changing its expectation. Review `git diff` of the
sidecars after running it."""
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACELINT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../build/tracelint")

TDESC = [
    "",
    '<!DOCTYPE target SYSTEM "gdb-target.dtd">',
    "<target>",
    "  <architecture>i386:x86-64</architecture>",
    "</target>",
]
REGS = 16  # R 10: a 16-byte register block keeps the cases small


def hexs(text):
    return text.encode().hex()


def base_lines(frames=2):
    return (["R 10"] + ["tdesc " + t for t in TDESC] + [
        f"status 0;tstop::0;tframes:{frames:x};tcreated:{frames:x};tfree:100;tsize:200;"
        "starttime:3b276dad;stoptime:3b2783cb;notes:;username:",
        "tsv 1:0:1:" + hexs("trace_timestamp"),
        "tsv 2:0:0:" + hexs("hits"),
        "tp T1:401000:E:0:0",
        "tp A1:401000:R0f",
        "tp A1:401000:M-1,404060,4",
        "tp Z1:401000:at:0:4:" + hexs("main"),
        "tp Z1:401000:cmd:0:7:" + hexs("collect"),
        "tp V1:401000:2:40",
    ])


def r_block(big=False, size=REGS):
    return b"R" + bytes(range(size))


def m_block(addr=0x404060, data=b"\x01\x02\x03\x04", big=False, length=None):
    e = ">" if big else "<"
    return b"M" + struct.pack(e + "QH", addr, len(data) if length is None else length) + data


def v_block(number=2, value=5, big=False):
    e = ">" if big else "<"
    return b"V" + struct.pack(e + "iq", number, value)


def frame(blocks, tpnum=1, big=False, size=None):
    data = b"".join(blocks)
    e = ">" if big else "<"
    return struct.pack(e + "HI", tpnum, len(data) if size is None else size) + data


def default_frames(big=False, n=2):
    return [frame([r_block(big), m_block(big=big), v_block(big=big)], big=big) for _ in range(n)]


def trace(lines=None, frames=None, end=b"\0\0\0\0", header=b"\x7fTRACE0\n", big=False):
    lines = base_lines() if lines is None else lines
    frames = default_frames(big) if frames is None else frames
    text = "".join(line + "\n" for line in lines).encode("utf-8") + b"\n"
    return header + text + b"".join(frames) + end


def replace(lines, prefix, new):
    out, done = [], False
    for line in lines:
        if not done and line.startswith(prefix):
            if new is not None:
                out.extend(new if isinstance(new, list) else [new])
            done = True
        else:
            out.append(line)
    assert done, prefix
    return out


def after(lines, prefix, new):
    i = max(i for i, line in enumerate(lines) if line.startswith(prefix))
    return lines[:i + 1] + (new if isinstance(new, list) else [new]) + lines[i + 1:]


def tdesc_lines(body):
    return ["tdesc " + t for t in ["", '<!DOCTYPE target SYSTEM "gdb-target.dtd">'] + body]


def with_tdesc(body):
    lines = [line for line in base_lines() if not line.startswith("tdesc ")]
    return lines[:1] + tdesc_lines(body) + lines[1:]


B = base_lines
STATUS = "status 0;tstop::0;tframes:2;tcreated:2;tfree:100;tsize:200;"
CASES = []


def case(kind, name, rule, data, args=(), why=""):
    CASES.append((kind, name, rule, data, list(args), why))


# ---- valid ----------------------------------------------------------------
case("valid", "synthetic-le.tf", None, trace())
case("valid", "synthetic-be.tf", None, trace(frames=default_frames(big=True)),
     why="big-endian frames, detected")
case("valid", "synthetic-be-forced.tf", None, trace(frames=default_frames(big=True)),
     args=["--endian=big"])
case("valid", "no-tdesc.tf", None,
     trace(lines=[line for line in B() if not line.startswith("tdesc ")]))
case("valid", "six-byte-end.tf", None, trace(end=b"\0" * 6))
case("valid", "zero-tail.tf", None, trace(end=b"\0" * 76),
     why="a circular buffer's zero-filled tail after the end marker, as tsave writes it")
case("valid", "static-and-options.tf", None, trace(lines=replace(B(), "tp T1:", [
    "tp T1:401000:E:4:3:F0:X3,260027:S",
    "tp S1:401000:M-1,404060,4",
    "tp Z1:401000:cond:0:1:" + hexs("1"),
]) + ["tp A1:401000:LR3X2,2627"]))

# ---- warnings only (valid, with sidecars) ---------------------------------
case("valid", "line-prefix.tf", "TFILE-LINE-PREFIX", trace(lines=B() + ["comment by hand"]))
case("valid", "r-large.tf", "TFILE-R-LARGE", trace(lines=replace(B(), "R ", "R 20000"),
     frames=[frame([m_block()]), frame([m_block()])]))
case("valid", "status-missing.tf", "TFILE-STATUS-MISSING",
     trace(lines=replace(B(), "status ", None)))
case("valid", "status-key.tf", "TFILE-STATUS-KEY",
     trace(lines=replace(B(), "status ", STATUS + "tbogus:1")))
case("valid", "status-key-repeated.tf", "TFILE-STATUS-KEY-REPEATED",
     trace(lines=replace(B(), "status ", STATUS + "tsize:200")))
case("valid", "status-tframes.tf", "TFILE-STATUS-TFRAMES",
     trace(lines=replace(B(), "status ", "status 0;tstop::0;tframes:3;tcreated:3")))
case("valid", "status-tcreated.tf", "TFILE-STATUS-TCREATED",
     trace(lines=replace(B(), "status ", "status 0;tstop::0;tframes:2;tcreated:1")))
case("valid", "status-tfree.tf", "TFILE-STATUS-TFREE",
     trace(lines=replace(B(), "status ", "status 0;tstop::0;tframes:2;tfree:300;tsize:200")))
case("valid", "tp-piece.tf", "TFILE-TP-PIECE", trace(lines=B() + ["tp Q1:401000:xyz"]))
case("valid", "tp-step-action.tf", "TFILE-TP-STEP-ACTION",
     trace(lines=B() + ["tp S1:401000:R0f"]))
case("valid", "tp-z-length.tf", "TFILE-TP-Z-LENGTH",
     trace(lines=replace(B(), "tp Z1:401000:at", "tp Z1:401000:at:0:5:" + hexs("main"))))
case("valid", "tp-cond-source.tf", "TFILE-TP-COND-SOURCE",
     trace(lines=replace(B(), "tp T1:", "tp T1:401000:E:0:0:X3,260027")))
case("valid", "tdesc-arch.tf", "TFILE-TDESC-ARCH",
     trace(lines=with_tdesc(["<target>", "<architecture>quantum:9</architecture>", "</target>"])))
case("valid", "tdesc-nonascii.tf", "TFILE-TDESC-NONASCII",
     trace(lines=with_tdesc(["<target>", "<!-- caf\u00e9 -->",
                             "<architecture>i386:x86-64</architecture>", "</target>"])))
case("valid", "block-r-repeated.tf", "TFILE-BLOCK-R-REPEATED",
     trace(frames=[frame([r_block(), r_block()]), frame([r_block()])]))
case("valid", "block-m-empty.tf", "TFILE-BLOCK-M-EMPTY",
     trace(frames=[frame([r_block(), m_block(data=b"")]), frame([r_block()])]))
case("valid", "block-m-addr32.tf", "TFILE-BLOCK-M-ADDR32",
     trace(lines=with_tdesc(["<target>", "<architecture>i386</architecture>", "</target>"]),
           frames=[frame([r_block(), m_block(addr=0x100000000)]), frame([r_block()])]))
case("valid", "block-v-undefined.tf", "TFILE-BLOCK-V-UNDEFINED",
     trace(frames=[frame([r_block(), v_block(number=9)]), frame([r_block()])]))
case("valid", "end-short.tf", "TFILE-END-SHORT", trace(end=b"\0\0"))

# ---- invalid --------------------------------------------------------------
case("invalid", "header-magic.tf", "TFILE-HEADER-MAGIC", trace(header=b"\x7fTRACE0\r"))
case("invalid", "header-version.tf", "TFILE-HEADER-VERSION", trace(header=b"\x7fTRACE1\n"))
case("invalid", "desc-unterminated.tf", "TFILE-DESC-UNTERMINATED",
     b"\x7fTRACE0\n" + "".join(line + "\n" for line in B()[:8]).encode())
case("invalid", "line-too-long.tf", "TFILE-LINE-TOO-LONG",
     trace(lines=B() + ["tp Z1:401000:cmd:0:200:" + hexs("collect " + "x" * 504)]),
     why="tsave writes such lines for long commands; gdb's target tfile refuses them")
case("invalid", "line-nul.tf", "TFILE-LINE-NUL",
     trace(lines=replace(B(), "tsv 2:", "tsv 2:0:0:" + hexs("hits") + "\0junk")))
case("invalid", "line-cr.tf", "TFILE-LINE-CR", trace(lines=replace(B(), "R ", "R 10\r")))
case("invalid", "line-charset.tf", "TFILE-LINE-CHARSET",
     trace(lines=B() + ["tp Z1:401000:cmd:0:3:\x01" + hexs("end")]))
case("invalid", "r-missing.tf", "TFILE-R-MISSING",
     trace(lines=replace(B(), "R ", None), frames=[frame([m_block()]), frame([m_block()])]))
case("invalid", "r-duplicate.tf", "TFILE-R-DUPLICATE", trace(lines=after(B(), "R ", "R 10")))
case("invalid", "r-syntax.tf", "TFILE-R-SYNTAX",
     trace(lines=replace(B(), "R ", "R 0x10"), frames=[frame([m_block()]), frame([m_block()])]))
case("invalid", "r-zero.tf", "TFILE-R-ZERO",
     trace(lines=replace(B(), "R ", "R 0"), frames=[frame([m_block()]), frame([m_block()])]))
case("invalid", "r-decimal.tf", "TFILE-R-DECIMAL", trace(lines=replace(B(), "R ", "R 16")),
     why="the seed says decimal: 16 decimal is the real block size, 0x16 is not")
case("invalid", "block-r-unknown-size.tf", "TFILE-BLOCK-R-UNKNOWN-SIZE",
     trace(lines=replace(B(), "R ", "R ten")))
case("invalid", "status-duplicate.tf", "TFILE-STATUS-DUPLICATE",
     trace(lines=after(B(), "status ", STATUS)))
case("invalid", "status-running.tf", "TFILE-STATUS-RUNNING",
     trace(lines=replace(B(), "status ", "status 2;tstop::0;tframes:2")))
case("invalid", "status-syntax.tf", "TFILE-STATUS-SYNTAX",
     trace(lines=replace(B(), "status ", "status 0;tstop::0;;tframes:2;tsize200")))
case("invalid", "status-reason.tf", "TFILE-STATUS-REASON",
     trace(lines=replace(B(), "status ", "status 0;tcrashed:0;tframes:2")))
case("invalid", "status-reason-args.tf", "TFILE-STATUS-REASON-ARGS",
     trace(lines=replace(B(), "status ", "status 0;terror:6f6f7073;tframes:2")),
     why="terror without its tracepoint number crashes gdb 13.1 (parse_trace_status)")
case("invalid", "status-number.tf", "TFILE-STATUS-NUMBER",
     trace(lines=replace(B(), "status ", "status 0;tstop::0;tframes:2;tsize:100000000;tfree:xyz")))
case("invalid", "status-text.tf", "TFILE-STATUS-TEXT",
     trace(lines=replace(B(), "status ", STATUS + "notes:abc;username:alice")))
case("invalid", "tsv-syntax.tf", "TFILE-TSV-SYNTAX",
     trace(lines=replace(B(), "tsv 2:", "tsv 2:0:2:" + hexs("hits"))))
case("invalid", "tsv-name.tf", "TFILE-TSV-NAME",
     trace(lines=B() + ["tsv 3:0:0:", "tsv 4:0:0:" + hexs("a b")]))
case("invalid", "tsv-duplicate-number.tf", "TFILE-TSV-DUPLICATE-NUMBER",
     trace(lines=B() + ["tsv 2:5:0:" + hexs("other")]))
case("invalid", "tsv-duplicate-name.tf", "TFILE-TSV-DUPLICATE-NAME",
     trace(lines=B() + ["tsv 3:fffffffffffffffb:0:" + hexs("hits")]))
case("invalid", "tp-prefix.tf", "TFILE-TP-PREFIX", trace(lines=B() + ["tp A1:401000R0f"]))
case("invalid", "tp-number.tf", "TFILE-TP-NUMBER", trace(lines=B() + ["tp T8000:402000:E:0:0"]))
case("invalid", "tp-t-syntax.tf", "TFILE-TP-T-SYNTAX",
     trace(lines=replace(B(), "tp T1:", "tp T1:401000:Y:0:0")))
case("invalid", "tp-t-condition-length.tf", "TFILE-TP-T-SYNTAX",
     trace(lines=replace(B(), "tp T1:", "tp T1:401000:E:0:0:X4,260027")),
     why="the condition says 4 bytes and carries 3: gdb over-reads the line")
case("invalid", "tp-t-duplicate.tf", "TFILE-TP-T-DUPLICATE",
     trace(lines=B() + ["tp T1:401000:D:0:0"]))
case("invalid", "tp-action.tf", "TFILE-TP-ACTION", trace(lines=B() + ["tp A1:401000:Q12"]))
case("invalid", "tp-z-syntax.tf", "TFILE-TP-Z-SYNTAX",
     trace(lines=B() + ["tp Z1:401000:where:0:4:" + hexs("main"), "tp Z1:401000:cmd"]),
     why="the second line has no ':' after its type: gdb 13.1 dereferences NULL (parse_tracepoint_definition)")
case("invalid", "tp-z-duplicate.tf", "TFILE-TP-Z-DUPLICATE",
     trace(lines=B() + ["tp Z1:401000:at:0:4:" + hexs("work")]))
case("invalid", "tp-v-syntax.tf", "TFILE-TP-V-SYNTAX",
     trace(lines=replace(B(), "tp V1:", "tp V1:401000:2")))
case("invalid", "tp-no-t.tf", "TFILE-TP-NO-T",
     trace(lines=B() + ["tp A2:402000:R0f", "tp V2:402000:0:0"]),
     why="gdb crashes on such locations when the executable is loaded (merge_uploaded_tracepoints)")
case("invalid", "tdesc-xml.tf", "TFILE-TDESC-XML",
     trace(lines=with_tdesc(["<target>", "<architecture>i386:x86-64</architecture>"])))
case("invalid", "tdesc-root.tf", "TFILE-TDESC-ROOT",
     trace(lines=with_tdesc(['<feature name="org.gnu.gdb.i386.core">', "</feature>"])))
case("invalid", "tdesc-include.tf", "TFILE-TDESC-INCLUDE",
     trace(lines=with_tdesc(['<target xmlns:xi="http://www.w3.org/2001/XInclude">',
                             "<architecture>i386:x86-64</architecture>",
                             '<xi:include href="64bit-core.xml"/>', "</target>"])))
case("invalid", "frame-header.tf", "TFILE-FRAME-HEADER",
     trace(frames=default_frames() + [b"\x01\x00\x10\x00"], end=b""))
case("invalid", "frame-tpnum.tf", "TFILE-FRAME-TPNUM",
     trace(frames=[frame([r_block()], tpnum=0x8001), frame([r_block()])]))
case("invalid", "frame-tpnum-undefined.tf", "TFILE-FRAME-TPNUM-UNDEFINED",
     trace(frames=[frame([r_block()], tpnum=7), frame([r_block()], tpnum=7)]))
case("invalid", "frame-size.tf", "TFILE-FRAME-SIZE",
     trace(frames=[frame([r_block()]), frame([r_block()], size=0x1000)]))
case("invalid", "block-type.tf", "TFILE-BLOCK-TYPE",
     trace(frames=[frame([r_block(), b"S\x04\x00abcd"]), frame([r_block()])]),
     why="S is gdbserver's static tracepoint block, which gdb's tfile reader rejects")
case("invalid", "block-overrun.tf", "TFILE-BLOCK-OVERRUN",
     trace(frames=[frame([r_block(), m_block()[:-1]]), frame([r_block()])]),
     why="the M block says 4 bytes but the frame ends after 3")
case("invalid", "block-m-wrap.tf", "TFILE-BLOCK-M-WRAP",
     trace(frames=[frame([r_block(), m_block(addr=0xfffffffffffffffe)]), frame([r_block()])]))
case("invalid", "end-missing.tf", "TFILE-END-MISSING", trace(end=b""))
case("invalid", "end-trailing.tf", "TFILE-END-TRAILING", trace(end=b"\0\0\0\0junk"))
case("invalid", "endian-guessed.tf", "TFILE-ENDIAN-GUESSED",
     trace(lines=[line for line in B() if not line.startswith("tdesc ")],
           frames=[frame([r_block()], size=0x01000100)], end=b""),
     why="no byte order fits a frame whose size runs past the end of the file")
case("invalid", "endian-forced-wrong.tf", "TFILE-FRAME-SIZE",
     trace(frames=default_frames(big=True)), args=["--endian=little"],
     why="a big-endian file read as little-endian, as --endian=little forces")
case("invalid", "max-errors.tf", "TL-MAX-ERRORS",
     trace(lines=replace(B(), "R ", "R xyz") + ["tsv 0:0:0:", "tp X", "tp Y"]),
     args=["--max-errors=2"], why="more than two errors: reporting stops with a note")


def diagnostics(path, args):
    out = subprocess.run([TRACELINT, "--output=json", *args, path], capture_output=True,
                         text=True)
    doc = json.loads(out.stdout)
    found = []
    for d in doc["files"][0]["diagnostics"]:
        loc = f'{d["line"]}:{d["column"]}' if d.get("line") else str(d["offset"])
        # paths in messages relative to the repository's top directory, as in every sidecar
        msg = d["message"].replace(os.path.dirname(os.path.dirname(HERE)) + "/", "")
        found.append((loc, d["severity"], d["rule"], msg))
    return out.returncode, found


def committed_intent(path):
    """The intent line of the case's committed sidecar (reviewed by hand, see
    corpus/README.md), without its "# intent: " prefix, or None."""
    try:
        with open(path + ".expected") as f:
            for line in f:
                if line.startswith("# intent: "):
                    return line[len("# intent: "):].rstrip("\n")
    except FileNotFoundError:
        pass
    return None


def main():
    failed = False
    for kind, name, rule, data, args, why in CASES:
        path = os.path.join(HERE, kind, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        intent = committed_intent(path)
        for ext in (".args", ".expected"):
            if os.path.exists(path + ext):
                os.remove(path + ext)
        if args:
            with open(path + ".args", "w") as f:
                f.write("".join(a + "\n" for a in args))
        rc, found = diagnostics(path, args)
        rules = {r for _, _, r, _ in found}
        errors = [d for d in found if d[1] == "error"]
        problem = None
        if rule and rule not in rules:
            problem = f"does not trigger {rule}"
        elif kind == "valid" and errors:
            problem = f"has errors {errors}"
        elif kind == "invalid" and not errors:
            problem = "has no error"
        if problem:
            print(f"FAIL {kind}/{name}: {problem}: {found}", file=sys.stderr)
            failed = True
            continue
        if not intent:
            warned = sorted({r for _, sev, r, _ in found if sev == "warning"})
            intent = ("must-reject" if kind == "invalid" else
                      f"either tracelint only warns ({', '.join(warned)}): a stricter reader may refuse it"
                      if warned else "must-accept")
        with open(path + ".expected", "w") as f:
            f.write(f"# intent: {intent}\n")
            if why and found:
                f.write(f"# {why}\n")
            for loc, sev, r, msg in found:
                f.write(f"{loc} {sev} {r} {msg}\n")
        print(f"{kind}/{name}: " + ", ".join(f"{r}@{loc}" for loc, _, r, _ in found))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
