#! /usr/bin/env atf-sh
# tracelint dump on a DCFG-trace: each thread's decoded edge sequence, with
# repeat groups expanded edge by edge and a bound on the edges of a thread.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TRACELINT="$BUILDDIR/tracelint"

# A process whose codes are one bit each from edges 1 and 2: bit 0 takes
# edge 1, bit 1 edge 2, so a character's six bits are six edges, read off
# by hand. make_trace FILE EDGE_COUNT SEQUENCE (the dictionary holds q = "Q").
make_trace() {
	cat > "$1" <<END
{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [
 ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],
 [7, {"q": "Q"}, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],
   [1, "0", [1]], [1, "1", [2]], [2, "0", [1]], [2, "1", [2]]],
  [["THREAD_ID", "TRACE_DATA"],
   [3, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],
        [0, 10, $2, 1, "$3"]]]]]]}
END
}

# The edge ids of the edges and edge-run lines, one a line, in order.
edges() {
	grep -E '"kind":"(edges|edge-run)"' "$1" |
	sed -e 's/.*"edges":\[\(.*\)\]}$/L \1/' -e 's/.*"edge":\([0-9]*\),"count":\([0-9]*\)}$/R \1 \2/' |
	awk '$1 == "L" { n = split($2, a, ","); for (i = 1; i <= n; i++) print a[i] }
	     $1 == "R" { for (i = 0; i < $3; i++) print $2 }'
}

atf_test_case repeat_group_expanded
repeat_group_expanded_head() {
	atf_set descr "nested repeat groups and dictionary references dump as the hand-expanded edge sequence"
}
repeat_group_expanded_body() {
	# FIRST_EDGE_ID 1, then Q (010000) Q A (000000), twice: 1 + 36 edges
	make_trace rep.json 37 '(2*(2*<q>)A)'
	make_trace lit.json 37 'QQAQQA'
	{
		echo 1
		for twice in 1 2; do
			for q in 1 2; do printf '1\n2\n1\n1\n1\n1\n'; done
			printf '1\n1\n1\n1\n1\n1\n'
		done
	} > want
	atf_check -o save:rep.out -e ignore "$TRACELINT" dump rep.json
	atf_check -o save:lit.out -e ignore "$TRACELINT" dump lit.json
	edges rep.out > got
	atf_check -o file:want cat got
	# the literal spelling dumps the same lines
	grep '"kind":"edges' rep.out > rep.edges
	grep '"kind":"edges' lit.out > lit.edges
	atf_check cmp rep.edges lit.edges
	# the thread's closing line says it is complete
	atf_check -o inline:'{"kind":"edges-end","process":7,"thread":3,"edges":37,"edge-count":37,"complete":true}\n' \
		grep '"kind":"edges-end"' rep.out
}

atf_test_case runs_and_lines
runs_and_lines_head() {
	atf_set descr "a run of one edge becomes an edge-run line between edges lines, at the right indexes"
}
runs_and_lines_body() {
	# 1, Q (010000), A A A (18 zeros), Q: edges 1 1 2, 23 times 1, 2 1 1 1 1
	make_trace runs.json 31 'QAAAQ'
	{ printf '1\n1\n2\n'; seq 23 | sed 's/.*/1/'; printf '2\n1\n1\n1\n1\n'; } > want
	atf_check -o save:out -e ignore "$TRACELINT" dump runs.json
	edges out > got
	atf_check -o file:want cat got
	atf_check -o inline:'{"kind":"edges","process":7,"thread":3,"index":0,"edges":[1,1,2]}
{"kind":"edge-run","process":7,"thread":3,"index":3,"edge":1,"count":23}
{"kind":"edges","process":7,"thread":3,"index":26,"edges":[2,1,1,1,1]}
' grep -E '"kind":"(edges|edge-run)"' out
}

atf_test_case bound_on_huge_repeat
bound_on_huge_repeat_head() {
	atf_set descr "a (1000000000000*A) group stops at --limit and at the default bound, quickly, and says so"
	atf_set timeout 60
}
bound_on_huge_repeat_body() {
	make_trace big.json 6000000000001 '(1000000000000*A)'
	atf_check -o save:out -e save:err "$TRACELINT" dump --limit=1000 big.json
	edges out > got
	atf_check -o inline:"1000\n" sh -c "grep -c '^1\$' got"
	atf_check -o inline:"1000\n" sh -c "wc -l < got"
	# one repeated edge: one line
	atf_check -o inline:'{"kind":"edge-run","process":7,"thread":3,"index":0,"edge":1,"count":1000}\n' \
		grep '"kind":"edge-run"' out
	atf_check -o inline:'{"kind":"edges-end","process":7,"thread":3,"edges":1000,"edge-count":6000000000001,"complete":false,"chunk":0,"stopped":"limit"}\n' \
		grep '"kind":"edges-end"' out
	atf_check -o match:"stopped at the bound of 1000 \(--limit\)" cat err
	# without --limit: the documented default of 1000000 edges a thread
	start=$(date +%s)
	atf_check -o save:out2 -e save:err2 "$TRACELINT" dump big.json
	elapsed=$(($(date +%s) - start))
	edges out2 > got2
	atf_check -o inline:"1000000\n" sh -c "wc -l < got2"
	atf_check -o match:'"edges":1000000,.*"stopped":"limit"' grep '"kind":"edges-end"' out2
	[ "$elapsed" -lt 30 ] || atf_fail "1000000 edges took ${elapsed} s"
}

atf_test_case undecodable_chunk
undecodable_chunk_head() {
	atf_set descr "a chunk whose bits match no code: the edges decoded before it, the thread marked incomplete, exit 1"
}
undecodable_chunk_body() {
	# edge 5 has no TRANSITION_TABLE row
	make_trace bad.json 3 'A'
	sed -i 's/\[0, 10, 3, 1, "A"\]/[0, 10, 3, 5, "A"]/' bad.json
	atf_check -s exit:1 -o save:out -e match:DTRACE-DECODE "$TRACELINT" dump bad.json
	edges out > got
	atf_check -o inline:"5\n" cat got
	atf_check -o match:'"edges":1,"edge-count":3,"complete":false,"chunk":0,"stopped":"a chunk does not decode to its EDGE_COUNT"' \
		grep '"kind":"edges-end"' out
}

atf_init_test_cases() {
	atf_add_test_case repeat_group_expanded
	atf_add_test_case runs_and_lines
	atf_add_test_case bound_on_huge_repeat
	atf_add_test_case undecodable_chunk
}
