#! /usr/bin/env atf-sh
# A repeat group whose iterations return to an earlier decoder state only
# after several iterations is decoded by cycle, not edge by edge: a trace
# of a few hundred bytes with 6 * 10^18 edges is checked in well under a
# second (edge by edge it would take centuries), with the result the
# expansion gives.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# ring_trace STATES COUNT BODY EDGE_COUNT: a ring of STATES states with
# one-bit codes ("1": the next state, "0": edge STATES+1, without a row)
# and one chunk "(COUNT*BODY)" from edge 1.
ring_trace() {
	rows= s=1
	while [ "$s" -le "$1" ]; do
		rows="$rows[$s,\"1\",[$(( s % $1 + 1 ))]],[$s,\"0\",[$(( $1 + 1 ))]],"
		s=$((s + 1))
	done
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,"PROCESSES":[["PROCESS_ID","STRING_DICTIONARY","TRANSITION_TABLE","THREAD_DATA"],[1,{},[["CURRENT_EDGE_ID","TRANSITION_CODE","NEXT_EDGE_IDS"],%s],[["THREAD_ID","TRACE_DATA"],[0,[["PRECEDING_INSTR_COUNT","INSTR_COUNT","EDGE_COUNT","FIRST_EDGE_ID","EDGE_ID_SEQUENCE"],[0,0,%s,1,"(%s*%s)"]]]]]]}\n' \
		"${rows%,}" "$4" "$2" "$3"
}

# seconds COMMAND...: runs it, prints the wall time in whole milliseconds to ms.
timed() {
	start=$(date +%s%N)
	"$@"
	rc=$?
	echo $(( ($(date +%s%N) - start) / 1000000 )) > ms
	return $rc
}

atf_test_case cycles_in_bounded_time
cycles_in_bounded_time_head() {
	atf_set "descr" "(N*-) over rings whose state recurs every 2 to 64 iterations, N up to 10^18, in bounded time"
	atf_set timeout 300
}
cycles_in_bounded_time_body() {
	# "-" is six 1 bits: six states on, so a ring of 6L states recurs every L iterations.
	for lap in 2 3 4 7 16 63 64; do
		ring_trace $((6 * lap)) 1000000000000000000 - 6000000000000000001 > t.json
		timed timeout 60 "$TL" --format=dcfg-trace t.json > out 2>&1 ||
			atf_fail "cycle of $lap iterations: exit $rc after $(cat ms) ms: $(cat out)"
		grep -q 'valid (dcfg-trace: 0 errors, 0 warnings;.* 6000000000000000001 edges)' out ||
			atf_fail "cycle of $lap iterations: $(cat out)"
		# Generous for a loaded machine and the sanitizer build; edge by edge
		# (10^8 edges a second) this is 1900 years.
		[ "$(cat ms)" -lt 5000 ] || atf_fail "cycle of $lap iterations took $(cat ms) ms"
	done
	# Edges short and one too many: the diagnostics the expansion gives.
	ring_trace 24 1000000000000 - 6000000000000 > short.json
	atf_check -s exit:0 -o match:'expected the 1 unused trailing bit\(s\) to be 0, found 0x1 .*DTRACE-PAD-BITS' \
		timeout 60 "$TL" --format=dcfg-trace short.json
	ring_trace 24 1000000000000 - 5999999999995 > shorter.json
	atf_check -s exit:1 -o match:'expected at most 5 unused bits after EDGE_COUNT 5999999999995 edges, found 6 of the 6000000000000 bits' \
		timeout 60 "$TL" --format=dcfg-trace shorter.json
	ring_trace 24 1000000000000 - 6000000000002 > long.json
	atf_check -s exit:1 -o match:'expected a TRANSITION_CODE of edge 1 at bit 6000000000000 to decode edge 6000000000002 of 6000000000002, found the sequence exhausted' \
		timeout 60 "$TL" --format=dcfg-trace long.json
}

atf_test_case fuzz_regression_case
fuzz_regression_case_head() {
	atf_set "descr" "the corpus case that timed out the dcfg_trace fuzz target is decoded in bounded time"
	atf_set timeout 120
}
fuzz_regression_case_body() {
	case_file="$SRCDIR/corpus/dcfg-trace/regressions/dcfg_trace-6d23be21"
	timed timeout 60 "$TL" --format=dcfg-trace "$case_file" > out 2>&1 || atf_fail "exit $rc: $(cat out)"
	grep -q 'valid (dcfg-trace: 0 errors' out || atf_fail "$(cat out)"
	[ "$(cat ms)" -lt 5000 ] || atf_fail "took $(cat ms) ms"
	# The regression driver of the fuzz target (what -timeout=5 runs) as well.
	drv="$BUILDDIR/fuzz/regress_dcfg_trace"
	if [ -x "$drv" ]; then
		timed timeout 60 "$drv" "$case_file" > out 2>&1 || atf_fail "fuzz driver: exit $rc: $(cat out)"
		[ "$(cat ms)" -lt 5000 ] || atf_fail "fuzz driver took $(cat ms) ms"
	fi
}

atf_init_test_cases() {
	atf_add_test_case cycles_in_bounded_time
	atf_add_test_case fuzz_regression_case
}
