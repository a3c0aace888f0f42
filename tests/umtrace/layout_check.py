#!/usr/bin/env python3
"""Reads grammars/umtrace.yaml and parses UMTracer trace directories with it alone.

  layout_check.py LAYOUT.yaml parse DIR...   every member of each trace directory
  layout_check.py LAYOUT.yaml crosscheck SRCDIR   the layout's sizes and field offsets
                                                   against validators/umtrace's sources

Exits 1 with one line per inconsistency: a structure past its area, a size or count
that does not match, a `valid`/`contents` constraint broken, a record whose bytes are
not exactly what its type declares. Only python3-yaml is needed."""
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

import yaml

PRIM = {"u1": "<B", "u2": "<H", "u4": "<I", "u8": "<Q", "s1": "<b", "s2": "<h", "s4": "<i", "s8": "<q"}


class LayoutError(Exception):
    pass


class Layout:
    def __init__(self, path):
        with open(path) as f:
            self.doc = yaml.safe_load(f)
        self.types = self.doc["types"]
        self.files = self.doc["files"]

    # ---- sizes and offsets of fixed types (no data needed) ----
    def offsets(self, name, params=None):
        """Field offsets and the fixed size of a type; stops at the first variable part."""
        fields, size = {}, 0
        for e in self.types[name]["seq"]:
            if "if" in e and not evaluate(e["if"], params or {}):
                continue
            width = self.fixed_width(e, params)
            if width is None:
                return fields, None
            if e.get("type") in self.types and "id" not in e:
                inner, _ = self.offsets(e["type"], params)
                fields.update({k: size + v for k, v in inner.items()})
            if "id" in e:
                fields.setdefault(e["id"], size)
            size += width
        return fields, size

    def size_of(self, name, params=None):
        size = self.offsets(name, params)[1]
        if size is None:
            raise LayoutError(f"type {name} has no fixed size")
        return size

    def fixed_width(self, e, params):
        count = e.get("repeat", 1)
        if not isinstance(count, int):
            return None
        if "contents" in e:
            return len(e["contents"])
        if "size" in e:
            return e["size"] * count if isinstance(e["size"], int) else None
        t = e.get("type")
        if t in PRIM:
            return int(t[1]) * count
        if t in self.types:
            inner = self.offsets(t, params)[1]
            return None if inner is None else inner * count
        return None

    # ---- parsing bytes ----
    def parse(self, typ, buf, off, limit, env=None, params=None):
        """Parses `typ` at off; every byte must lie below limit. Returns (fields, end)."""
        spec = self.types[typ] if isinstance(typ, str) else typ
        fields = {}
        ctx = dict(env or {})
        for e in spec["seq"]:
            if "if" in e and not evaluate(e["if"], params or {}):
                continue
            count = e.get("repeat", 1)
            count = count if isinstance(count, int) else evaluate(count, ctx)
            if count < 0:
                raise LayoutError(f"{typ_name(typ)}.{e.get('id')}: negative repeat {count}")
            values = []
            for _ in range(count):
                value, off = self.element(e, buf, off, limit, ctx, params, typ)
                values.append(value)
            value = values[0] if e.get("repeat") is None and values else values
            if "id" in e:
                fields[e["id"]] = value
                ctx[e["id"]] = value
            elif isinstance(value, dict):
                fields.update(value)
                ctx.update(value)
        return fields, off

    def element(self, e, buf, off, limit, ctx, params, typ):
        where = f"{typ_name(typ)}.{e.get('id', e.get('type'))} at {off}"
        if "switch-on" in e:
            key = ctx[e["switch-on"]]
            case = find_case(e["cases"], key)
            if case is None:
                raise LayoutError(f"{where}: no case for {key}")
            return self.parse(case, buf, off, limit, ctx, params)
        if "contents" in e:
            want = bytes(e["contents"])
            need(off + len(want) <= limit, f"{where}: {len(want)} bytes past {limit}")
            need(buf[off:off + len(want)] == want, f"{where}: expected {list(want)}")
            return want, off + len(want)
        if "size" in e:
            n = e["size"] if isinstance(e["size"], int) else evaluate(e["size"], ctx)
            need(0 <= n and off + n <= limit, f"{where}: {n} bytes past {limit}")
            return buf[off:off + n], off + n
        t = e["type"]
        if t in PRIM:
            n = int(t[1])
            need(off + n <= limit, f"{where}: {n} bytes past {limit}")
            (value,) = struct.unpack_from(PRIM[t], buf, off)
            check_valid(e, value, where)
            return value, off + n
        return self.parse(t, buf, off, limit, ctx, params)


def typ_name(typ):
    return typ if isinstance(typ, str) else "inline"


def find_case(cases, key):
    for k, v in cases.items():
        if isinstance(k, int) and k == key:
            return v
        if isinstance(k, str) and ".." in k:
            lo, hi = (int(x) for x in k.split(".."))
            if lo <= key <= hi:
                return v
    return None


def evaluate(expr, ctx):
    names = {k.replace(".", "__"): v for k, v in ctx.items()}
    return eval(str(expr).replace(".", "__"), {"__builtins__": {}}, names)


def check_valid(e, value, where):
    rule = e.get("valid")
    if rule is None:
        return
    ok = value in rule if isinstance(rule, list) else (
        value == rule if isinstance(rule, int) else evaluate(f"value {rule}", {"value": value}))
    need(ok, f"{where}: {value} is not valid ({rule})")


def need(cond, msg):
    if not cond:
        raise LayoutError(msg)


# ---- one trace directory ----
class Trace:
    def __init__(self, layout, path):
        self.L, self.dir = layout, path
        self.data = {}
        for name in layout.files:
            with open(os.path.join(path, name), "rb") as f:
                self.data[name] = f.read()

    def table(self, name):
        """A fixed-size table member: header, rows, extra area. Returns (header, rows)."""
        spec, buf, L = self.L.files[name], self.data[name], self.L
        header, hend = L.parse(spec["header"], buf, 0, len(buf))
        need(hend == L.size_of(spec["header"]), f"{name}: header of {hend} bytes")
        sizes = spec["row_size"] if isinstance(spec["row_size"], list) else [spec["row_size"]]
        rs = header["row_size"]
        need(rs in sizes, f"{name}: RowSize {rs}, layout says {sizes}")
        need(L.size_of(spec["row"], {"row_size": rs}) == rs,
             f"{name}: type {spec['row']} is {L.size_of(spec['row'], {'row_size': rs})} bytes, RowSize {rs}")
        fp, count = header["table_fp"], header["row_count"]
        need(count >= 0 and hend <= fp and fp + count * rs <= len(buf),
             f"{name}: {count} rows of {rs} at {fp} past {len(buf)}")
        rows = []
        for i in range(count):
            row, end = L.parse(spec["row"], buf, fp + i * rs, fp + (i + 1) * rs, params={"row_size": rs})
            need(end == fp + (i + 1) * rs, f"{name}: row {i} ends at {end}")
            rows.append(row)
        last = fp + count * rs
        if "extra_fp" in header:
            xfp, xsize = header["extra_fp"], header["extra_size"]
            need(0 <= xsize and hend <= xfp and xfp + xsize <= len(buf), f"{name}: extra area past end")
            need(xfp >= last or xfp + xsize <= fp, f"{name}: extra area overlaps the rows")
            last = max(last, xfp + xsize)
        need(last <= len(buf), f"{name}: structures end at {last}, past {len(buf)}")  # trailing bytes: a warning
        return header, rows

    def check(self):
        L, d = self.L, self.data
        cmap_spec = L.files["context_map.itable"]
        need(len(d["context_map.itable"]) == cmap_spec["size"] == L.size_of(cmap_spec["type"]),
             f"context_map.itable: {len(d['context_map.itable'])} bytes, layout {cmap_spec['size']}, "
             f"type {L.size_of(cmap_spec['type'])}")
        cmap, _ = L.parse(cmap_spec["type"], d["context_map.itable"], 0, cmap_spec["size"])

        ins_h, ins = self.table("ins.itable")
        lc_size = {}
        xfp, xend = ins_h["extra_fp"], ins_h["extra_fp"] + ins_h["extra_size"]
        for row in ins:
            L.parse("cstr", d["ins.itable"], xfp + row["disasm_fp"], xend)
            dec, _ = L.parse("decoded_ins", d["ins.itable"], xfp + row["decoded_fp"], xend)
            lc_size[row["id"]] = dec["lc_size"]
        mod_h, mods = self.table("module.itable")
        for row in mods:
            for fp in ("win_name_fp", "device_name_fp"):
                L.parse("ustr", d["module.itable"], row[fp], len(d["module.itable"]))
        self.table("thread.itable")
        self.table("address_space.itable")
        self.exec_records(lc_size, cmap["dump_size"])
        self.syscalls()
        self.xml()

    def index(self, name, count):
        buf = self.data[name]
        fields, end = self.L.parse(self.L.files[name], buf, 0, len(buf), {"record_count": count})
        need(end == len(buf), f"{name}: {len(buf) - end} bytes after the last entry")
        return fields

    def exec_records(self, lc_size, dump_size):
        L, vt = self.L, self.data["exec.vtable"]
        spec = L.files["exec.vtable"]
        header, hend = L.parse(spec, vt, 0, len(vt))
        count = header["record_count"]
        offsets = self.index("exec.offsets", count)["offset"]
        self.index("exec.prev_next.column", count)
        need(offsets[0] >= hend and offsets[-1] <= len(vt), "exec.offsets: first/last out of exec.vtable")
        for i in range(count):
            start, end = offsets[i], offsets[i + 1]
            need(start < end, f"exec.offsets: entry {i + 1} does not increase")
            head, _ = L.parse({"seq": L.types["exec_rec"]["seq"][:3]}, vt, start, end)
            env = {}
            if head["type"] == 0:
                (ins_id,) = struct.unpack_from("<q", vt, start + 6)
                env["decoded_ins.lc_size"] = lc_size[ins_id]
            rec, fixed_end = L.parse("exec_rec", vt, start, end, env)
            rec = rec["data"]
            if head["type"] in (0, 2, 3, 6):
                need(fixed_end == end, f"exec.vtable: record {i} of type {head['type']} is {end - start} bytes, layout {fixed_end - start}")
                continue
            # rm_context: C follows the SyscallID of types 4/5; its dumps lie after the array
            c = start + 6 + (8 if head["type"] in (4, 5) else 0)
            need(c + rec["regs_fp"] >= fixed_end and c + rec["regs_fp"] + dump_size <= end,
                 f"exec.vtable: record {i} register dump outside [{fixed_end}, {end})")
            for m in rec["mem_refs"]:
                need(c + m["data_fp"] >= fixed_end and c + m["data_fp"] + m["size"] <= end,
                     f"exec.vtable: record {i} contextMem data outside [{fixed_end}, {end})")

    def syscalls(self):
        L, vt = self.L, self.data["syscall.vtable"]
        header, hend = L.parse(L.files["syscall.vtable"], vt, 0, len(vt))
        blocks = self.index("syscall.offsets", header["record_count"])["block"]
        rec_size = L.size_of("syscall_rec")
        for i, b in enumerate(blocks):
            need(b["offset"] >= hend and b["size"] >= rec_size and b["offset"] + b["size"] <= len(vt),
                 f"syscall.offsets: block {i} [{b['offset']}, +{b['size']}) outside syscall.vtable or below {rec_size} bytes")
            rec, _ = L.parse("syscall_rec", vt, b["offset"], b["offset"] + b["size"])
            if rec["arg_count"] > 0:
                need(rec_size <= rec["args_fp"] and rec["args_fp"] + 8 * rec["arg_count"] <= b["size"],
                     f"syscall.vtable: block {i} arguments outside the block")

    def xml(self):
        spec = self.L.files["trace.xml"]
        root = ET.parse(os.path.join(self.dir, "trace.xml")).getroot()
        # the fields are optional (their absence is a warning); where present, each is
        # found at one of the places the layout lists, and only there
        for field in spec["fields"]:
            tail = field.split("/")[-1]
            everywhere = [e for e in root.iter(tail)]
            listed = [root.find(field) if under == "root" else root.find(under.split("/", 1)[1] + "/" + field)
                      for under in spec["under"]]
            listed = [e for e in listed if e is not None]
            need(len(everywhere) == len(listed), f"trace.xml: {field} outside {spec['under']}")


# ---- the layout against the validator's sources ----
# Each pattern is a fragment of validators/umtrace/FILE with {type.field} (offset),
# {type} (fixed size, {type@N} with row_size N), {header:FILE} (size of a table file's
# header), {rows:FILE} / {rows2:FILE} (its first / second RowSize) taken from the layout;
# whitespace-insensitive.
CROSS = [
    ("umt_table.c", "case M_INS: return (struct table_kind){ {header:ins.itable}, {rows:ins.itable}, 1,"),
    ("umt_table.c", "case M_MODULE: return (struct table_kind){ {header:module.itable}, {rows:module.itable}, 0,"),
    ("umt_table.c", "case M_THREAD: return (struct table_kind){ {header:thread.itable}, {rows:thread.itable}, 0,"),
    ("umt_table.c", "default: return (struct table_kind){ {header:address_space.itable}, {rows:address_space.itable}, 0,"),
    ("umt_table.c", "m == M_MODULE && row_size == {rows2:module.itable}"),
    ("umt.h", "[UMT_H_N] = { { {table_header_32.header_ver}, 4, false }, { {table_header_32.record_ver}, 4, false }, { {table_header_32.row_count}, 8, true }, { {table_header_32.row_size}, 8, true }, { {table_header_32.table_fp}, 8, true }, { {table_header_48.extra_fp}, 8, true }, { {table_header_48.extra_size}, 8, true }, };"),
    ("umt.h", "#define UMT_CMAP_SIZE {context_map}u"),
    ("umt.h", "ins_row[2] = { { {ins_rec.decoded_fp}, 8, false }, { {ins_rec.cs_is_64_bits}, 1, false } };"),
    ("umt.h", "dec_head[2] = { { {decoded_ins.lc_size}, 2, true }, { {decoded_ins.flags}, 1, false } };"),
    ("umt.h", "range[2] = { { {address_range.first}, 8, false }, { {address_range.last}, 8, false } };"),
    ("umt.h", "[UMT_D_FLAGS] = { {decoded_ins.flags}, 1, false }, [UMT_D_EXP_COUNT] = { {decoded_ins.exp_count}, 1, false }, [UMT_D_EFF_OPER] = { {decoded_ins.eff_oper_size}, 1, false }, [UMT_D_EFF_ADDR] = { {decoded_ins.eff_addr_size}, 1, false }, [UMT_D_LC_SIZE] = { {decoded_ins.lc_size}, 2, true }, [UMT_D_FIRST_OUT] = { {decoded_ins.first_out_slot}, 1, false }, [UMT_D_FIRST_AFTER] = { {decoded_ins.first_after_slot}, 1, false }, [UMT_D_LC_COUNT] = { {decoded_ins.lc_count}, 1, false }, [UMT_D_SEG] = { {decoded_ins.mem0_seg_slot}, 1, false }, [UMT_D_BASE] = { {decoded_ins.mem0_base_slot}, 1, false }, [UMT_D_SCALE] = { {decoded_ins.mem0_scale}, 1, false }, [UMT_D_INDEX] = { {decoded_ins.mem0_index_slot}, 1, false }, [UMT_D_MEM1] = { {decoded_ins.mem1_base_slot}, 1, false }, [UMT_D_IMM0] = { {decoded_ins.const_slot}, 8, false },"),
    ("umt.h", "[UMT_S_N] = { { {lc_slot.reg_name}, 2, false }, { {lc_slot.common_reg_name}, 2, false }, { {lc_slot.value_size}, 2, true }, { {lc_slot.offset}, 2, true }, { {lc_slot.addr_width}, 1, false }, };"),
    ("umt.h", "head[4] = { { {exec_rec.thread_id}, 4, true }, { {exec_rec.type}, 1, false }, { {exec_rec.flags}, 1, false },"),
    ("umt_ins.c", "[I_ID] = { {ins_rec.id}, 8, true }, [I_TYPE] = { {ins_rec.type}, 1, false }, [I_CS64] = { {ins_rec.cs_is_64_bits}, 1, false }, [I_CODE_SIZE] = { {ins_rec.code_size}, 1, false }, [I_MODULE] = { {ins_rec.module_id}, 4, true }, [I_ADDRESS] = { {ins_rec.address}, 8, false }, [I_DISASM] = { {ins_rec.disasm_fp}, 8, true }, [I_DECODED] = { {ins_rec.decoded_fp}, 8, true },"),
    ("umt.h", "exp_oper[UMT_O_N] = { { {exp_oper.reg_name}, 2, false }, { {exp_oper.size}, 2, true }, { {exp_oper.flags}, 1, false }, { {exp_oper.before_slot}, 1, false }, { {exp_oper.after_slot}, 1, false }, { {exp_oper.before_offset}, 1, false }, { {exp_oper.after_offset}, 1, false }, };"),
    ("umt_context_map.c", "reg_info[3] = { { {reg_info.offset}, 2, false }, { {reg_info.size}, 1, false }, { {reg_info.eff_largest}, 2, true } };"),
    ("umt_context_map.c", "header[2] = { { {context_map.dump_size}, 2, false }, { {context_map.elem_count}, 2, false } };"),
    ("umt_syscall_block.c", "size < {syscall_rec}"),
    ("umt_syscall_block.c", "[S_CONV] = { {syscall_rec.convention}, 1, true }, [S_COMPLETED] = { {syscall_rec.completed}, 1, false }, [S_ARGS] = { {syscall_rec.arg_count}, 1, true }, [S_EXTRAS] = { {syscall_rec.extra_count}, 1, true }, [S_BEGIN] = { {syscall_rec.begin_eid}, 8, true }, [S_END] = { {syscall_rec.end_eid}, 8, true }, [S_SP] = { {syscall_rec.before_sp}, 8, false }, [S_RESULT] = { {syscall_rec.result}, 8, false }, [S_ARGS_FP] = { {syscall_rec.args_fp}, 8, true }, [S_EXTRAS_FP] = { {syscall_rec.extras_fp}, 8, true },"),
    ("umt_thread.c", "thread_row[T_N] = { { {thread_rec.id}, 4, true }, { {thread_rec.first_eid}, 8, true }, { {thread_rec.last_eid}, 8, true }, { {thread_rec.rec_count}, 8, true }, };"),
    ("umt_exec_records.c", "tib_addr[1] = { { {thread_rec.tib_addr}, 8, false } };"),
    ("umt_module_row.c", "module_row[MR_N] = { { {module_rec.load_eid}, 8, true }, { {module_rec.unload_eid}, 8, true }, { {module_rec.start_addr}, 8, false }, { {module_rec.end_addr}, 8, false }, { {module_rec.win_name_fp}, 8, true }, { {module_rec.device_name_fp}, 8, true }, };"),
]


def crosscheck(layout, srcdir):
    def value(m):
        key = m.group(1)
        if ":" in key:
            kind, member = key.split(":")
            spec = layout.files[member]
            sizes = spec["row_size"] if isinstance(spec["row_size"], list) else [spec["row_size"]]
            if kind == "header":
                return str(layout.size_of(spec["header"]))
            return str(sizes[0 if kind == "rows" else 1])
        name, _, rs = key.partition("@")
        params = {"row_size": int(rs)} if rs else {"row_size": 48}
        if "." in name:
            t, field = name.split(".")
            offsets = layout.offsets(t, params)[0]
            # a field the layout lacks fails the pattern, with the others still given
            return str(offsets[field]) if field in offsets else f"<no {key}>"
        return str(layout.size_of(name, params))

    def squash(s):
        return re.sub(r"\s+", "", s)

    problems = []
    # within the layout: each table's row type is as long as every RowSize it allows
    for member, spec in layout.files.items():
        if "row" not in spec:
            continue
        sizes = spec["row_size"] if isinstance(spec["row_size"], list) else [spec["row_size"]]
        for rs in sizes:
            got = layout.size_of(spec["row"], {"row_size": rs})
            if got != rs:
                problems.append(f"{member}: row type {spec['row']} is {got} bytes, row_size {rs}")
    for fname, pattern in CROSS:
        with open(os.path.join(srcdir, "validators", "umtrace", fname)) as f:
            text = squash(f.read())
        want = re.sub(r"\{([a-z_0-9.@:]+)\}", value, pattern)
        if squash(want) not in text:
            problems.append(f"{fname}: layout gives `{want}`, not in the validator")
    return problems


def main(argv):
    if len(argv) < 4 or argv[2] not in ("parse", "crosscheck"):
        print(__doc__, file=sys.stderr)
        return 2
    layout = Layout(argv[1])
    problems = []
    if argv[2] == "crosscheck":
        problems = crosscheck(layout, argv[3])
    else:
        for path in argv[3:]:
            try:
                Trace(layout, path).check()
            except (LayoutError, KeyError, IndexError, struct.error, ET.ParseError, OSError) as e:
                problems.append(f"{path}: {type(e).__name__}: {e}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
