#! /usr/bin/env atf-sh
# --explain RULE: the catalog row (statement, severity, format, source,
# catalog file) and an example from the corpus, validated, with its context.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

atf_test_case one_rule_of_each_format
one_rule_of_each_format_head() { atf_set "descr" "a rule of each format: its row, and its corpus example with context"; }
one_rule_of_each_format_body() {
	export TRACELINT_CORPUS="$SRCDIR/corpus"
	atf_check -o save:xray "$TL" --explain XRAY-FDR-PREAMBLE
	atf_check -o match:'^XRAY-FDR-PREAMBLE \(xray, error\)$' -o match:'^  A buffer starts NewBuffer' \
		-o match:'^  Catalog: specs/xray\.md$' -o match:'^  Example, corpus/xray/invalid/preamble\.xray:$' \
		-o match:'^corpus/xray/invalid/preamble\.xray: byte 80 \(record 3\): error: .*\[XRAY-FDR-PREAMBLE\]$' \
		-o match:'^            \^~$' cat xray
	atf_check -o match:'^  Source: ' cat xray
	atf_check -o match:'^corpus/tfile/invalid/block-type\.tf: byte 490 \(record 0\): error: .*\[TFILE-BLOCK-TYPE\]$' \
		"$TL" --explain TFILE-BLOCK-TYPE
	atf_check -o match:'^corpus/dcfg/invalid/dcfg_id_duplicate\.dcfg\.json:7:6: error: ' -o match:'^    \|      \^$' \
		"$TL" --explain DCFG-ID-DUPLICATE
	atf_check -o match:'Example, corpus/dcfg-trace/invalid/pair_instr_count\.trace\.json:' \
		-o match:'\[PAIR-INSTR-COUNT\]$' "$TL" --explain PAIR-INSTR-COUNT
	atf_check -o match:'after-thread-end/exec\.prev_next\.column: byte 544: error: .*\[UMT-U261\]$' \
		"$TL" --explain UMT-U261
	# the statement is the catalog's
	summary=$("$TL" --list-rules -o json XRAY-FDR-PREAMBLE | jq -r '.rules[0].summary')
	atf_check -o ignore grep -Fx "  $summary" xray
}

atf_test_case every_rule_has_an_example
every_rule_has_an_example_head() { atf_set "descr" "every rule of the catalog has a corpus case that gives it"; }
every_rule_has_an_example_body() {
	export TRACELINT_CORPUS="$SRCDIR/corpus"
	"$TL" --explain '*' > all
	rules=$("$TL" --list-rules | wc -l)
	atf_check -o inline:"$rules\n" grep -c '^  Example, ' all
	atf_check -s exit:1 grep -e 'No corpus case' -e 'did not give it' all
	# and it shows the rule's own diagnostic under each example
	atf_check -o inline:"$rules\n" sh -c "awk '/^[A-Z][A-Z0-9-]+ \\(/ { id = \$1 } /^  Example, / { want = id } want && index(\$0, \"[\" want \"]\") { n++; want = \"\" } END { print n }' all"
}

atf_test_case refusals
refusals_head() { atf_set "descr" "an unknown rule is a usage error; no corpus, no example"; }
refusals_body() {
	atf_check -s exit:2 -e match:"--explain: 'NOPE-1' matches no rule" "$TL" --explain NOPE-1
	atf_check -s exit:2 -e match:'--explain needs a rule' "$TL" --explain
	mkdir empty
	atf_check -o match:'No corpus case shows it' env TRACELINT_CORPUS="$PWD/empty" "$TL" --explain XRAY-FDR-PREAMBLE
	atf_check -o match:'the corpus was not found' env TRACELINT_CORPUS="$PWD/missing" "$TL" --explain XRAY-FDR-PREAMBLE
}

atf_init_test_cases() {
	atf_add_test_case one_rule_of_each_format
	atf_add_test_case every_rule_has_an_example
	atf_add_test_case refusals
}
