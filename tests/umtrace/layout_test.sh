#! /usr/bin/env atf-sh
# grammars/umtrace.yaml is the layout the validator follows: read by
# tests/umtrace/layout_check.py alone, it parses every valid corpus trace and generated
# traces of every variant, its sizes and field offsets are the validator's, and a
# broken copy of it is caught.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
LAYOUT="$SRCDIR/grammars/umtrace.yaml"
CHECK="$SRCDIR/tests/umtrace/layout_check.py"

valid_dirs() {
	for d in "$SRCDIR"/corpus/umtrace/valid/*/; do
		echo "${d%/}"
	done
}

atf_test_case corpus_traces_parse
corpus_traces_parse_head() {
	atf_set descr "the layout parses every valid corpus trace directory"
	atf_set require.progs python3
}
corpus_traces_parse_body() {
	n=$(valid_dirs | wc -l)
	[ "$n" -ge 40 ] || atf_fail "only $n valid trace directories found"
	python3 "$CHECK" "$LAYOUT" parse $(valid_dirs) > out 2>&1 || { cat out; atf_fail "layout rejects a valid trace"; }
}

atf_test_case generated_traces_parse
generated_traces_parse_head() {
	atf_set descr "the layout parses umtgen traces of every variant (word size, exec version, -x, -o, abrupt)"
	atf_set require.progs python3
}
generated_traces_parse_body() {
	i=0
	for args in "-s 1" "-s 2 -b 32 -v 0 -a" "-x -s 3 -a -t 9 -n 400" "-o -s 4 -n 300" "-x -o -b 32 -s 5 -n 300"; do
		i=$((i + 1))
		"$BUILDDIR/umtgen" gen "t$i" $args || atf_fail "umtgen gen $args failed"
	done
	python3 "$CHECK" "$LAYOUT" parse t1 t2 t3 t4 t5 > out 2>&1 || { cat out; atf_fail "layout rejects a generated trace"; }
}

atf_test_case layout_matches_validator
layout_matches_validator_head() {
	atf_set descr "row, header and record sizes and field offsets of the layout are the ones validators/umtrace reads"
	atf_set require.progs python3
}
layout_matches_validator_body() {
	python3 "$CHECK" "$LAYOUT" crosscheck "$SRCDIR" > out 2>&1 || { cat out; atf_fail "layout and validator differ"; }
}

atf_test_case broken_layout_fails
broken_layout_fails_head() {
	atf_set descr "a layout with threadRec's row size 40, or a syscallRec field dropped, is rejected"
	atf_set require.progs python3
}
broken_layout_fails_body() {
	sed 's/row: thread_rec, row_size: 48/row: thread_rec, row_size: 40/' "$LAYOUT" > rows.yaml
	! cmp -s "$LAYOUT" rows.yaml || atf_fail "the row size edit did not apply"
	atf_check -s exit:1 -o match:'trace64: LayoutError: thread.itable: RowSize 48, layout says \[40\]' \
		python3 "$CHECK" rows.yaml parse "$SRCDIR/corpus/umtrace/valid/trace64"
	atf_check -s exit:1 -o match:'umt_table.c: layout gives .*M_THREAD.* 32, 40, 0,' \
		python3 "$CHECK" rows.yaml crosscheck "$SRCDIR"
	sed 's/{id: before_sp, type: u8}, {id: result, type: u8}/{id: before_sp, type: u8}/' "$LAYOUT" > field.yaml
	! cmp -s "$LAYOUT" field.yaml || atf_fail "the field edit did not apply"
	atf_check -s exit:1 -o match:'umt_syscall_block.c: layout gives .*\[S_ARGS_FP\] = \{ 32, 8, true \}' \
		python3 "$CHECK" field.yaml crosscheck "$SRCDIR"
}

atf_init_test_cases() {
	atf_add_test_case corpus_traces_parse
	atf_add_test_case generated_traces_parse
	atf_add_test_case layout_matches_validator
	atf_add_test_case broken_layout_fails
}
