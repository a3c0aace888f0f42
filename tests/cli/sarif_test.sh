#! /usr/bin/env atf-sh
# SARIF as GitHub code scanning takes it: every rule documented (full
# description, help in text and markdown, a help URI), the tool's home page,
# fingerprints that survive unrelated edits, and URIs without doubled members.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

atf_test_case rules_documented
rules_documented_head() { atf_set "descr" "every rule has fullDescription, help (text and markdown) and helpUri"; }
rules_documented_body() {
	"$TL" -o sarif "$C/xray/invalid/v1-stride.xray" > out.sarif
	atf_check -o match:'^https://' jq -r '.runs[0].tool.driver.informationUri' out.sarif
	atf_check -o inline:"$("$TL" --list-rules | wc -l)\n" jq '.runs[0].tool.driver.rules | length' out.sarif
	atf_check -o inline:"true\n" jq '.runs[0].tool.driver.rules | all(.[];
		(.fullDescription.text | length > 0) and (.help.text | length > 0) and
		(.help.markdown | length > 0) and (.helpUri | startswith("https://")))' out.sarif
	atf_check -o inline:"true\n" jq '[.runs[0].results[].partialFingerprints["tracelintLocation/v1"]] |
		length == 3 and all(.[]; test("^[0-9a-f]{16}$")) and (unique | length) == 3' out.sarif
}

atf_test_case fingerprints_survive_unrelated_edits
fingerprints_survive_unrelated_edits_head() { atf_set "descr" "a DCFG defect keeps its fingerprint when lines are added before it"; }
fingerprints_survive_unrelated_edits_body() {
	case_file="$C/dcfg/invalid/dcfg_routine_cover.dcfg.json"
	# the same file name before and after an edit that moves every line down by three
	results() { "$TL" -o sarif same.json | jq -r '.runs[0].results[] | .ruleId + " " +
		(.locations[0].physicalLocation.region.startLine | tostring) + " " +
		.partialFingerprints["tracelintLocation/v1"]'; }
	cp "$case_file" same.json
	results > before
	{ printf '\n\n\n'; cat "$case_file"; } > same.json
	results > after
	[ -s before ] || atf_fail "the case gave no result"
	atf_check -s exit:1 -o ignore diff before after
	cut -d' ' -f1,3 before > before.keys
	cut -d' ' -f1,3 after > after.keys
	atf_check -o empty diff before.keys after.keys
}

atf_test_case member_uris
member_uris_head() { atf_set "descr" "a member is named once: no dir//member, no table/table"; }
member_uris_body() {
	cp -R "$C/umtrace/invalid/after-thread-end" trace
	"$TL" -o sarif trace/ | jq -r '.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri' | sort -u > slash
	atf_check -s exit:1 grep '//' slash
	atf_check -o match:'^trace/exec\.prev_next\.column$' cat slash
	"$TL" -o sarif trace/exec.prev_next.column | jq -r '.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri' | sort -u > single
	atf_check -s exit:1 grep 'column/exec' single
}

atf_init_test_cases() {
	atf_add_test_case rules_documented
	atf_add_test_case fingerprints_survive_unrelated_edits
	atf_add_test_case member_uris
}
