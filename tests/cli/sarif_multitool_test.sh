#! /usr/bin/env atf-sh
# The SARIF of the whole corpus passes Microsoft's SARIF multitool with the
# SARIF and GitHub (Gh) rule kinds: what GitHub code scanning takes.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# `make deps` installs it into the build directory (build/npm).
multitool() {
	for d in "$BUILDDIR" "$BUILDDIR/.."; do
		m="$d/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
		if [ -x "$m" ]; then
			echo "$m"
			return
		fi
	done
	atf_skip "the SARIF multitool is not installed (make deps installs it with npm)"
}

# Validates FILE; prints the number of problems the multitool found.
problems() {
	"$(multitool)" validate --rule-kind "Sarif;Gh" --log ForceOverwrite -o "$1.check" "$1" > "$1.log" 2>&1 ||
		atf_fail "the multitool failed on $1: $(cat "$1.log")"
	jq '.runs[0].results | length' "$1.check"
}

atf_test_case whole_corpus
whole_corpus_head() { atf_set "descr" "no SARIF or GitHub rule is broken by the report of the whole corpus"; }
whole_corpus_body() {
	multitool > /dev/null
	atf_check -s exit:1 -o save:corpus.sarif -e ignore "$TL" -o sarif "$C"
	atf_check -o not-inline:"0\n" jq '.runs[0].results | length' corpus.sarif
	problems corpus.sarif > count
	atf_check -o inline:"0\n" cat count
	# absolute paths below --sarif-root, and a baseline's states
	atf_check -s exit:1 -o ignore -e ignore "$TL" --write-baseline base.json "$C/xray/invalid" "$C/dcfg/invalid"
	jq '.diagnostics |= [to_entries[] | select(.key % 2 == 0) | .value]' base.json > half.json
	atf_check -s exit:1 -o save:rooted.sarif -e ignore "$TL" -o sarif --sarif-root "$SRCDIR" --baseline half.json \
		"$C/xray/invalid" "$C/dcfg/invalid"
	atf_check -o match:'^corpus/' jq -r '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri' rooted.sarif
	problems rooted.sarif > count
	atf_check -o inline:"0\n" cat count
}

atf_test_case detects_broken_sarif
detects_broken_sarif_head() { atf_set "descr" "the check can fail: rules without fullDescription are reported"; }
detects_broken_sarif_body() {
	multitool > /dev/null
	atf_check -s exit:1 -o save:one.sarif "$TL" -o sarif "$C/xray/invalid/preamble.xray"
	jq 'del(.runs[0].tool.driver.rules[].fullDescription)' one.sarif > broken.sarif
	problems broken.sarif > count
	atf_check -o not-inline:"0\n" cat count
}

atf_test_case help_base
help_base_head() { atf_set "descr" "--sarif-help-base moves every rule's helpUri to the team's copy of the rule pages"; }
help_base_body() {
	atf_check -s exit:1 -o save:out.sarif "$TL" -o sarif --sarif-help-base https://docs.example.com/tl/ \
		"$C/xray/invalid/preamble.xray"
	atf_check -o inline:"https://docs.example.com/tl/XRAY-FDR-PREAMBLE.md\n" \
		jq -r '.runs[0].tool.driver.rules[] | select(.id == "XRAY-FDR-PREAMBLE") | .helpUri' out.sarif
	atf_check -o inline:"0\n" jq '[.runs[0].tool.driver.rules[] | select(.helpUri | startswith("https://docs.example.com/tl/") | not)] | length' out.sarif
}

atf_init_test_cases() {
	atf_add_test_case help_base
	atf_add_test_case whole_corpus
	atf_add_test_case detects_broken_sarif
}
