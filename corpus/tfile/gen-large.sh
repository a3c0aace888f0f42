#!/bin/sh
# Writes a valid synthetic tfile of about SIZE_MB megabytes (benchmarks and
# memory tests; never committed): the layout of a real gdbserver trace of
# x86-64 (see valid/gdb-*.tf) with one frame repeated.
#
#   header, "R 970", the target description of valid/gdb-regs.tf (when
#   present), status with the real frame count, one tsv line, the tp lines of
#   tracepoint 3, the empty line, N frames, a 4-byte zero end marker.
#   Frame: R block (0x970 = 2416 bytes), M blocks (at most 65535 bytes each),
#   a V block of tsv 1. Default: one 4096-byte M block plus a 4-byte one,
#   6,562 bytes a frame, about 160 frames per MB; FRAMES_PER_MB resizes the M
#   blocks to give that many frames per MB (fewer if the R and V blocks
#   alone do not fit).
#
# Usage: corpus/tfile/gen-large.sh SIZE_MB OUT [FRAMES_PER_MB]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 SIZE_MB OUT [FRAMES_PER_MB]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
exec python3 - "$1" "$2" "${3:-0}" "$here/valid/gdb-regs.tf" <<'EOF'
import os
import struct
import sys

size_mb, out, frames_per_mb, tdesc_source = sys.argv[1:5]
total = int(float(size_mb) * 1024 * 1024)
frames_per_mb = int(frames_per_mb)
RSIZE = 0x970
ADDR, TP = 0x555555555140, 3


def tdesc_lines():
    """The target description lines of a real file, if there is one."""
    if not os.path.exists(tdesc_source):
        return b""
    data = open(tdesc_source, "rb").read()
    head = data[8:data.index(b"\n\n") + 1]
    return b"".join(l + b"\n" for l in head.split(b"\n") if l.startswith(b"tdesc "))


def memory_lengths():
    """M block lengths of one frame."""
    if frames_per_mb <= 0:
        return [4096, 4]
    fixed = 6 + (1 + RSIZE) + 13
    room = max(11 + 1, 1024 * 1024 // frames_per_mb - fixed)
    lengths = []
    while room >= 12:
        length = min(65535, room - 11)
        lengths.append(length)
        room -= 11 + length
    return lengths


def frame():
    regs = bytes(range(256)) * (RSIZE // 256) + bytes(RSIZE % 256)
    blocks = b"R" + regs
    address = 0x555555558040
    for length in memory_lengths():
        blocks += b"M" + struct.pack("<QH", address, length) + bytes([0x5a]) * length
        address += length
    blocks += b"V" + struct.pack("<iq", 1, 0x2f3940a15)
    return struct.pack("<HI", TP, len(blocks)) + blocks


def hexs(text):
    return text.encode().hex()


one = frame()
count = max(1, total // len(one))
lengths = memory_lengths()
description = b"R %x\n" % RSIZE + tdesc_lines()
description += (
    "status 0;tstop::0;tframes:%x;tcreated:%x;tfree:0;tsize:%x;"
    "starttime:2f3940a15;stoptime:2f39423e6;notes:;username:\n"
    % (count, count, min(count * len(one), 0xFFFFFFFF))  # status counts are 32-bit
).encode()
description += b"tsv 1:0:1:%s\n" % hexs("trace_timestamp").encode()
tp = "tp %%s%x:%x:" % (TP, ADDR)
lines = [tp % "T" + "E:0:0",
         tp % "A" + "R0fffffffffffffffffffffffffffffffffffff"]
lines += [tp % "A" + "M-1,%x,%x" % (0x555555558040, n) for n in lengths]
lines += [tp % "A" + "X00000008,2c00012e00012927",
          tp % "Z" + "at:0:4:%s" % hexs("work"),
          tp % "Z" + "cmd:0:%x:%s" % (len("collect $regs"), hexs("collect $regs")),
          tp % "V" + "%x:%x" % (count, count * len(one))]
description += "".join(l + "\n" for l in lines).encode() + b"\n"

batch = max(1, (1 << 20) // len(one))
with open(out, "wb") as f:
    f.write(b"\x7fTRACE0\n" + description)
    left = count
    chunk = one * batch
    while left >= batch:
        f.write(chunk)
        left -= batch
    f.write(one * left)
    f.write(bytes(4))
EOF
