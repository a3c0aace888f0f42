#! /usr/bin/env atf-sh
# A trace directory's diagnostics come sorted by member, then offset, in
# every output style, whatever order the checks ran in.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus/umtrace/invalid"

atf_test_case text_sorted
text_sorted_head() { atf_set "descr" "text: member then offset ascending (the Prev/Next checks ran Prev first)"; }
text_sorted_body() {
	atf_check -s exit:1 -o save:out "$TL" --no-context "$C/after-thread-end"
	sed -n 's/.*after-thread-end\/\([^:]*\):offset \([0-9]*\):.*/\1 \2/p' out > order
	atf_check -o inline:"exec.prev_next.column 440\nexec.prev_next.column 488\nexec.prev_next.column 544\nexec.prev_next.column 552\nexec.prev_next.column 560\n" \
		head -5 order
	atf_check -o file:order sort -k1,1 -k2,2n -s order
}

atf_test_case json_sorted_every_case
json_sorted_every_case_head() { atf_set "descr" "JSON: every invalid UMTracer case lists its diagnostics by member and offset, the --max-errors note last"; }
json_sorted_every_case_body() {
	for t in "$C"/*/; do
		"$TL" -o json --max-errors 0 "$t" | jq -r '.files[0].diagnostics[] | select(.member) |
			"\(.member) \(.offset)"' > got
		sort -k1,1 -k2,2n -s got > want
		cmp -s got want || atf_fail "$t: not sorted"
	done
	"$TL" -o json --max-errors 3 "$C/after-thread-end" > capped.json
	atf_check -o inline:'TL-MAX-ERRORS\n' jq -r '.files[0].diagnostics[-1].rule' capped.json
}

atf_test_case jobs_sorted_with_context
jobs_sorted_with_context_head() { atf_set "descr" "-j 2 writes trace directories' diagnostics, with the bytes of their own member under each, as -j 1 does"; }
jobs_sorted_with_context_body() {
	set -- "$C/after-thread-end" "$C/ins-address-32bit" "$C/after-thread-end"
	atf_check -s exit:1 -o save:one -e ignore "$TL" -j 1 --context --color=never "$@"
	atf_check -s exit:1 -o save:two -e ignore "$TL" -j 2 --context --color=never "$@"
	atf_check -o file:one cat two
	# the first diagnostic (offset 440, Next of record 27) over exec.prev_next.column's row at 0x1b0
	atf_check -o match:'^  000001b0: 17 00 00 00 00 00 00 00  23 00 00 00' sed -n 2p two
	atf_check -o match:'^  insRec 0: .*Address=0x100401000' cat two
}

atf_init_test_cases() {
	atf_add_test_case jobs_sorted_with_context
	atf_add_test_case text_sorted
	atf_add_test_case json_sorted_every_case
}
