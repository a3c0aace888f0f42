#! /usr/bin/env atf-sh
# A diagnostic about one value of a table row points at that value (its
# line:column and JSON Pointer), also when the rule is checked after the row
# was read and forgotten; rules about a whole row keep the row's location.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# Writes "LINE:COL POINTER RULE" for each diagnostic of a run of tracelint
# to ./out; the run must end with the given exit status.
locations() {
	status=$1
	shift
	atf_check -s exit:"$status" -o save:out.json "$TL" --output=json "$@"
	jq -r '.files[0].diagnostics[] | "\(.line):\(.column) \(.pointer) \(.rule)"' out.json > out ||
		atf_fail "jq could not read the output"
}

atf_test_case special_edge_at_the_node_id
special_edge_at_the_node_id_head() {
	atf_set descr "DCFG-SPECIAL-EDGE points at the node id, not at its edge's row, and the caret lands on it"
	atf_set require.progs "jq"
}
special_edge_at_the_node_id_body() {
	locations 1 "$C/dcfg/invalid/dcfg_special_edge.dcfg.json"
	# the row's '[' is on line 83; the source node (START) two lines below
	atf_check -o inline:'85:13 /PROCESSES/1/1/EDGES/1/1 DCFG-SPECIAL-EDGE\n' cat out
	atf_check -s exit:1 -o save:text "$TL" --context "$C/dcfg/invalid/dcfg_special_edge.dcfg.json"
	atf_check -o match:'^  85 \|             1,$' cat text
	atf_check -o match:'^     \|             \^$' cat text
}

# hello.dcfg.json with BASIC_BLOCKS's COUNT column moved first and an unknown
# column inserted (header positions differ from the reader's column order),
# block 11's COUNT one too high, and edge 3 led into START; one value a line.
write_moved_columns() {
	python3 - "$C/dcfg/valid/hello.dcfg.json" moved.dcfg.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["PROCESSES"][1][1]
bb = p["IMAGES"][1][3]["BASIC_BLOCKS"]
ci = bb[0].index("COUNT")
def move(row):
    row = list(row)
    row.insert(0, row.pop(ci))
    row.insert(3, "x")
    return row
bb[:] = [move(r) for r in bb]
bb[0][3] = "NOTE"
bb[2][0] += 1
p["EDGES"][3][2] = 1
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
}

atf_test_case values_after_their_table
values_after_their_table_head() {
	atf_set descr "rules checked once a table is read point at the value in its row, by its header position"
	atf_set require.progs "jq python3"
}
values_after_their_table_body() {
	write_moved_columns || atf_fail "could not write the input"
	locations 1 moved.dcfg.json
	# COUNT is column 0 of this BASIC_BLOCKS; the edge's target is column 2
	atf_check -o match:'^143:10 /PROCESSES/1/1/IMAGES/1/3/BASIC_BLOCKS/2/0 DCFG-BLOCK-COUNT$' cat out
	atf_check -o match:'^257:7 /PROCESSES/1/1/EDGES/3/2 DCFG-SPECIAL-EDGE$' cat out
	atf_check -o match:'^79:6 /PROCESSES/1/1/INSTR_COUNT_PER_THREAD/0 DCFG-THREAD-INSTR-SUM$' cat out
	atf_check -o inline:'         5,\n' sed -n 143p moved.dcfg.json
	locations 0 "$C/dcfg/valid/dcfg_block_count.dcfg.json"
	atf_check -o inline:'51:39 /PROCESSES/1/1/IMAGES/1/3/BASIC_BLOCKS/2/5 DCFG-BLOCK-COUNT\n' cat out
	locations 0 "$C/dcfg/valid/dcfg_block_zero_count.dcfg.json"
	atf_check -o inline:'88:38 /PROCESSES/1/1/IMAGES/2/3/BASIC_BLOCKS/1/5 DCFG-BLOCK-ZERO-COUNT\n' cat out
	locations 0 "$C/dcfg/valid/dcfg_rep_edge.dcfg.json"
	atf_check -o inline:'108:13 /PROCESSES/1/1/EDGES/4/2 DCFG-REP-EDGE\n' cat out
}

atf_test_case entries_of_a_cell
entries_of_a_cell_head() {
	atf_set descr "an entry of a list in a forgotten row: the exit in EXIT_NODE_IDS"
	atf_set require.progs "jq"
}
entries_of_a_cell_body() {
	locations 0 "$C/dcfg/valid/dcfg_routine_exits_second.dcfg.json"
	atf_check -o inline:'59:24 /PROCESSES/1/1/IMAGES/1/3/ROUTINES/1/1/1 DCFG-ROUTINE-EXITS\n' cat out
}

atf_test_case trace_values
trace_values_head() {
	atf_set descr "DCFG-trace: a repeated code at TRANSITION_CODE, a chunk's sum at INSTR_COUNT"
	atf_set require.progs "jq"
}
trace_values_body() {
	locations 1 "$C/dcfg-trace/invalid/dtrace_code_duplicate.trace.json"
	atf_check -o inline:'51:11 /PROCESSES/1/2/8/1 DTRACE-CODE-DUPLICATE\n' cat out
	locations 1 --pair="$C/dcfg/valid/hello.dcfg.json" \
		"$C/dcfg-trace/invalid/pair_thread_instr.trace.json"
	atf_check -o match:'^56:17 /PROCESSES/1/3/1/1/1/1 PAIR-THREAD-INSTR$' cat out
}

atf_test_case whole_rows_keep_the_row
whole_rows_keep_the_row_head() {
	atf_set descr "a rule about a whole row (a repeated edge) points at the row"
	atf_set require.progs "jq"
}
whole_rows_keep_the_row_body() {
	locations 0 "$C/dcfg/valid/dcfg_edge_duplicate.dcfg.json"
	atf_check -o inline:'125:11 /PROCESSES/1/1/EDGES/7 DCFG-EDGE-DUPLICATE\n' cat out
}

atf_init_test_cases() {
	atf_add_test_case special_edge_at_the_node_id
	atf_add_test_case values_after_their_table
	atf_add_test_case entries_of_a_cell
	atf_add_test_case trace_values
	atf_add_test_case whole_rows_keep_the_row
}
