#! /usr/bin/env atf-sh
# The expected content of the valid XRay cases against llvm-xray: for every
# case `llvm-xray convert -f yaml` reads, its records (through the content
# adapter validators/conform/readers/llvm-xray-content.py) must equal the
# case's .content.expected record for record after both are sorted by TSC as
# llvm-xray sorts them, or the difference must be explained by a "content:"
# line of reports/conformance/explain/llvm-xray.txt; an explanation of a case
# that agrees is stale and fails too. Skipped without llvm-xray.

SRCDIR='@SRCDIR@'
LLVM_XRAY=${LLVM_XRAY:-llvm-xray}
EXPLAIN="$SRCDIR/reports/conformance/explain/llvm-xray.txt"
ADAPTER="$SRCDIR/validators/conform/readers/llvm-xray-content.py"
DIFF="$SRCDIR/validators/conform/content-diff.py"

. "$SRCDIR/corpus/cases.sh"

# The explanation of a content difference for case NAME (valid/x.xray), or nothing.
explanation() {
	sed -n 's/^content:\([^ 	]*\)[ 	].*/\1/p' "$EXPLAIN" | while read -r glob; do
		case "$1" in $glob) echo "$glob"; break ;; esac
	done
}

atf_test_case records_match
records_match_head() {
	atf_set descr "llvm-xray convert decodes every valid case it reads to its expected content, or the difference is explained"
	atf_set require.progs "python3 jq"
}
records_match_body() {
	command -v "$LLVM_XRAY" > /dev/null || atf_skip "$LLVM_XRAY not installed (Debian package llvm)"
	python3 -c 'import yaml' 2> /dev/null || atf_skip "python3-yaml not installed"
	: > unexplained
	: > explained_agree
	read_by_llvm=0
	compared=0
	for path in "$SRCDIR"/corpus/xray/valid/*; do
		is_case "$path" || continue
		name=valid/${path##*/}
		[ -f "$path.content.expected" ] || { echo "$name: no .content.expected" >> unexplained; continue; }
		# only uncompressed files and cases without options (--instr-map does not change content)
		python3 "$ADAPTER" --llvm-xray="$LLVM_XRAY" "$path" > llvm.jsonl 2> llvm.err || continue
		read_by_llvm=$((read_by_llvm + 1))
		why=$(explanation "$name")
		if python3 "$DIFF" --sort "$path.content.expected" llvm.jsonl > diff.txt; then
			compared=$((compared + 1))
			[ -z "$why" ] || echo "$name: explained by content:$why but agrees" >> explained_agree
		elif [ -z "$why" ]; then
			echo "$name: $(cat diff.txt)" >> unexplained
		fi
	done
	echo "llvm-xray read $read_by_llvm valid cases; $compared agree record for record"
	[ "$read_by_llvm" -ge 20 ] || atf_fail "llvm-xray read only $read_by_llvm cases"
	cat unexplained explained_agree
	[ ! -s unexplained ] || atf_fail "$(wc -l < unexplained) unexplained content differences"
	[ ! -s explained_agree ] || atf_fail "stale content explanations"
}

atf_test_case adapter_reports_a_difference
adapter_reports_a_difference_head() {
	atf_set descr "the comparison fails, naming the first differing record, when one record's function id changes"
	atf_set require.progs "python3"
}
adapter_reports_a_difference_body() {
	command -v "$LLVM_XRAY" > /dev/null || atf_skip "$LLVM_XRAY not installed (Debian package llvm)"
	python3 -c 'import yaml' 2> /dev/null || atf_skip "python3-yaml not installed"
	case_file="$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray"
	atf_check -o save:llvm.jsonl python3 "$ADAPTER" --llvm-xray="$LLVM_XRAY" "$case_file"
	atf_check python3 "$DIFF" --sort "$case_file.content.expected" llvm.jsonl
	# the expected content with function 5 renamed 6: the comparison must see it
	sed 's/"func-id":5,/"func-id":6,/' "$case_file.content.expected" > wrong.jsonl
	atf_check -s exit:1 -o match:'expected .*"func-id":6.*found .*"func-id":5' \
		python3 "$DIFF" --sort wrong.jsonl llvm.jsonl
}

atf_init_test_cases() {
	atf_add_test_case records_match
	atf_add_test_case adapter_reports_a_difference
}
