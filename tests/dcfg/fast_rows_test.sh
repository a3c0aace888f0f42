#! /usr/bin/env atf-sh
# Transition-table rows read from their text (the fast path of
# validators/dcfg/trace_read.c) against the same rows read as nodes
# (TRACELINT_SLOW_ROWS=1): every output, byte for byte, on the corpus, on a
# generated trace and on rows spelled every way the fast path leaves to the
# node path.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# Runs tracelint on FILE in text and JSON output both ways; fails on any
# difference. Prints the text output of the fast path.
both_ways() {
	for out in text json; do
		"$TL" --output=$out --max-errors=0 "$@" > fast.$out 2>&1
		echo $? >> fast.$out
		TRACELINT_SLOW_ROWS=1 "$TL" --output=$out --max-errors=0 "$@" > slow.$out 2>&1
		echo $? >> slow.$out
		cmp -s fast.$out slow.$out || {
			diff slow.$out fast.$out | head -20
			atf_fail "rows from text and rows from nodes differ on $*"
		}
	done
	cat fast.text
}

atf_test_case corpus_both_ways
corpus_both_ways_head() { atf_set descr "every DCFG-trace of the corpus gives the same output with rows read from their text as from nodes"; }
corpus_both_ways_body() {
	n=0
	for f in "$C"/dcfg-trace/*/*.json "$C"/dcfg-trace/*/*.json.*; do
		case $f in *.expected | *.args | *.md) continue ;; esac
		[ -f "$f" ] || continue
		both_ways "$f" > /dev/null
		n=$((n + 1))
	done
	[ $n -ge 50 ] || atf_fail "only $n DCFG-trace corpus files"
}

atf_test_case generated_both_ways
generated_both_ways_head() { atf_set descr "a generated trace of 3000 routines: the same output both ways, and valid"; }
generated_both_ways_body() {
	python3 "$C/dcfg/gen_large.py" 3000 big.dcfg.json big.trace.json || atf_fail "generator failed"
	both_ways big.trace.json > out
	atf_check -o match:'^big.trace.json: valid' cat out
	atf_check -o inline:"0\n" tail -n 1 out
}

atf_test_case spellings_both_ways
spellings_both_ways_head() { atf_set descr "rows the fast path leaves to the node path (other spellings, wrong values, wrong shapes) report the same both ways"; }
spellings_both_ways_body() {
	# Row by row: plain (taken from text), blanks and line breaks everywhere
	# (taken), then one row for each way out of the fast path.
	cat > t.trace.json << 'EOF'
{ "MAJOR_VERSION" : 1, "MINOR_VERSION" : 0,
  "PROCESSES" : [ [ "PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA" ],
    [ 7, {},
      [ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
        [ 1, "", [ 2 ] ],
        [
          2 ,	"0"
          , [3,
          4 ] ] ,
        [ 2, "1", [ 5 ] ],
        [ 3, "", [ 1.0e1 ] ],
        [ 4, "", [ 10 ] ],
        [ 5, "\u0030", [ 6 ] ],
        [ 5, "1", [ 7 ] ],
        [ 6, "012", [ 7 ] ],
        [ 7, "000000000000000000000000000000000", [ 8 ] ],
        [ 8, "", [ ] ],
        [ 9, "", [ 0 ] ],
        [ 10, "", [ 2147483648 ] ],
        [ 11, "", [ 12345678901234567890 ] ],
        [ -12, "", [ 1 ] ],
        [ 13, "" ],
        [ 14, "", [ 1 ], 4 ],
        [ 15, 0, [ 1 ] ],
        [ 16, "", 1 ],
        [ 17, "", [ "1" ] ],
        [ 18, "", [ 1, 1e0 ] ],
        [ 19.5, "", [ 1 ] ],
        "row",
        [ 20, "", [ 21 ] ]
      ],
      [ [ "THREAD_ID", "TRACE_DATA" ],
        [ 0, [ [ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE" ],
               [ 0, 4, 2, 1, "A" ] ] ] ] ] ] }
EOF
	both_ways t.trace.json > out
	# the node path spoke: these rules fire on the rows it was left
	for rule in DTRACE-CODE DTRACE-NEXT-IDS JSON-TABLE-COLUMN JSON-TABLE; do
		grep -q "\[$rule\]" out || { cat out; atf_fail "no $rule diagnostic"; }
	done
	atf_check -o inline:"1\n" tail -n 1 out
	# the header in another order keeps every row on the node path
	sed 's/"CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"/"TRANSITION_CODE", "CURRENT_EDGE_ID", "NEXT_EDGE_IDS"/' \
		t.trace.json > order.trace.json
	both_ways order.trace.json > /dev/null
}

atf_init_test_cases() {
	atf_add_test_case corpus_both_ways
	atf_add_test_case generated_both_ways
	atf_add_test_case spellings_both_ways
}
