#!/usr/bin/env python3
"""Writes the DCFG and DCFG-trace corpus cases: a small hand-built program
(a routine with a loop), its trace, and one mutation per rule. Run from the
repository root: python3 corpus/dcfg/make_corpus.py. The .expected sidecars
are written by hand (reviewed), never by this script."""
import copy
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def dump(v, ind=0):
    """JSON with one table row per line, so line:column locations stay readable."""
    pad = "  " * ind
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = [pad + "  " + json.dumps(k) + ": " + dump(x, ind + 1) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list):
        if all(not isinstance(x, (dict, list)) for x in v) or all(
            isinstance(x, list) and all(not isinstance(y, (dict, list)) for y in x) for x in v
        ) and len(v) <= 1:
            return json.dumps(v)
        if all(not isinstance(x, dict) and not (isinstance(x, list) and any(isinstance(y, (dict, list)) for y in x)) for x in v):
            return "[\n" + ",\n".join(pad + "  " + json.dumps(x) for x in v) + "\n" + pad + "]"
        return "[\n" + ",\n".join(pad + "  " + dump(x, ind + 1) for x in v) + "\n" + pad + "]"
    return json.dumps(v)


def base_dcfg():
    return {
        "MAJOR_VERSION": 1,
        "MINOR_VERSION": 0,
        "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "hello"], [2, "hello.c"]],
        "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "CALL"], [4, "RETURN"],
                       [5, "FALL_THROUGH"], [6, "CONDITIONAL_BRANCH"], [7, "UNCONDITIONAL_BRANCH"]],
        "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"], [3, "UNKNOWN"]],
        "PROCESSES": [
            ["PROCESS_ID", "PROCESS_DATA"],
            [100, {
                "INSTR_COUNT_PER_THREAD": [14],
                "INSTR_COUNT": 14,
                "IMAGES": [
                    ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],
                    [1, "0x400000", 4096, {
                        "FILE_NAME_ID": 1,
                        "SYMBOLS": [["NAME", "ADDR_OFFSET", "SIZE"], ["main", "0x10", 36]],
                        "SOURCE_DATA": [["FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE", "NUM_INSTRS"],
                                        [2, 3, "0x10", 8, 2]],
                        "BASIC_BLOCKS": [
                            ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],
                            [10, "0x10", 8, 2, 4, 1],
                            [11, "0x18", 6, 2, 3, 4],
                            [12, "0x20", 5, 1, 0, 3],
                            [13, "0x30", 4, 1, 0, 1]],
                        "ROUTINES": [
                            ["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],
                            [10, [13],
                             [["NODE_ID", "IDOM_NODE_ID"], [10, 10], [11, 10], [12, 11], [13, 11]],
                             [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS",
                               "PARENT_LOOP_HEAD_NODE_ID"], [11, [12], [11, 12], 0]]]],
                    }]],
                "EDGES": [
                    ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],
                    [1, 1, 10, 1, [1]],
                    [2, 10, 11, 5, [1]],
                    [3, 11, 12, 6, [3]],
                    [4, 12, 11, 7, [3]],
                    [5, 11, 13, 6, [1]],
                    [6, 13, 2, 2, [1]]],
            }]],
    }


def base_trace():
    return {
        "MAJOR_VERSION": 1,
        "MINOR_VERSION": 0,
        "PROCESSES": [
            ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],
            [100, {"a": "E", "b": "<a>"},
             [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],
              [1, "", [2]], [2, "0", [3]], [2, "1", [5]], [3, "", [4]], [4, "0", [3]], [4, "1", [5]],
              [5, "", [6]]],
             [["THREAD_ID", "TRACE_DATA"],
              [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],
                   [0, 14, 10, 1, "<b>"]]]]]],
    }


def proc(d):
    return d["PROCESSES"][1][1]


def image(d):
    return proc(d)["IMAGES"][1][3]


def tproc(t):
    return t["PROCESSES"][1]


def chunk(t):
    return tproc(t)[3][1][1][1]


# Rules of warning severity: their cases stay valid (exit 0) and live in valid/ with a sidecar.
WARN_ONLY = {
    "json_decimal_string", "json_unknown_key", "dcfg_version_value", "dcfg_edge_type_name",
    "dcfg_image_overlap", "dcfg_range_in_image", "dcfg_range_in_image_start", "dcfg_block_count", "dcfg_flow", "dcfg_unknown_node",
    "dtrace_version", "dtrace_repeat_zero", "dtrace_pad_bits", "dtrace_group_overshoot",
    "dcfg_last_instr_length", "dcfg_block_same_start", "dcfg_block_same_start_apart", "dcfg_block_zero_count", "dcfg_thread_instr_sum",
    "dcfg_edge_duplicate", "dcfg_rep_edge", "dcfg_edge_zero_count", "dcfg_routine_exits", "dcfg_routine_exits_second",
    "dcfg_routines_two_images",
    "dcfg_natural_loop", "dcfg_natural_loop_parent", "dcfg_natural_loop_dominance", "dcfg_loop_missing", "dcfg_loop_missing_source", "pair_edge_count_short",
}


def write(fmt, kind, name, text, args=None):
    if name.split(".")[0] in WARN_ONLY:
        kind = "valid"
    path = os.path.join(ROOT, fmt, kind, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")
    if args:
        with open(path + ".args", "w") as f:
            f.write("\n".join(args) + "\n")


def dcfg_cases():
    W = lambda kind, name, d: write("dcfg", kind, name, dump(d) if not isinstance(d, str) else d)
    d = base_dcfg()
    W("valid", "hello.dcfg.json", d)
    # a DCFG-trace under a DCFG's name: judged by the name, found to be the other format
    write("dcfg", "invalid", "name_holds_trace.dcfg.json", dump(base_trace()))
    # all integers as hex strings, permuted columns (readers must use the header)
    h = base_dcfg()
    h["EDGE_TYPES"] = [["EDGE_TYPE", "EDGE_TYPE_ID"]] + [[r[1], hex(r[0])] for r in h["EDGE_TYPES"][1:]]
    p = proc(h)
    p["EDGES"] = [["COUNT_PER_THREAD", "EDGE_TYPE_ID", "TARGET_NODE_ID", "SOURCE_NODE_ID", "EDGE_ID"]] + [
        [r[4], r[3], r[2], r[1], hex(r[0])] for r in p["EDGES"][1:]]
    W("valid", "hex_permuted.dcfg.json", h)
    # the smallest DCFG: versions only
    W("valid", "minimal.dcfg.json", {"MAJOR_VERSION": 1, "MINOR_VERSION": 0})

    def mut(name, f):
        x = base_dcfg()
        f(x)
        W("invalid", name, x)

    W("invalid", "json_syntax_trailing_comma.dcfg.json", dump(base_dcfg()).replace('[2, "hello.c"]', '[2, "hello.c"],', 1))
    W("invalid", "json_syntax_curly_quote.dcfg.json", dump(base_dcfg()).replace('"hello.c"', '\u201chello.c\u201d'))
    W("invalid", "json_depth.dcfg.json", '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "X": ' + "[" * 1100 + "]" * 1100 + "}")
    write("dcfg", "invalid", "json_top_object.dcfg.json", '[{"MAJOR_VERSION": 1, "MINOR_VERSION": 0}]', ["--format=dcfg"])
    write("dcfg", "invalid", "json_top_scalar.dcfg.json", "42", ["--format=dcfg"])
    # whitespace of every kind before the object, and SPECIAL_NODES the only DCFG key
    W("valid", "minimal_special_nodes.dcfg.json", "\t\r\n " + dump(
        {"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"]]}))
    W("invalid", "json_duplicate_key.dcfg.json", '{"MAJOR_VERSION": 1,\n "MINOR_VERSION": 0,\n "MAJOR_VERSION": 1}')
    # keys are compared decoded: an escaped spelling of a known key is that key
    W("invalid", "json_duplicate_key_escaped.dcfg.json",
      dump(base_dcfg())[:-2] + ',\n  "PROCESSE\\u0053": "garbage",\n  "MAJOR\\u005fVERSION": 99\n}')
    W("valid", "json_key_escaped.dcfg.json",
      '{"MAJOR_VERSION": 1, "MINOR\\u005FVERSION": 0,\n "FILE_NAME\\u0053": [["FILE_NAME_ID", "FILE\\u005fNAME"], [1, "a.c"]]}')
    mut("json_integer.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][1].__setitem__(2, 8.5))
    mut("json_decimal_string.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][1].__setitem__(2, "8"))
    mut("json_table.dcfg.json", lambda x: x["FILE_NAMES"].__setitem__(0, ["FILE_NAME_ID", "FILE_NAME_ID", "FILE_NAME"]))
    mut("json_table_column.dcfg.json", lambda x: image(x)["SYMBOLS"].__setitem__(0, ["NAME", "ADDR_OFFSET", "SIZE "]))
    t = base_dcfg()
    t["FILE_NAMES"][0] = ["FILE_NAME_ID", "FILE_NAME_ID", "FILE_NAME"]
    write("dcfg", "invalid", "tl_max_errors.dcfg.json", dump(t), ["--max-errors=1"])
    mut("json_type.dcfg.json", lambda x: x["FILE_NAMES"][1].__setitem__(1, 7))
    mut("json_unknown_key.dcfg.json", lambda x: proc(x).__setitem__("LIFETIME", 1))
    W("invalid", "dcfg_version.dcfg.json", '{"MAJOR_VERSION": 1}')
    mut("dcfg_version_value.dcfg.json", lambda x: x.__setitem__("MINOR_VERSION", 6))
    mut("dcfg_id_range.dcfg.json", lambda x: x["FILE_NAMES"][1].__setitem__(0, "0x80000000"))
    mut("dcfg_id_duplicate.dcfg.json", lambda x: x["FILE_NAMES"][2].__setitem__(0, 1))
    mut("dcfg_edge_type_name.dcfg.json", lambda x: x["EDGE_TYPES"].append([8, "INTERRUPT"]))
    mut("dcfg_special_node_name.dcfg.json", lambda x: x["SPECIAL_NODES"].append([4, "BEGIN"]))

    def no_types(x):
        del x["EDGE_TYPES"]
    mut("dcfg_table_required.dcfg.json", no_types)

    def no_threads(x):
        del proc(x)["INSTR_COUNT_PER_THREAD"]
    mut("dcfg_thread_counts.dcfg.json", no_threads)
    mut("dcfg_instr_count_sum.dcfg.json", lambda x: proc(x).__setitem__("INSTR_COUNT", 15))

    def instr_sum_overflow(x):
        # a second thread whose count takes the total to exactly 2^64, one past what any
        # INSTR_COUNT holds
        proc(x)["INSTR_COUNT_PER_THREAD"] = [14, 18446744073709551602]
        for r in proc(x)["EDGES"][1:]:
            r[4] = r[4] + [0]
    mut("dcfg_instr_count_sum_overflow.dcfg.json", instr_sum_overflow)
    mut("dcfg_image_range.dcfg.json", lambda x: proc(x)["IMAGES"][1].__setitem__(1, "0xfffffffffffff001"))

    def overlap(x):
        proc(x)["IMAGES"].append([2, "0x400800", 4096])
    mut("dcfg_image_overlap.dcfg.json", overlap)
    mut("dcfg_file_name_ref.dcfg.json", lambda x: image(x).__setitem__("FILE_NAME_ID", 9))
    mut("dcfg_range_in_image.dcfg.json", lambda x: image(x)["SYMBOLS"][1].__setitem__(1, "0xff0"))
    # a symbol starting past the image: blamed on its offset, not its size
    mut("dcfg_range_in_image_start.dcfg.json", lambda x: image(x)["SYMBOLS"].append(["far", "0x2000", 4]))
    mut("dcfg_source_num_instrs.dcfg.json", lambda x: image(x)["SOURCE_DATA"][1].__setitem__(4, 0))
    mut("dcfg_node_special.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"].append([3, "0x40", 4, 1, 0]))
    mut("dcfg_block_geometry.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][1].__setitem__(4, 8))
    mut("dcfg_block_in_image.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][4].__setitem__(1, "0xffe"))
    mut("dcfg_block_count.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][2].__setitem__(5, 5))

    def flow(x):
        proc(x)["EDGES"][3][4] = [4]
        image(x)["BASIC_BLOCKS"][3][5] = 4
        # the extra traversal of block 12 also adds an instruction: keep the totals right
        proc(x)["INSTR_COUNT_PER_THREAD"] = [15]
        proc(x)["INSTR_COUNT"] = 15
    mut("dcfg_flow.dcfg.json", flow)
    mut("dcfg_edge_node.dcfg.json", lambda x: proc(x)["EDGES"][3].__setitem__(2, 99))
    mut("dcfg_edge_type_ref.dcfg.json", lambda x: proc(x)["EDGES"][2].__setitem__(3, 42))
    mut("dcfg_special_edge.dcfg.json", lambda x: proc(x)["EDGES"][1].__setitem__(3, 5))

    def unknown(x):
        proc(x)["EDGES"].append([7, 3, 10, 7, [0]])
    mut("dcfg_unknown_node.dcfg.json", unknown)
    mut("dcfg_count_per_thread.dcfg.json", lambda x: proc(x)["EDGES"][2].__setitem__(4, [1, 0]))
    mut("dcfg_routine_node.dcfg.json", lambda x: image(x)["ROUTINES"][1].__setitem__(1, [13, 99]))

    def cover(x):
        image(x)["ROUTINES"][1][2].pop()
    mut("dcfg_routine_cover.dcfg.json", cover)

    def reach(x):
        # block 13 only reachable through a CALL edge: not an intra-routine path
        proc(x)["EDGES"][5][3] = 3
    mut("dcfg_routine_reach.dcfg.json", reach)
    mut("dcfg_idom.dcfg.json", lambda x: image(x)["ROUTINES"][1][2][4].__setitem__(1, 12))
    mut("dcfg_loop.dcfg.json", lambda x: image(x)["ROUTINES"][1][3][1].__setitem__(1, [13]))
    mut("dcfg_loop_parent.dcfg.json", lambda x: image(x)["ROUTINES"][1][3][1].__setitem__(3, 12))

    def loop_rows(x):
        # after the loop of 11, one defect per row: a head that is no block, the
        # head 11 again, back-edge sources that are not an array, an unknown and a
        # repeated node with a source lacking its edge, no back-edge source, and a
        # row without its head whose parent is not a number
        image(x)["ROUTINES"][1][3] += [
            [99, [12], [11, 12], 0],
            [11, [12], [11, 12], 0],
            [12, "12", [12], 0],
            [13, [13], [13, 99, 13], 0],
            [10, [], [10], 0],
            [12, [99, 11], [11], "eleven"]]
    mut("dcfg_loop_rows.dcfg.json", loop_rows)

    def special_rows(x):
        # SPECIAL_NODES rows: an id out of range, a name that is no string, a
        # short row, and START named twice
        x["SPECIAL_NODES"] += [[0, "X"], [4, 5], [5], [6, "START"]]
    mut("dcfg_special_rows.dcfg.json", special_rows)

    def special_edges(x):
        # an edge out of END, one into START and one through UNKNOWN, each a
        # special node used against its kind
        proc(x)["EDGES"] += [[7, 2, 13, 7, [0]], [8, 12, 1, 7, [0]], [9, 12, 3, 7, [0]]]
    mut("dcfg_special_edges.dcfg.json", special_edges)

    def no_start(x):
        # no START or END node: the ENTRY edge leaves block 13 (instead of 13's EXIT edge)
        x["SPECIAL_NODES"] = [["NODE_ID", "NODE_NAME"], [3, "UNKNOWN"]]
        proc(x)["EDGES"][1] = [1, 13, 10, 1, [1]]
        del proc(x)["EDGES"][6]
    mut("dcfg_special_missing_entry.dcfg.json", no_start)

    def no_end(x):
        # no START or END node: the EXIT edge enters block 10 (instead of the ENTRY edge)
        x["SPECIAL_NODES"] = [["NODE_ID", "NODE_NAME"], [3, "UNKNOWN"]]
        proc(x)["EDGES"][6] = [6, 13, 10, 2, [1]]
        del proc(x)["EDGES"][1]
    mut("dcfg_special_missing_exit.dcfg.json", no_end)

    def edge_ids(x):
        # edge ids 0 and 2^31 and edge 3 twice
        proc(x)["EDGES"] += [[0, 12, 13, 7, [0]], [0x80000000, 12, 13, 7, [0]], [3, 12, 13, 7, [0]]]
    mut("dcfg_ids_of_edges.dcfg.json", edge_ids)

    def block_cells(x):
        # blocks of size 0, of more instructions than bytes, whose last
        # instruction starts past the block, and one whose id is a special node
        image(x)["BASIC_BLOCKS"] += [[20, "0x40", 0, 1, 0, 0], [21, "0x48", 2, 3, 0, 0],
                                     [22, "0x50", 4, 2, 4, 0], [2, "0x58", 4, 1, 0, 0]]
    mut("dcfg_block_cells.dcfg.json", block_cells)
    mut("dcfg_thread_counts_empty.dcfg.json", lambda x: proc(x).__setitem__("INSTR_COUNT_PER_THREAD", []))
    mut("dcfg_thread_counts_type.dcfg.json", lambda x: proc(x).__setitem__("INSTR_COUNT_PER_THREAD", 14))
    mut("dcfg_edges_type.dcfg.json", lambda x: proc(x).__setitem__("EDGES", {}))
    mut("dcfg_edge_types_missing.dcfg.json", lambda x: x.pop("EDGE_TYPES"))
    mut("dcfg_process_data_type.dcfg.json", lambda x: x["PROCESSES"][1].__setitem__(1, [1]))
    # Suspicion-level rules (warnings, see specs/dcfg.md), so valid/.
    mut("dcfg_last_instr_length.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][4].__setitem__(2, 20))
    mut("dcfg_block_same_start.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][4].__setitem__(1, "0x20"))
    # 11 moved to 13's offset: the two are not neighbours in the table, so only sorting finds them
    mut("dcfg_block_same_start_apart.dcfg.json", lambda x: image(x)["BASIC_BLOCKS"][2].__setitem__(1, "0x30"))

    def zero_count(x):
        # a block no edge reaches, in an image without routines, recorded with COUNT 0
        proc(x)["IMAGES"].append([2, "0x500000", 4096, {
            "FILE_NAME_ID": 1,
            "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],
                             [14, "0x0", 4, 1, 0, 0]]}])
    mut("dcfg_block_zero_count.dcfg.json", zero_count)

    def instr_sum(x):
        proc(x)["INSTR_COUNT_PER_THREAD"] = [15]
        proc(x)["INSTR_COUNT"] = 15
    mut("dcfg_thread_instr_sum.dcfg.json", instr_sum)

    def duplicate(x):
        # 11 -> 12 split over two edges of the same type: counts and flow unchanged
        proc(x)["EDGES"][3][4] = [2]
        proc(x)["EDGES"].append([7, 11, 12, 6, [1]])
    mut("dcfg_edge_duplicate.dcfg.json", duplicate)

    def rep_edge(x):
        x["EDGE_TYPES"].append([8, "REP"])
        proc(x)["EDGES"][4][3] = 8
    mut("dcfg_rep_edge.dcfg.json", rep_edge)
    # a second, never-taken 11 -> 13 edge of another type: dominators unchanged
    mut("dcfg_edge_zero_count.dcfg.json", lambda x: proc(x)["EDGES"].append([7, 11, 13, 7, [0]]))
    # 10 has no edge leaving the routine; 13 leaves it by its EXIT edge
    mut("dcfg_routine_exits.dcfg.json", lambda x: image(x)["ROUTINES"][1].__setitem__(1, [10]))
    # 12 listed after the true exit 13: the report points at the second entry
    mut("dcfg_routine_exits_second.dcfg.json", lambda x: image(x)["ROUTINES"][1].__setitem__(1, [13, 12]))

    def second_image(x):
        # a library whose routine 20 -> 21 is called from 11: routines of two images,
        # numbered across the process; only the exit 11 is unlisted (13 stays the exit)
        proc(x)["IMAGES"].append([2, "0x7f0000000000", 4096, {
            "FILE_NAME_ID": 1,
            "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],
                             [20, "0x100", 4, 1, 0, 1], [21, "0x104", 4, 1, 0, 1]],
            "ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],
                         [20, [21], [["NODE_ID", "IDOM_NODE_ID"], [20, 20], [21, 20]]]]}])
        proc(x)["EDGES"] += [[7, 11, 20, 3, [1]], [8, 20, 21, 5, [1]], [9, 21, 11, 4, [1]]]
        image(x)["BASIC_BLOCKS"][2][5] = 5
        proc(x)["INSTR_COUNT_PER_THREAD"] = [18]
        proc(x)["INSTR_COUNT"] = 18
    mut("dcfg_routines_two_images.dcfg.json", second_image)
    # 13 is dominated by the head but does not lead back to it
    mut("dcfg_natural_loop.dcfg.json", lambda x: image(x)["ROUTINES"][1][3][1].__setitem__(2, [11, 12, 13]))
    # the entry 10 listed in the loop of 11, which does not dominate it
    mut("dcfg_natural_loop_dominance.dcfg.json", lambda x: image(x)["ROUTINES"][1][3][1].__setitem__(2, [11, 12, 10]))

    def inner_loop(x):
        # a self-loop on 12 nested in the loop of 11, declared without its parent
        proc(x)["EDGES"].append([7, 12, 12, 6, [1]])
        image(x)["BASIC_BLOCKS"][3][5] = 4
        proc(x)["INSTR_COUNT_PER_THREAD"] = [15]
        proc(x)["INSTR_COUNT"] = 15
        image(x)["ROUTINES"][1][3].append([12, [12], [12], 0])
    mut("dcfg_natural_loop_parent.dcfg.json", inner_loop)
    W("valid", "seed_example.dcfg.json", seed_text(seed_example()))
    W("invalid", "seed_example_excerpt.dcfg.json", seed_text(seed_example_excerpt()))
    mut("dcfg_loop_missing.dcfg.json", lambda x: image(x)["ROUTINES"][1].__setitem__(3, [image(x)["ROUTINES"][1][3][0]]))

    def head_self_loop(x):
        # a second back edge into head 11 (11 -> 11), not among the loop row's sources
        proc(x)["EDGES"].append([7, 11, 11, 6, [1]])
        image(x)["BASIC_BLOCKS"][2][5] = 5
        proc(x)["INSTR_COUNT_PER_THREAD"] = [16]
        proc(x)["INSTR_COUNT"] = 16
    mut("dcfg_loop_missing_source.dcfg.json", head_self_loop)
    type_cases(mut)
    json_number_cases(W)


BLOCK_HEAD = ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"]
EDGE_HEAD = ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]


def json_number_cases(W):
    """Integers in every spelling the reader takes or refuses, and unknown keys
    whose JSON pointers need escaping; their cells keep the values of hello."""
    text = dump(base_dcfg())
    # "0X" and upper- and lower-case hex digits, a decimal string, a 20-digit
    # integer and an 8-digit one in processes of their own
    ok = (text.replace('"0x400000"', '"0X400000"', 1).replace('"INSTR_COUNT": 14', '"INSTR_COUNT": "0xe"', 1)
          .replace('"INSTR_COUNT_PER_THREAD": [14]', '"INSTR_COUNT_PER_THREAD": ["0XE"]', 1)
          .replace('"0X400000",\n            4096,', '"0X400000",\n            "0x1000",', 1)
          .replace('["main", "0x10", 36]', '["main", "0x10", "36"]', 1))
    ok = ok[:ok.rindex("]")] + ',\n    [700, {"INSTR_COUNT": 10000000000000000000}],\n    [701, {"INSTR_COUNT": 12345678}]\n  ]\n}'
    W("valid", "json_integer_spellings.dcfg.json", ok)
    # unknown keys with '/', '~', a control character, non-ASCII and 80 characters
    keys = ['"a/b~c"', '"tab\\there"', '"caf\u00e9"', '"' + "K" * 80 + '"']
    W("valid", "json_unknown_key_spellings.dcfg.json",
      text[:-2] + "".join(",\n  %s: 1" % k for k in keys) + "\n}")
    # the same warnings past --max-errors=1: counted, the first shown
    write("dcfg", "valid", "tl_max_errors_warnings.dcfg.json",
          text[:-2] + "".join(",\n  %s: 1" % k for k in keys) + "\n}", ["--max-errors=1"])

    # processes of their own, INSTR_COUNT spelled: 2^64 and 20 nines,
    # negative, with a fraction or exponent (in the first 8 digits, after them,
    # past 19 characters), "0x" and 17 digits, "0x" and a non-hex character
    # after and before the letters, "0x" alone, a leading zero, empty, true,
    # null and an object
    forms = ['18446744073709551616', '99999999999999999999', '-1', '1.5', '1.2345678901', '123456789.5',
             '123456789e5', '12345678901234567890.5', '12345678901234567890e5',
             '"0x10000000000000000"', '"0xg"', '"0x-1"', '"0x"', '"012"', '""', 'true', 'null', '{}']
    t = text[:text.rindex("]")] + "".join(',\n    [%d, {"INSTR_COUNT": %s}]' % (701 + i, f) for i, f in enumerate(forms))
    W("invalid", "json_integer_malformed.dcfg.json", t + "\n  ]\n}")


def type_cases(mut):
    """One defect per table cell of the wrong JSON type or shape, several per
    case, each in a row or process of its own so the others stay as they are."""
    def tables(x):
        # a FILE_NAME_ID that is no number; EDGE_TYPES rows: short, a name that
        # is no string, an id that is no number, an id twice; PROCESSES rows:
        # short, an id that is no number, out of range, twice; MAJOR_VERSION no number
        x["MAJOR_VERSION"] = "one"
        x["FILE_NAMES"].append(["x", "a.c"])
        x["EDGE_TYPES"] += [[9], [9, 5], ["y", "CALL"], [1, "CALL"]]
        x["PROCESSES"] += [[7], ["p", {}], [0x100000000, {}], [100, {}]]
    mut("dcfg_types_tables.dcfg.json", tables)
    mut("dcfg_types_minor_version.dcfg.json", lambda x: x.__setitem__("MINOR_VERSION", [0]))
    mut("dcfg_types_special_nodes.dcfg.json", lambda x: x.__setitem__("SPECIAL_NODES", {}))

    def image_cells(x):
        # image 1: a FILE_NAME_ID that is no number; SYMBOLS rows: short, offset
        # and size no numbers; SOURCE_DATA rows:
        # short, offset, size and NUM_INSTRS no numbers, more instructions than bytes
        img = image(x)
        img["FILE_NAME_ID"] = "f"
        img["SYMBOLS"] += [["s"], ["o", "x", 4], ["z", "0x10", "y"]]
        img["SOURCE_DATA"] += [[2], [2, 4, "x", 4, 1], [2, 5, "0x10", "y", 1], [2, 6, "0x10", 4, "n"],
                               [2, 7, "0x10", 2, 3]]
    mut("dcfg_types_image_cells.dcfg.json", image_cells)

    def images(x):
        # IMAGES rows, out of load order: short, an id, a LOAD_ADDR that are no
        # numbers, a row that is no array, IMAGE_DATA that is no object, an
        # empty image, BASIC_BLOCKS that is no table
        proc(x)["IMAGES"] += [[3], ["i", "0x700000", 16], [4, "zz", 16], 5, [5, "0x600000", 16, []],
                              [6, "0x500000", 0, {}], [7, "0x500010", 16, {"BASIC_BLOCKS": {}}]]
    mut("dcfg_types_images.dcfg.json", images)

    def blocks(x):
        # an image of its own, never executed: a short row, an id and a COUNT
        # that are no numbers, a LAST_INSTR_OFFSET before the last instruction
        # can start, a single instruction not at offset 0, and block 10 again
        proc(x)["IMAGES"].append([2, "0x500000", 4096, {"BASIC_BLOCKS": [
            BLOCK_HEAD, [30], ["b", "0x60", 4, 1, 0, 0], [31, "0x64", 4, 1, 0, "c"], [32, "0x68", 8, 3, 1, 0],
            [33, "0x70", 4, 1, 2, 0], [10, "0x74", 4, 1, 0, 0]]}])
    mut("dcfg_types_blocks.dcfg.json", blocks)

    def processes(x):
        # processes of their own: a thread count that is no number (no sum to
        # check), an INSTR_COUNT that is no number, no tables at all, and
        # INSTR_COUNT without INSTR_COUNT_PER_THREAD
        x["PROCESSES"] += [[200, {"INSTR_COUNT_PER_THREAD": ["x"], "INSTR_COUNT": 3}],
                           [300, {"INSTR_COUNT_PER_THREAD": [1], "INSTR_COUNT": "n"}],
                           [400, {}], [500, {"INSTR_COUNT": "n"}]]
    mut("dcfg_types_processes.dcfg.json", processes)

    def edges(x):
        # a process of its own with one block: EDGES rows whose source, type,
        # id, COUNT_PER_THREAD and one count are no numbers or arrays, and a
        # row with one count more than threads
        x["PROCESSES"].append([600, {
            "INSTR_COUNT_PER_THREAD": [1],
            "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],
                       [1, "0x400000", 4096, {"BASIC_BLOCKS": [BLOCK_HEAD, [40, "0x0", 4, 1, 0, 1]]}]],
            "EDGES": [EDGE_HEAD, [1, "s", 40, 1, [1]], [2, 1, 40, "t", [1]], ["e", 1, 40, 1, [1]],
                      [3, 1, 40, 1, 1], [4, 1, 40, 1, ["c"]], [5, 1, 40, 1, [1, 1]]]}])
    mut("dcfg_types_edges.dcfg.json", edges)

    def routines(x):
        # an image of its own, no edges, one defect per routine row: an IDOM
        # no number, a short row, an entry that is no block, an entry no
        # number, NODES no table, a short NODES row (24 then in no routine),
        # nodes of another image and no number, LOOPS no table; LOOPS rows
        # short, with a head no number, LOOP_NODE_IDS no array, an entry no number
        n = ["NODE_ID", "IDOM_NODE_ID"]
        loops = ["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS", "PARENT_LOOP_HEAD_NODE_ID"]
        proc(x)["IMAGES"].append([2, "0x500000", 4096, {
            "BASIC_BLOCKS": [BLOCK_HEAD[:5]] + [[20 + i, hex(4 * i), 4, 1, 0] for i in range(8)],
            "ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],
                         [20, [20], [n, [20, "x"]]], [21], [99, [21], [n, [99, 99]]], ["e", [21], [n, [21, 21]]],
                         [22, [22], 5], [23, [23], [n, [23, 23], [24]]],
                         [25, [25], [n, [25, 25], [10, 25], ["n", 25]]], [26, [26], [n, [26, 26]], 5],
                         [27, [27], [n, [27, 27]],
                          [loops, [27], ["h", [27], [27], 0], [27, [27], 7, 0], [27, [27], ["z"], 0]]]]}])
    mut("dcfg_types_routines.dcfg.json", routines)


def seed_example():
    """Section 2.1's "Hello, World" DCFG. Every row the seed prints is kept as printed; the rows
    its "..." elide but its printed rows refer to are completed (see seed_example.dcfg.json.md)."""
    types = {1: "ENTRY", 2: "EXIT", 3: "CALL",  # printed in 2.1
             6: "RETURN", 7: "CALL_BYPASS", 13: "DIRECT_CONDITIONAL_BRANCH", 15: "DIRECT_UNCONDITIONAL_BRANCH",
             16: "INDIRECT_UNCONDITIONAL_BRANCH", 17: "REP", 18: "FALL_THROUGH"}  # numbered as in 2.5
    T = {v: k for k, v in types.items()}
    START, END = 1, 2
    # (edge id, source, target, type, count): 2887, 1357 and 2888 are the seed's own rows.
    edges = [
        (2887, 1741, 1742, T["INDIRECT_UNCONDITIONAL_BRANCH"], 1),
        (1357, 665, 676, T["DIRECT_CONDITIONAL_BRANCH"], 3),
        (2888, 2424, 2069, T["RETURN"], 1),
        # routine 4 (blocks 4, 5, 6 of the seed): 6 loops, calls routine 90 twice, ends the thread
        (1, START, 4, T["ENTRY"], 1), (2, 4, 5, T["FALL_THROUGH"], 1), (3, 5, 6, T["FALL_THROUGH"], 1),
        (4, 6, 6, T["DIRECT_CONDITIONAL_BRANCH"], 7), (5, 6, 90, T["CALL"], 2), (6, 6, END, T["EXIT"], 1),
        # routine 90 (the seed's NODES, IDOMs, exits and loop): first call takes 91 -> 92 -> loop 93/94,
        # second takes 91 -> 95; 90 calls into ld.so (1741... or 3000), 93 and 95 return to 6
        (7, 90, 1741, T["CALL"], 1), (8, 90, 3000, T["CALL"], 1), (9, 90, 91, T["CALL_BYPASS"], 0),
        (10, 91, 92, T["FALL_THROUGH"], 1), (11, 91, 95, T["DIRECT_CONDITIONAL_BRANCH"], 1),
        (12, 92, 93, T["FALL_THROUGH"], 1), (13, 93, 94, T["FALL_THROUGH"], 5),
        (14, 94, 93, T["DIRECT_CONDITIONAL_BRANCH"], 5), (15, 93, 6, T["RETURN"], 1), (16, 95, 6, T["RETURN"], 1),
        # ld.so (image 2, no routines): the seed's 1741 -> 1742, 665 -> 676 (3 times) and 2424 -> 2069
        (17, 1742, 665, T["FALL_THROUGH"], 1), (18, 676, 665, T["DIRECT_UNCONDITIONAL_BRANCH"], 2),
        (19, 676, 2424, T["FALL_THROUGH"], 1), (20, 2069, 91, T["RETURN"], 1), (21, 3000, 91, T["RETURN"], 1),
        (22, 2069, 2069, T["REP"], None),  # the REP count makes the instruction total the seed's 1867502
    ]
    blocks1 = [[4, "0xb28", 9, 2, 4], [5, "0xb31", 5, 2, 4], [6, "0xb40", 12, 2, 6]]  # printed in 2.1
    blocks1 += [[n, hex(0xdd0 + 16 * (n - 90)), 16, 3, 11] for n in range(90, 96)]  # inside main [0xdd0, +128)
    blocks2 = [[665, "0x1000", 16, 3, 11], [676, "0x1010", 16, 3, 11], [1741, "0x2000", 16, 3, 11],
               [1742, "0x2010", 16, 3, 11], [2069, "0x3000", 2, 1, 0], [2424, "0x3010", 16, 3, 11],
               [3000, "0x4000", 16, 3, 11]]
    instrs = {b[0]: b[3] for b in blocks1 + blocks2}
    total = sum(instrs[t] * c for (_, _, t, _, c) in edges if c is not None and t in instrs)
    rep = 1867502 - total  # 2069 holds one instruction
    edges = [(i, a, b, ty, rep if c is None else c) for (i, a, b, ty, c) in edges]
    count = {}
    for (_, _, t, _, c) in edges:
        count[t] = count.get(t, 0) + c
    assert [count[4], count[5], count[6]] == [1, 1, 10]  # the seed's COUNT column
    with_count = lambda bl: [b + [count[b[0]]] for b in bl]
    routines = [
        ["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],
        [90, [90, 93, 95],
         [["NODE_ID", "IDOM_NODE_ID"], [90, 90], [91, 90], [92, 91], [93, 92], [94, 93], [95, 91]],
         [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS", "PARENT_LOOP_HEAD_NODE_ID"],
          [93, [94], [93, 94]]]],
        [4, [6], [["NODE_ID", "IDOM_NODE_ID"], [4, 4], [5, 4], [6, 5]],
         [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS", "PARENT_LOOP_HEAD_NODE_ID"],
          [6, [6], [6]]]],
    ]
    head = ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"]
    return {
        "MAJOR_VERSION": 1,
        "MINOR_VERSION": 0,
        "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "hello-world"], [2, "/lib64/ld-linux-x86-64.so.2"],
                       [8, "hello-world.c"]],
        "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"]] + [[k, types[k]] for k in sorted(types)],
        "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],
        "PROCESSES": [
            ["PROCESS_ID", "PROCESS_DATA"],
            [13723, {
                "INSTR_COUNT_PER_THREAD": [1867502],
                "INSTR_COUNT": 1867502,
                "IMAGES": [
                    ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],
                    [1, "0x400000", 2112944, {
                        "FILE_NAME_ID": 1,
                        "SYMBOLS": [["NAME", "ADDR_OFFSET", "SIZE"], ["main", "0xdd0", 128]],
                        "SOURCE_DATA": [["FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE", "NUM_INSTRS"],
                                        [8, 25, "0xb28", 4, 1], [8, 26, "0xb2c", 5, 1]],
                        "BASIC_BLOCKS": [head] + with_count(blocks1),
                        "ROUTINES": routines}],
                    [2, "0x7ffff7dd9000", 143360, {
                        "FILE_NAME_ID": 2,
                        "BASIC_BLOCKS": [head] + with_count(blocks2)}]],
                "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]] +
                         [[i, a, b, ty, [c]] for (i, a, b, ty, c) in edges],
            }]],
    }


def seed_example_excerpt():
    """The same section 2.1 text with only its typography repaired: no "...", and the "}" the seed
    prints before "EDGES" moved after it (EDGES is a key of PROCESS_DATA, section 2.8)."""
    d = seed_example()
    d["FILE_NAMES"] = d["FILE_NAMES"][:3]
    d["EDGE_TYPES"] = d["EDGE_TYPES"][:4]
    p = proc(d)
    img = p["IMAGES"][1][3]
    img["BASIC_BLOCKS"] = img["BASIC_BLOCKS"][:4]
    img["ROUTINES"] = img["ROUTINES"][:2]
    p["IMAGES"] = p["IMAGES"][:2]
    p["EDGES"] = p["EDGES"][:4]
    return d


def seed_text(d):
    # the seed writes the "/" of file names escaped, which JSON allows
    return dump(d).replace('"/lib64/ld-linux-x86-64.so.2"', '"\\/lib64\\/ld-linux-x86-64.so.2"')


def seed_trace_data():
    """Sections 3.1, 3.3, 3.6 and 3.7 of the seed: processes 22814 and 958, threads 0 and 2, and
    the two printed TRACE_DATA rows (see seed_trace_data.trace.json.md)."""
    chunk_head = ["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]
    return {
        "MAJOR_VERSION": 1,
        "MINOR_VERSION": 0,
        "PROCESSES": [
            ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],
            [22814,
             {"a": "bks2hD7kB+KDk87(6*AB)Aw3ABD9", "b": "KkDk123(42*(25*a))45690D<a>7Fjdkpm",
              "c": "bks2hD7kB+KDk87(9*AB)Aw3ABD9-03n38KDFi",
              "d": "Ks83bn<a>BjS920+KkDk123(2*(6*a))45690D7Fjdkpm"},
             [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"], [1, "", [1]], [842, "", [842]]],
             [["THREAD_ID", "TRACE_DATA"],
              [0, [chunk_head, [0, 1003408, 237298, 1, ""], [1003408, 1483936, 386610, 842, ""]]],
              [2, [chunk_head]]]],
            [958, {}, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]], [["THREAD_ID", "TRACE_DATA"]]]],
    }


def trace_cases():
    W = lambda kind, name, t, args=None: write("dcfg-trace", kind, name, dump(t) if not isinstance(t, str) else t, args)
    pair = ["--pair=../../dcfg/valid/hello.dcfg.json"]
    W("valid", "hello.trace.json", base_trace())
    W("valid", "hello_paired.trace.json", base_trace(), pair)
    # the same edges with a repeat group and two chunks
    t = base_trace()
    tproc(t)[3][1][1] = [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],
                         [0, 2, 2, 1, ""], [2, 12, 8, 3, "(1*I)"]]
    W("valid", "two_chunks.trace.json", t, pair)
    W("valid", "seed_trace_data.trace.json", seed_trace_data())

    def mut(name, f, args=None):
        x = base_trace()
        f(x)
        W("invalid", name, x, args)

    def reorder(x):
        procs = x.pop("PROCESSES")
        x["PROCESSES"] = procs
        minor = x.pop("MINOR_VERSION")
        x["MINOR_VERSION"] = minor
    mut("dtrace_top_order.trace.json", reorder)
    mut("dtrace_version.trace.json", lambda x: x.__setitem__("MAJOR_VERSION", 0))

    def cols(x):
        x["PROCESSES"][0] = ["PROCESS_ID", "TRANSITION_TABLE", "STRING_DICTIONARY", "THREAD_DATA"]
        p = tproc(x)
        p[1], p[2] = p[2], p[1]
    mut("dtrace_column_order.trace.json", cols)
    mut("dtrace_id_duplicate.trace.json", lambda x: x["PROCESSES"].append(copy.deepcopy(tproc(x))))
    mut("dtrace_dict_key.trace.json", lambda x: tproc(x)[1].__setitem__("a_b", "A"))
    mut("dtrace_dict_cycle.trace.json", lambda x: tproc(x)[1].__setitem__("c", "A<c>"))
    mut("dtrace_code.trace.json", lambda x: tproc(x)[2][2].__setitem__(1, "0x"))
    mut("dtrace_next_ids.trace.json", lambda x: tproc(x)[2][4].__setitem__(2, []))
    mut("dtrace_code_duplicate.trace.json", lambda x: tproc(x)[2].append([2, "00", [3]]))
    mut("dtrace_code_prefix.trace.json", lambda x: tproc(x)[2].append([2, "11", [3]]))
    mut("dtrace_seq_syntax.trace.json", lambda x: chunk(x).__setitem__(4, "E(2A)"))
    mut("dtrace_repeat_count.trace.json", lambda x: chunk(x).__setitem__(4, "E(99999999999999999999*A)"))
    mut("dtrace_repeat_zero.trace.json", lambda x: chunk(x).__setitem__(4, "E(0*A)"))
    mut("dtrace_nesting.trace.json", lambda x: chunk(x).__setitem__(4, "(1*" * 5000 + "E" + ")" * 5000))
    mut("dtrace_dict_ref.trace.json", lambda x: chunk(x).__setitem__(4, "<zz>"))

    def table_cells(x):
        # transition rows whose code is no string, whose next ids are no array,
        # and whose next id is out of range
        tproc(x)[2] += [[6, 5, [6]], [7, "", 3], [8, "", [0]]]
    mut("dtrace_table_cells.trace.json", table_cells)

    def thread_cells(x):
        # thread 0 twice and a thread id that is no number; a chunk whose
        # first edge id is 0 (its sequence, no string, is not read then)
        rows = tproc(x)[3]
        rows += [copy.deepcopy(rows[1]), ["x", copy.deepcopy(rows[1][1])]]
        rows[1][1].append([14, 0, 1, 0, 5])
    mut("dtrace_thread_cells.trace.json", thread_cells)

    def order(x):
        tproc(x)[3][1][1].append([10, 0, 0, 0, ""])
    mut("dtrace_chunk_order.trace.json", order)
    mut("dtrace_decode.trace.json", lambda x: chunk(x).__setitem__(2, 11))
    # a bomb: 10^18-fold repeats, the edges come first; rejected from lengths alone
    mut("dtrace_excess_bits.trace.json", lambda x: chunk(x).__setitem__(4, "E(1000000000000000000*(1000000000000000000*AAAA))"))
    mut("dtrace_pad_bits.trace.json", lambda x: chunk(x).__setitem__(4, "F"))
    def overshoot(x):
        tproc(x)[2][6][2] = [5, 6]
        chunk(x)[2] = 9
    mut("dtrace_group_overshoot.trace.json", overshoot)
    write("dcfg-trace", "invalid", "pair_dcfg.trace.json", dump(base_trace()), ["--pair=../../dcfg/invalid/dcfg_block_in_image.dcfg.json"])  # an unreadable pair is exit 2, not a finding
    mut("pair_process.trace.json", lambda x: tproc(x).__setitem__(0, 101), pair)
    mut("pair_thread.trace.json", lambda x: tproc(x)[3][1].__setitem__(0, 1), pair)
    mut("pair_edge.trace.json", lambda x: tproc(x)[2].append([9, "", [10]]), pair)
    mut("pair_connect.trace.json", lambda x: tproc(x)[2][1].__setitem__(2, [3]), pair)
    mut("pair_instr_count.trace.json", lambda x: chunk(x).__setitem__(1, 13), pair)
    mut("pair_thread_instr.trace.json", lambda x: chunk(x).__setitem__(0, 1), pair)
    head = ["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]

    def chunks(*rows):
        return lambda x: tproc(x)[3][1].__setitem__(1, [head] + list(rows))
    # the loop edge 3 taken 3 times in the first chunk and once more in the second: the DCFG says 3
    mut("pair_edge_count.trace.json", chunks([0, 11, 8, 1, "A"], [11, 2, 1, 3, ""]), pair)
    # the whole thread (0 to 14 instructions) without the ENTRY edge, which the DCFG counts once
    mut("pair_edge_count_short.trace.json", chunks([0, 14, 9, 2, "E"]), pair)
    # the ENTRY edge opening a chunk at PRECEDING_INSTR_COUNT 3
    mut("pair_entry_exit.trace.json", chunks([0, 2, 1, 2, ""], [3, 0, 1, 1, ""]), pair)
    # a chunk whose PRECEDING_INSTR_COUNT + INSTR_COUNT passes 2^64
    mut("pair_thread_instr_overflow.trace.json", chunks([0, 14, 10, 1, "<b>"], [18446744073709551615, 2, 0, 0, ""]), pair)
    # an empty chunk that claims 3 instructions past the thread's 14
    mut("pair_thread_instr_empty.trace.json", chunks([0, 14, 10, 1, "<b>"], [14, 3, 0, 0, ""]), pair)
    # a transition from edge 6 (the DCFG's) to edge 10 (none of it)
    mut("pair_edge_next.trace.json", lambda x: tproc(x)[2].append([6, "", [10]]), pair)
    # a pair with a repeated key is refused like any pair with an error (read silently)
    W("invalid", "pair_dcfg_duplicate_key.trace.json", base_trace(), ["--pair=../../dcfg/invalid/json_duplicate_key.dcfg.json"])
    # a pair with only warnings (an unknown key) pairs
    W("valid", "hello_paired_warnings.trace.json", base_trace(), ["--pair=../../dcfg/valid/json_unknown_key.dcfg.json"])
    trace_type_cases(mut, W)


def trace_type_cases(mut, W):
    """Cells of the wrong JSON type or shape in DCFG-trace tables, each in a
    row, thread or process of its own."""
    head = ["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]

    def tables(x):
        # transition rows: short, a code of 33 characters, an edge id past
        # 2^31 - 1; threads: TRACE_DATA
        # no table, a short chunk row, a PRECEDING_INSTR_COUNT no number, an
        # EDGE_ID_SEQUENCE no string, repeat groups without a count and cut
        # short, a short thread row; processes: short, an id no number,
        # STRING_DICTIONARY no object and TRANSITION_TABLE no table
        tproc(x)[2] += [[9], [6, "0" * 33, [6]], [0x80000000, "", [6]]]
        tproc(x)[3] += [[1, {}], [2, [head, [0]]], [3, [head, ["x", 14, 10, 1, "<b>"]]],
                        [4, [head, [0, 14, 10, 1, 5]]], [5, [head, [0, 14, 10, 1, "(*A)"]]],
                        [6, [head, [0, 14, 10, 1, "(12"]]], [7]]
        x["PROCESSES"] += [[7], ["p", {}, [], []], [101, [], {}, [["THREAD_ID", "TRACE_DATA"]]]]
    mut("dtrace_types_tables.trace.json", tables)
    # dictionary keys: empty and escaped; a value that is no string
    W("invalid", "dtrace_types_dict.trace.json",
      dump(base_trace()).replace('"b": "<a>"', '"b": "<a>",\n        "": "A",\n        "\\u0063": "A",\n'
                                 '        "d": 5', 1))

    def sequences(x):
        # a dictionary whose "e" names no key, whose "f" holds "g" (walked
        # before its own turn) twice, and whose "i" holds itself; threads of
        # one chunk: ')' closing nothing, a key not closed by '>', a group
        # never closed, and the cyclic "i"
        tproc(x)[1].update({"e": "<zz>", "f": "<g><g>", "g": "A", "i": "A<i>"})
        tproc(x)[3] += [[1, [head, [0, 14, 10, 1, "E)"]]], [2, [head, [0, 14, 10, 1, "<a!"]]],
                        [3, [head, [0, 14, 10, 1, "(2*A"]]], [4, [head, [0, 14, 10, 1, "<i>"]]]]
    mut("dtrace_types_sequences.trace.json", sequences)
    # an escape in a sequence, even of a character it may hold, is refused
    W("invalid", "dtrace_types_sequence.trace.json", dump(base_trace()).replace('"<b>"', '"\\u003cb>"', 1))


def generated_cases():
    """DCFG + DCFG-trace pairs from the random program model (gen_program.py):
    seed, routines, images, threads, edge budget, mean chunk length, more
    options (wide dispatch: an interpreter loop around a 64-way switch chosen
    uniformly, a 256-way one chosen with skewed weights)."""
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_program.py")
    for name, seed, routines, images, threads, budget, chunk, more in [
            ("gen_program_s1", 1, 40, 2, 2, 20000, 4000, []),
            ("gen_program_s5", 5, 35, 2, 3, 15000, 1500, []),
            ("gen_program_s12", 12, 84, 1, 1, 36000, 3600, []),
            ("gen_program_dispatch64", 3, 6, 1, 1, 3000, 1500, ["--dispatch", "64"]),
            ("gen_program_dispatch256_skew", 3, 6, 1, 1, 3000, 1500,
             ["--dispatch", "256", "--dispatch-skew", "--dispatch-trips", "1200"])]:
        dcfg = os.path.join(ROOT, "dcfg", "valid", name + ".dcfg.json")
        trace = os.path.join(ROOT, "dcfg-trace", "valid", name + ".trace.json")
        subprocess.run([sys.executable, gen, "--seed", str(seed), "--routines", str(routines), "--images", str(images),
                        "--threads", str(threads), "--budget", str(budget), "--chunk", str(chunk)] + more + [dcfg, trace],
                       check=True, stderr=subprocess.DEVNULL)
        with open(trace + ".args", "w") as f:
            f.write("--pair=../../dcfg/valid/%s.dcfg.json\n" % name)


if __name__ == "__main__":
    dcfg_cases()
    trace_cases()
    generated_cases()
