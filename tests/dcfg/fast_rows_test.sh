#! /usr/bin/env atf-sh
# Table rows read from their text (the fast paths of DCFG-trace transition
# tables, validators/dcfg/trace_read.c, and DCFG edges, dcfg_edges.c)
# against the same rows read as nodes (TRACELINT_SLOW_ROWS=1): every output,
# byte for byte, on the corpus, on generated files and on rows spelled every
# way the fast paths leave to the node path.

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
corpus_both_ways_head() { atf_set descr "every DCFG and DCFG-trace of the corpus gives the same output with rows read from their text as from nodes"; }
corpus_both_ways_body() {
	n=0
	for f in "$C"/dcfg-trace/*/*.json "$C"/dcfg-trace/*/*.json.* "$C"/dcfg/*/*.json "$C"/dcfg/*/*.json.*; do
		case $f in *.expected | *.args | *.md) continue ;; esac
		[ -f "$f" ] || continue
		both_ways "$f" > /dev/null
		n=$((n + 1))
	done
	[ $n -ge 150 ] || atf_fail "only $n DCFG and DCFG-trace corpus files"
}

atf_test_case generated_both_ways
generated_both_ways_head() { atf_set descr "a generated DCFG of 3000 routines on 3 images and its trace: the same output both ways, and valid"; }
generated_both_ways_body() {
	python3 "$C/dcfg/gen_large.py" 3000 big.dcfg.json big.trace.json 3 || atf_fail "generator failed"
	for f in big.dcfg.json big.trace.json; do
		both_ways $f > out
		atf_check -o match:"^$f: valid" cat out
		atf_check -o inline:"0\n" tail -n 1 out
	done
	both_ways --pair=big.dcfg.json big.trace.json > out
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

atf_test_case edge_spellings_both_ways
edge_spellings_both_ways_head() { atf_set descr "EDGES rows the fast path leaves to the node path (other spellings, wrong values, wrong shapes, an id seen before) report the same both ways"; }
edge_spellings_both_ways_body() {
	# Rows added at the top of the seed example's EDGES: plain ones (one
	# repeating another's ends and type, reported once the table is read),
	# blanks and line breaks, then one row for each way out of the fast path.
	cat > rows << 'EOF'
          [9001, 4, 5, 18, [1]],
          [9002, 4, 5, 18, [1]],
          [ 9003 ,
            5,6 , 18 , [ 1 ] ] ,
          [9013, 1, 4, 1, [1]],
          [9014, 6, 2, 2, [1]],
          [9001, 5, 6, 18, [1]],
          [9004, 7777, 5, 18, [1]],
          [9005, 4, 5, 99, [1]],
          [9006, 4, 5, 1, [1]],
          [9015, 4, 1, 18, [1]],
          [9007, 4, 5, 18, [1, 2]],
          [9008, 4, 5, 18, []],
          [9009, 4, 5, 18, ["1"]],
          [9016, 4, 5, 18, [-1]],
          [9017, 4, 5, 18, [1e2]],
          [9010, 4, 5, 18, [1], 7],
          [9011, 4, 5, 18],
          [9012.0, 4, 5, 18, [1]],
          ["0x2335", 4, 5, 18, [1]],
          [0, 4, 5, 18, [1]],
          [2147483648, 4, 5, 18, [1]],
          [9018, 4, 5, 18, 1],
EOF
	# the plain rows alone: all from text; the row repeating 9001's ends and
	# type is reported at its own row once the table is read
	head -n 6 rows > plain
	awk 'FNR == NR { rows = rows $0 "\n"; next } { print } /"EDGE_ID", "SOURCE_NODE_ID"/ { printf "%s", rows }' \
		plain "$C/dcfg/valid/seed_example.dcfg.json" > plain.dcfg.json
	both_ways plain.dcfg.json > out
	atf_check -o match:'^plain.dcfg.json:[0-9]+:[0-9]+: warning: expected one edge per .*found edges 9001 and 9002 both from node 4 to node 5.*\[DCFG-EDGE-DUPLICATE\]' cat out
	# every row
	awk 'FNR == NR { rows = rows $0 "\n"; next } { print } /"EDGE_ID", "SOURCE_NODE_ID"/ { printf "%s", rows }' \
		rows "$C/dcfg/valid/seed_example.dcfg.json" > e.dcfg.json
	both_ways e.dcfg.json > out
	for rule in DCFG-ID-DUPLICATE DCFG-EDGE-NODE DCFG-EDGE-TYPE-REF DCFG-SPECIAL-EDGE DCFG-COUNT-PER-THREAD \
		DCFG-ID-RANGE JSON-TABLE JSON-TABLE-COLUMN JSON-INTEGER JSON-TYPE JSON-DECIMAL-STRING; do
		grep -q "\[$rule\]" out || { cat out; atf_fail "no $rule diagnostic"; }
	done
	atf_check -o inline:"1\n" tail -n 1 out
}

atf_test_case block_spellings_both_ways
block_spellings_both_ways_head() { atf_set descr "BASIC_BLOCKS rows the fast path leaves to the node path (other spellings, wrong values, wrong shapes, an id seen before) report the same both ways"; }
block_spellings_both_ways_body() {
	# Rows added at the top of the seed example's first BASIC_BLOCKS: plain
	# ones (hex or decimal, COUNT or none, blanks and line breaks), then one
	# row for each way out of the fast path.
	cat > rows << 'EOF'
                [7001, "0xc00", 9, 2, 4, 1],
                [7002, 3328, 9, 2, 4],
                [ 7003 , "0XC10" ,
                  9,2,4,1 ] ,
                [7016, "0xce0", 9, 2, 4, "0x1"],
                [7001, "0xc20", 9, 2, 4, 1],
                [1, "0xc30", 9, 2, 4, 1],
                [7004, "0xc40", 0, 1, 0, 1],
                [7005, "0xc50", 9, 10, 4, 1],
                [7006, "0xc60", 9, 2, 9, 1],
                [7007, "0xc70", 9, 1, 3, 1],
                [7008, "0xffffffff", 9, 2, 4, 1],
                [7009, "0xc80", 40, 2, 4, 1],
                [7010, "0x", 9, 2, 4, 1],
                [7011, "0xc90", "9", 2, 4, 1],
                [7012, "0x00000000000000c90", 9, 2, 4, 1],
                [0, "0xca0", 9, 2, 4, 1],
                [7013, "0xcb0", 9, 2, 4, 1, 5],
                [7014, "0xcc0", 9, 2],
                [7015, "0xcd0", 9.0, 2, 4, 1],
                [7017, "0x\u0063f0", 9, 2, 4, 1],
                [7018, "0xd00", 9, 2, 4, -1],
EOF
	awk 'FNR == NR { rows = rows $0 "\n"; next } { print } /"NODE_ID", "ADDR_OFFSET"/ && !done { printf "%s", rows; done = 1 }' \
		rows "$C/dcfg/valid/seed_example.dcfg.json" > b.dcfg.json
	both_ways b.dcfg.json > out
	for rule in DCFG-ID-DUPLICATE DCFG-NODE-SPECIAL DCFG-BLOCK-GEOMETRY DCFG-BLOCK-IN-IMAGE DCFG-LAST-INSTR-LENGTH \
		DCFG-ID-RANGE JSON-TABLE JSON-TABLE-COLUMN JSON-INTEGER JSON-DECIMAL-STRING; do
		grep -q "\[$rule\]" out || { cat out; atf_fail "no $rule diagnostic"; }
	done
	atf_check -o inline:"1\n" tail -n 1 out
	# a block read from text is reported on later at its own row
	atf_check -o match:'^b.dcfg.json:[0-9]+:[0-9]+: .*block 7001 .*BASIC_BLOCKS/1' cat out
}

atf_init_test_cases() {
	atf_add_test_case corpus_both_ways
	atf_add_test_case generated_both_ways
	atf_add_test_case spellings_both_ways
	atf_add_test_case edge_spellings_both_ways
	atf_add_test_case block_spellings_both_ways
}
