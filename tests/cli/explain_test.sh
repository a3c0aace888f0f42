#! /usr/bin/env atf-sh
# --explain RULE: what a rule checks, why, a corpus example, how to fix it and
# its source, from specs/ and corpus/; the rule pages and tracelint-rules(7)
# generated from it; every rule explained, with a source inside the repository.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

atf_test_case one_rule_of_each_format
one_rule_of_each_format_head() { atf_set "descr" "--explain prints every part for a rule of each format"; }
one_rule_of_each_format_body() {
	for rule in XRAY-FDR-METADATA-KIND DCFG-ID-DUPLICATE DTRACE-CHUNK-ORDER TFILE-HEADER-MAGIC UMT-LINK-PREV; do
		atf_check -o save:out "$TL" --explain "$rule"
		atf_check -o match:"^$rule \((error|warning|note), [a-z-]+(; formerly [A-Z0-9-]+)?\)$" cat out
		for part in 'What it checks' 'Message templates?' 'Why it matters' 'Example \(a case of the test corpus\)' \
			'How to fix it' 'Source'; do
			atf_check -o match:"^$part$" cat out
		done
		atf_check -o not-match:'not written yet' cat out
	done
}

atf_test_case binary_example
binary_example_head() { atf_set "descr" "a binary rule's example is the corpus case's bytes with the offset marked"; }
binary_example_body() {
	atf_check -o save:out "$TL" --explain XRAY-FDR-METADATA-KIND
	cat > expected <<'OUT'
Example (a case of the test corpus)
  corpus/xray/invalid/metadata-kind.xray:offset 112: error: ... [XRAY-FDR-METADATA-KIND]
    00000070: 19 a5 a5 a5 a5 a5 a5 a5  a5 a5 a5 a5 a5 a5 a5 a5  |................|
              ^~
OUT
	atf_check -o file:expected sed -n '/^Example/,/^$/{/^$/d;p}' out
	# the bytes shown are the case's own
	atf_check -o inline:' 19 a5\n' od -An -t x1 -j 112 -N 2 "$SRCDIR/corpus/xray/invalid/metadata-kind.xray"
}

atf_test_case text_example
text_example_head() { atf_set "descr" "a JSON rule's example is the line with a caret at the column"; }
text_example_body() {
	atf_check -o save:out "$TL" --explain DCFG-ID-DUPLICATE
	cat > expected <<'OUT'
Example (a case of the test corpus)
  corpus/dcfg/invalid/dcfg_id_duplicate.dcfg.json:7:6: error: ... [DCFG-ID-DUPLICATE]
    7 |     [1, "hello.c"]
      |      ^
OUT
	atf_check -o file:expected sed -n '/^Example/,/^$/{/^$/d;p}' out
}

atf_test_case json_and_globs
json_and_globs_head() { atf_set "descr" "-o json gives every part; a glob explains every rule it matches; a misspelt rule is a usage error"; }
json_and_globs_body() {
	atf_check -o save:json "$TL" --explain -o json XRAY-FDR-METADATA-KIND
	atf_check -o inline:'XRAY-FDR-METADATA-KIND error xray corpus/xray/invalid/metadata-kind.xray 112\n' \
		jq -r '.rules[] | "\(.id) \(.severity) \(.format) \(.example.path) \(.example.location)"' json
	atf_check -o inline:'true\n' jq '.rules[0] | (.why | length > 40) and (.fix | length > 20)' json
	atf_check -o inline:'expected a metadata kind 0..9, found %u in buffer %<PRIu64>\n' jq -r '.rules[0].messages[]' json
	atf_check -o save:all "$TL" --explain -o json 'UMT-U26*'
	atf_check -o inline:"$("$TL" --list-rules 'UMT-U26*' | awk '{print $1}')\n" jq -r '.rules[].id' all
	atf_check -s exit:2 -e match:"--explain: 'XRAY-NO-SUCH' matches no rule" "$TL" --explain XRAY-NO-SUCH
	atf_check -s exit:2 -e match:'--explain needs a RULE' "$TL" --explain
}

# The gaps of an --explain -o json document (jq -r "$GAPS"), one per line: a rule without a
# why, a fix or an example, or whose source names notes that do not ship
# (research notes, seeds or other files outside the repository, work items).
GAPS='.rules[] |
	(if (.why // "") == "" or (.fix // "") == "" then "explanation \(.id)" else empty end),
	(if .example == null then "example \(.id)" else empty end),
	(if (.messages | length) == 0 then "message \(.id)" else empty end),
	(if (.source | test("research|\\.\\./|/shared/|seeds/|issue|session"; "i")) then "source \(.id)" else empty end)'

atf_test_case every_rule_explained
every_rule_explained_head() { atf_set "descr" "every rule has why, fix, an example and a source inside the repository (no research notes, other files or work items)"; }
every_rule_explained_body() {
	atf_check -o save:json "$TL" --explain -o json '*'
	atf_check -o inline:"$("$TL" --list-rules | wc -l)\n" jq '.rules | length' json
	# any gap fails
	atf_check -o inline:'' jq -r "$GAPS" json
}

atf_test_case gap_check_fails
gap_check_fails_head() { atf_set "descr" "the gap check catches a source citing research notes and a rule without its why"; }
gap_check_fails_body() {
	atf_check -o save:json "$TL" --explain -o json XRAY-FDR-METADATA-KIND TFILE-HEADER-MAGIC
	jq '.rules |= map(if .id == "XRAY-FDR-METADATA-KIND" then .source += "; research §2" else .why = "" end)' \
		json > planted
	atf_check -o save:found jq -r "$GAPS" planted
	atf_check -o inline:'explanation TFILE-HEADER-MAGIC\nsource XRAY-FDR-METADATA-KIND\n' sort found
}

atf_test_case rule_docs
rule_docs_head() { atf_set "descr" "make writes one Markdown page per rule and tracelint-rules(7); make install installs them"; }
rule_docs_body() {
	atf_check -o inline:"$("$TL" --list-rules | wc -l)\n" sh -c "ls '$BUILDDIR/doc/rules' | grep -c '\\.md\$'"
	page="$BUILDDIR/doc/rules/XRAY-FDR-METADATA-KIND.md"
	atf_check -o match:'^# XRAY-FDR-METADATA-KIND$' -o match:'^## Why it matters$' \
		-o match:'^  00000070: 19 a5' -o match:'^## How to fix it$' \
		-o match:'^expected a metadata kind 0\.\.9, found %u in buffer %<PRIu64>$' cat "$page"
	atf_check -o match:'^\.SS XRAY\\-FDR\\-METADATA\\-KIND$' cat "$BUILDDIR/doc/tracelint-rules.7"
	# groff spreads a justified line's spaces from alternate ends, so the spacing
	# depends on the lines before it
	atf_check -o match:'Why +it +matters\. +The +kind +selects' -o match:'Message +template\.' \
		-o match:'^ +expected a metadata kind 0\.\.9, found %u in buffer %<PRIu64>$' -e ignore \
		sh -c "MANWIDTH=200 man -l '$BUILDDIR/doc/tracelint-rules.7'"
}

atf_init_test_cases() {
	atf_add_test_case one_rule_of_each_format
	atf_add_test_case binary_example
	atf_add_test_case text_example
	atf_add_test_case json_and_globs
	atf_add_test_case every_rule_explained
	atf_add_test_case gap_check_fails
	atf_add_test_case rule_docs
}
