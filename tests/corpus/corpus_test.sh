#! /usr/bin/env atf-sh
# One test case per corpus case (corpus/<format>/{valid,invalid,regressions}/*):
# tracelint's diagnostics must equal the case's .expected sidecar exactly, and
# the exit status must match the verdict. See corpus/README.md.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TRACELINT="$BUILDDIR/tracelint"

is_case() {
	case "$1" in
	*.expected | *.args | *.md | *.sh | *.py | */README*) return 1 ;;
	esac
	[ -e "$1" ]
}

case_id() {
	printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_'
}

# Runs tracelint on one case with its .args and writes the normalised
# diagnostics "location severity RULE" to ./actual; returns tracelint's status.
run_case() {
	path=$1
	dir=$(dirname "$path")
	set --
	if [ -f "$path.args" ]; then
		while IFS= read -r arg || [ -n "$arg" ]; do
			case "$arg" in
			'' | '#'*) continue ;;
			--pair=/*) ;;
			--pair=*) arg="--pair=$dir/${arg#--pair=}" ;;
			esac
			set -- "$@" "$arg"
		done < "$path.args"
	fi
	"$TRACELINT" --output=json "$@" "$path" > out.json 2> stderr
	rc=$?
	jq -r '.files[0].diagnostics[] |
		(if .member then .member + ":" else "" end) +
		(if .line then "\(.line):\(.column)" else "\(.offset)" end) +
		" " + .severity + " " + .rule' out.json > actual || rc=99
	return $rc
}

check_case() {
	path=$1
	kind=$2
	run_case "$path"
	rc=$?
	if [ -f "$path.expected" ]; then
		grep -v -e '^#' -e '^[[:space:]]*$' "$path.expected" > expected
	elif [ "$kind" = valid ]; then
		: > expected
	else
		atf_fail "$path has no .expected sidecar"
	fi
	if ! diff -u expected actual > diff.out; then
		cat diff.out
		"$TRACELINT" "$path" 2>&1 | head -40
		atf_fail "diagnostics differ from ${path#$SRCDIR/}.expected (see diff above)"
	fi
	if grep -q ' error ' expected; then want=1; else want=0; fi
	case "$kind" in
	valid) [ $want = 0 ] || atf_fail "a valid case must not expect errors" ;;
	invalid) [ $want = 1 ] || atf_fail "an invalid case must expect at least one error" ;;
	esac
	[ "$rc" = "$want" ] || { cat stderr; atf_fail "exit status $rc, expected $want"; }
	# Every rule reported is one of the catalog's.
	for rule in $(awk '{print $3}' actual | sort -u); do
		grep -qx "$rule" "$BUILDDIR/catalog-ids" ||
			atf_fail "rule $rule is not in the catalog (specs/)"
	done
}

define_case() {
	id=$1 path=$2 kind=$3
	eval "${id}_head() { atf_set descr 'corpus case ${path#$SRCDIR/}'; atf_set require.progs jq; }"
	eval "${id}_body() { check_case '$path' '$kind'; }"
	atf_add_test_case "$id"
}

atf_test_case rules_covered
rules_covered_head() {
	atf_set descr "every rule of the catalog is triggered by at least one corpus case"
}
rules_covered_body() {
	find "$SRCDIR/corpus" -name '*.expected' -exec awk '!/^#/ && NF >= 3 {print $3}' {} + |
		sort -u > covered
	sort -u "$BUILDDIR/catalog-ids" > catalog
	comm -23 catalog covered > missing
	if [ -s missing ]; then
		cat missing
		atf_fail "$(wc -l < missing) catalog rules have no corpus case: $(tr '\n' ' ' < missing)"
	fi
}

atf_test_case sidecars_name_cases
sidecars_name_cases_head() {
	atf_set descr "every .expected or .args sidecar sits next to the case it names"
}
sidecars_name_cases_body() {
	find "$SRCDIR/corpus" -name '*.expected' -o -name '*.args' | while read -r s; do
		[ -e "${s%.*}" ] || echo "$s"
	done > orphans
	[ ! -s orphans ] || atf_fail "sidecars without a case: $(tr '\n' ' ' < orphans)"
}

atf_init_test_cases() {
	atf_add_test_case rules_covered
	atf_add_test_case sidecars_name_cases
	for fmtdir in "$SRCDIR"/corpus/*/; do
		fmt=$(basename "$fmtdir")
		for kind in valid invalid regressions; do
			[ -d "$fmtdir$kind" ] || continue
			for path in "$fmtdir$kind"/*; do
				is_case "$path" || continue
				define_case "$(case_id "${fmt}_${kind}_$(basename "$path")")" "$path" "$kind"
			done
		done
	done
}
