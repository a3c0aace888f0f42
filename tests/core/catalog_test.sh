#! /usr/bin/env atf-sh
# The rule catalog: generated from specs/, every rule complete and unique, and
# the generator refuses malformed catalogs so they cannot reach the build.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
GEN="$SRCDIR/validators/core/gen-rules.awk"

atf_test_case list_matches_specs
list_matches_specs_head() {
	atf_set descr "--list-rules prints exactly the rules of specs/*.md, once each"
}
list_matches_specs_body() {
	awk -f "$GEN" "$SRCDIR"/specs/*.md | sed 's/^TL_RULE([^,]*, "\([^"]*\)".*/\1/' | sort > from-specs
	"$BUILDDIR/tracelint" --list-rules | awk '{print $1}' | sort > listed
	atf_check -o file:from-specs cat listed
	atf_check -o empty sh -c 'uniq -d listed'
	[ -s listed ] || atf_fail "the catalog is empty"
}

atf_test_case every_rule_is_complete
every_rule_is_complete_head() {
	atf_set descr "every rule has a severity, a format, a statement and a source"
}
every_rule_is_complete_body() {
	"$BUILDDIR/tracelint" --list-rules > rules
	atf_check -o empty awk '$2 != "error" && $2 != "warning" && $2 != "note"' rules
	atf_check -o empty awk '!/\(.+\)$/' rules
}

atf_test_case generator_rejects_duplicates
generator_rejects_duplicates_head() {
	atf_set descr "a rule ID defined twice stops the build"
}
generator_rejects_duplicates_body() {
	printf '| TFILE-A | error | one | s |\n| TFILE-A | error | two | s |\n' > dup.md
	atf_check -s not-exit:0 -o ignore -e match:"defined twice" awk -f "$GEN" dup.md
}

atf_test_case generator_rejects_bad_rows
generator_rejects_bad_rows_head() {
	atf_set descr "unknown severities, unknown prefixes and empty statements stop the build"
}
generator_rejects_bad_rows_body() {
	printf '| TFILE-A | fatal | one | s |\n' > sev.md
	atf_check -s not-exit:0 -o ignore -e match:"severity" awk -f "$GEN" sev.md
	printf '| NOPE-A | error | one | s |\n' > prefix.md
	atf_check -s not-exit:0 -o ignore -e match:"unknown prefix" awk -f "$GEN" prefix.md
	printf '| TFILE-A | error |  | s |\n' > empty.md
	atf_check -s not-exit:0 -o ignore -e match:"no statement" awk -f "$GEN" empty.md
}

atf_test_case generator_reads_only_table_rows
generator_reads_only_table_rows_head() {
	atf_set descr "rows in code blocks and prose are not rules; escaped pipes stay in the text"
}
generator_reads_only_table_rows_body() {
	printf '```\n| TFILE-X | error | example | s |\n```\nTFILE-Y is prose.\n| TFILE-Z | warning | a \\| b | s |\n' > mixed.md
	atf_check -o inline:'TL_RULE(RULE_TFILE_Z, "TFILE-Z", TL_WARNING, "tfile", "a | b", "s")\n' \
		awk -f "$GEN" mixed.md
}

atf_init_test_cases() {
	atf_add_test_case list_matches_specs
	atf_add_test_case every_rule_is_complete
	atf_add_test_case generator_rejects_duplicates
	atf_add_test_case generator_rejects_bad_rows
	atf_add_test_case generator_reads_only_table_rows
}
