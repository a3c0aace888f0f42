#! /usr/bin/env atf-sh
# Rule control (--select, --ignore, --severity, --error) and options anywhere
# on the command line.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"
STRIDE="$C/xray/invalid/v1-stride.xray"   # three errors of three XRay rules
WARN="$C/xray/valid/warn-thread-id.xray"   # one warning

rules_of() { # rules_of FILE [OPTION...]: the rule of each diagnostic, one a line
	f=$1
	shift
	"$TL" -o json "$@" "$f" | jq -r '.files[0].diagnostics[] | .rule + " " + .severity'
}

atf_test_case options_after_paths
options_after_paths_head() { atf_set "descr" "options after a path are options (GNU permutation); -- ends them"; }
options_after_paths_body() {
	atf_check -s exit:1 -o match:'"rule":"XRAY-FDR-V1-STRIDE"' "$TL" "$STRIDE" -o json
	atf_check -s exit:1 -o match:'^.*v1-stride.xray: invalid' -o not-match:'error:' "$TL" "$STRIDE" -q
	cp "$WARN" ./-q
	# after --, "-q" is a path, not --quiet: its warning is shown
	atf_check -s exit:0 -o match:'^-q:.*warning:' "$TL" -- -q
}

atf_test_case usage_errors_name_the_argument
usage_errors_name_the_argument_head() { atf_set "descr" "every usage error names the argument it is about"; }
usage_errors_name_the_argument_body() {
	atf_check -s exit:2 -e match:"unknown option '--bogus'" "$TL" "$STRIDE" --bogus
	atf_check -s exit:2 -e match:"unknown option '-z'" "$TL" -qz "$STRIDE"
	atf_check -s exit:2 -e match:"option '--output' needs a value" "$TL" "$STRIDE" --output
	atf_check -s exit:2 -e match:"option '-o' needs a value" "$TL" "$STRIDE" -o
	atf_check -s exit:2 -e match:"--select: 'XRAY-NO-SUCH-RULE' matches no rule" "$TL" --select XRAY-NO-SUCH-RULE "$STRIDE"
	atf_check -s exit:2 -e match:"--ignore: 'nosuchformat' matches no rule" "$TL" --ignore xray,nosuchformat "$STRIDE"
	atf_check -s exit:2 -e match:"--severity: unknown level 'loud'" "$TL" --severity 'XRAY-*=loud' "$STRIDE"
	atf_check -s exit:2 -e match:"--severity needs RULES=LEVEL, not 'XRAY-FDR-PREAMBLE'" "$TL" --severity XRAY-FDR-PREAMBLE "$STRIDE"
	atf_check -s exit:2 -e match:"standard input \\('-'\\) named more than once" "$TL" - "$STRIDE" -
}

atf_test_case ignore
ignore_head() { atf_set "descr" "--ignore drops a rule by ID, glob or format, from the output and the counts"; }
ignore_body() {
	rules_of "$STRIDE" > all
	atf_check -o inline:"3\n" sh -c 'wc -l < all'
	rules_of "$STRIDE" --ignore XRAY-FDR-V1-STRIDE > some
	atf_check -o inline:"XRAY-FDR-PREAMBLE error\nXRAY-FDR-V1-END-OF-BUFFER error\n" cat some
	atf_check -s exit:1 -o match:'invalid \(xray: 2 errors' "$TL" -q --ignore XRAY-FDR-V1-STRIDE "$STRIDE"
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors' "$TL" -q --ignore 'XRAY-FDR-*' "$STRIDE"
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors' "$TL" -q --ignore xray "$STRIDE"
}

atf_test_case select
select_head() { atf_set "descr" "--select reports only the selected rules; a later --ignore narrows it again"; }
select_body() {
	rules_of "$STRIDE" --select XRAY-FDR-PREAMBLE > got
	atf_check -o inline:"XRAY-FDR-PREAMBLE error\n" cat got
	rules_of "$STRIDE" --select XRAY-FDR-PREAMBLE --select 'XRAY-FDR-V1-END-*' > got
	atf_check -o inline:"XRAY-FDR-PREAMBLE error\nXRAY-FDR-V1-END-OF-BUFFER error\n" cat got
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors' "$TL" -q --select 'TFILE-*' "$STRIDE"
	rules_of "$STRIDE" --select xray --ignore XRAY-FDR-PREAMBLE,XRAY-FDR-V1-END-OF-BUFFER > got
	atf_check -o inline:"XRAY-FDR-V1-STRIDE error\n" cat got
}

atf_test_case severity
severity_head() { atf_set "descr" "--severity changes one rule's severity, and the verdict follows it"; }
severity_body() {
	rules_of "$STRIDE" --severity 'XRAY-FDR-V1-*=warning' > out
	atf_check -o inline:"XRAY-FDR-V1-STRIDE warning\nXRAY-FDR-PREAMBLE error\nXRAY-FDR-V1-END-OF-BUFFER warning\n" cat out
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors, 0 warnings' \
		"$TL" -q --severity 'XRAY-*=note' "$STRIDE"
	# the last setting that matches wins
	rules_of "$STRIDE" --severity 'XRAY-*=off' --severity XRAY-FDR-PREAMBLE=default > got
	atf_check -o inline:"XRAY-FDR-PREAMBLE error\n" cat got
}

atf_test_case error_promotes_one_rule
error_promotes_one_rule_head() { atf_set "descr" "--error RULE turns one rule's warnings into errors; -W all of them"; }
error_promotes_one_rule_body() {
	rule=$(rules_of "$WARN" | cut -d' ' -f1)
	[ -n "$rule" ] || atf_fail "the warning case gives no diagnostic"
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors, 1 warning' "$TL" -q "$WARN"
	atf_check -s exit:1 -o match:'invalid \(xray: 1 error, 0 warnings' "$TL" -q --error "$rule" "$WARN"
	atf_check -s exit:0 -o match:'valid' "$TL" -q --error XRAY-FDR-PREAMBLE "$WARN"
	atf_check -s exit:1 -o match:'invalid \(xray: 0 errors, 1 warning' "$TL" -q -W "$WARN"
}

atf_test_case list_rules_named
list_rules_named_head() { atf_set "descr" "--list-rules RULE lists that rule only; globs and formats narrow it; -o json"; }
list_rules_named_body() {
	atf_check -o match:'^XRAY-FDR-PREAMBLE +error +xray ' "$TL" --list-rules XRAY-FDR-PREAMBLE
	"$TL" --list-rules XRAY-FDR-PREAMBLE > one
	atf_check -o inline:"1\n" sh -c 'wc -l < one'
	"$TL" --list-rules 'TFILE-HEADER-*' > some
	atf_check -o match:'^TFILE-HEADER-MAGIC ' cat some
	atf_check -o not-match:'^XRAY-' cat some
	atf_check -s exit:2 -e match:"--list-rules: 'NO-SUCH-RULE' matches no rule" "$TL" --list-rules NO-SUCH-RULE
	"$TL" --list-rules -o json 'TFILE-HEADER-*' XRAY-FDR-PREAMBLE > rules.json
	atf_check -o inline:"true\n" jq '[.rules[].id] | index("XRAY-FDR-PREAMBLE") != null and all(.[]; startswith("TFILE-HEADER-") or . == "XRAY-FDR-PREAMBLE")' rules.json
	atf_check -o inline:"true\n" jq '.rules | all(.[]; has("id") and has("severity") and has("format") and has("summary") and has("source"))' rules.json
	# the whole catalog in JSON has as many rules as in text
	"$TL" --list-rules > all.txt
	"$TL" --list-rules -o json > all.json
	atf_check -o inline:"$(wc -l < all.txt)\n" jq '.rules | length' all.json
}

atf_init_test_cases() {
	atf_add_test_case list_rules_named
	atf_add_test_case options_after_paths
	atf_add_test_case usage_errors_name_the_argument
	atf_add_test_case ignore
	atf_add_test_case select
	atf_add_test_case severity
	atf_add_test_case error_promotes_one_rule
}
