#!/usr/bin/env python3
"""Writes a big-endian copy of a little-endian tfile made by gdb.

Usage: byteswap.py IN OUT

The description section is copied except its tdesc lines (they describe the
little-endian machine the trace came from, which a big-endian file would
contradict). In the frame section every integer is swapped: the frame's
tracepoint number (u16) and size (u32), an M block's address (u64) and
length (u16), a V block's number (i32) and value (i64). R block payloads are
copied as opaque bytes: their layout is the register set's, which the file
does not describe. The end marker is zeros, the same in both orders.
"""
import struct
import sys


def split_description(data):
    """Returns (description lines, offset of the first frame)."""
    if data[:8] != b"\x7fTRACE0\n":
        sys.exit("not a tfile: bad header")
    pos, lines = 8, []
    while True:
        end = data.index(b"\n", pos)
        line = data[pos:end]
        pos = end + 1
        if not line:
            return lines, pos
        lines.append(line)


def swap_frames(data, pos, rsize):
    out = bytearray()
    while True:
        (tpnum,) = struct.unpack_from("<H", data, pos)
        if tpnum == 0:
            out += data[pos:]
            return out
        (size,) = struct.unpack_from("<I", data, pos + 2)
        out += struct.pack(">HI", tpnum, size)
        pos += 6
        end = pos + size
        while pos < end:
            kind = data[pos:pos + 1]
            out += kind
            pos += 1
            if kind == b"R":
                out += data[pos:pos + rsize]
                pos += rsize
            elif kind == b"M":
                addr, length = struct.unpack_from("<QH", data, pos)
                out += struct.pack(">QH", addr, length)
                out += data[pos + 10:pos + 10 + length]
                pos += 10 + length
            elif kind == b"V":
                number, value = struct.unpack_from("<iq", data, pos)
                out += struct.pack(">iq", number, value)
                pos += 12
            else:
                sys.exit("unexpected block type %r at %d" % (kind, pos - 1))
        if pos != end:
            sys.exit("blocks overrun their frame at %d" % end)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    lines, pos = split_description(data)
    rsize = next(int(l[2:], 16) for l in lines if l.startswith(b"R "))
    kept = [l for l in lines if not l.startswith(b"tdesc ")]
    head = b"\x7fTRACE0\n" + b"".join(l + b"\n" for l in kept) + b"\n"
    with open(dst, "wb") as f:
        f.write(head + swap_frames(data, pos, rsize))


main()
