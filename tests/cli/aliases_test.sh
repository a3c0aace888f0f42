#! /usr/bin/env atf-sh
# Descriptive UMTracer rule IDs; the former UMT-Unnn IDs are accepted wherever
# an ID is (selection, severities, config files, --list-rules, --explain).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
T="$SRCDIR/corpus/umtrace/invalid/after-thread-end"

atf_test_case descriptive_ids
descriptive_ids_head() { atf_set "descr" "every rule ID names its format and what it checks: no numbered UMT-Unnn is left"; }
descriptive_ids_body() {
	"$TL" --list-rules | awk '{print $1}' > ids
	atf_check -s exit:1 grep -E '^UMT-U[0-9]' ids
	atf_check -o match:'^UMT-EXEC-OFFSETS-SIZE$' -o match:'^UMT-LINK-PREV$' cat ids
	atf_check -s exit:1 -o match:'\[UMT-LINK-PREV\]$' "$TL" "$T"
}

atf_test_case selection_by_former_id
selection_by_former_id_head() { atf_set "descr" "--select, --ignore, --severity and config files accept former IDs and their globs"; }
selection_by_former_id_body() {
	atf_check -s exit:1 -o save:sel "$TL" --select UMT-U261 "$T"
	atf_check -o inline:'2\n' grep -c '\[UMT-LINK-PREV\]$' sel
	atf_check -s exit:1 grep -v 'UMT-LINK-PREV\|: invalid' sel
	atf_check -s exit:1 -o save:ign "$TL" --ignore 'UMT-U26*' "$T"
	atf_check -s exit:1 grep 'UMT-LINK-' ign
	atf_check -s exit:1 -o match:'warning: .*\[UMT-LINK-NEXT\]' "$TL" --severity UMT-U262=warning "$T"
	printf '[tracelint]\nignore = UMT-U261, UMT-U262\n' > .tracelint.ini
	cp -R "$T" t
	atf_check -s ignore -o save:cfg "$TL" t
	atf_check -s exit:1 grep 'UMT-LINK-' cfg
	atf_check -s exit:2 -e match:"'UMT-U999' matches no rule" "$TL" --select UMT-U999 "$T"
}

atf_test_case list_and_explain_by_former_id
list_and_explain_by_former_id_head() { atf_set "descr" "--list-rules and --explain find a rule by its former ID and say it"; }
list_and_explain_by_former_id_body() {
	atf_check -o match:'^UMT-LINK-PREV ' "$TL" --list-rules UMT-U261
	atf_check -o match:'^UMT-LINK-PREV \(error, umtrace; formerly UMT-U261\)$' "$TL" --explain UMT-U261
	atf_check -o inline:'UMT-LINK-PREV UMT-U261\n' -x "'$TL' --explain -o json UMT-U261 | jq -r '.rules[] | \"\\(.id) \\(.former_id)\"'"
	atf_check -o inline:'XRAY-FDR-METADATA-KIND null\n' -x "'$TL' --explain -o json XRAY-FDR-METADATA-KIND | jq -r '.rules[] | \"\\(.id) \\(.former_id)\"'"
}

atf_init_test_cases() {
	atf_add_test_case descriptive_ids
	atf_add_test_case selection_by_former_id
	atf_add_test_case list_and_explain_by_former_id
}
