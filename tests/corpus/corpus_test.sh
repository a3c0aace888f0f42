#! /usr/bin/env atf-sh
# One test case per format and kind (corpus/<format>/{valid,invalid,regressions}),
# which runs every case of it: tracelint's diagnostics must equal the case's
# .expected sidecar exactly (messages included), and the exit status must match the verdict (see
# corpus/README.md). A failure names every case that broke, with its diff.
# (One ATF test case per corpus file made Kyua's listing step, which atf-sh
# pays for with a dozen forks per test case, time out on a loaded machine.)

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TRACELINT="$BUILDDIR/tracelint"

. "$SRCDIR/corpus/cases.sh"

# Runs tracelint on one case with its .args and writes the normalised
# diagnostics "location severity RULE message" to ./actual, paths in messages
# relative to the source directory as in the sidecars; returns tracelint's status.
run_case() {
	case_run "$TRACELINT" "$1" --output=json > out.json 2> stderr
	rc=$?
	jq -r --arg root "$SRCDIR/" '.files[0].diagnostics[] |
		(if .member then .member + ":" else "" end) +
		(if .line then "\(.line):\(.column)" else "\(.offset)" end) +
		" " + .severity + " " + .rule + " " + (.message | split($root) | join(""))' out.json > actual || rc=99
	return $rc
}

# Checks one case; on a mismatch prints why and returns 1.
check_case() {
	path=$1
	kind=$2
	name=${path#$SRCDIR/}
	run_case "$path"
	rc=$?
	if [ -f "$path.expected" ]; then
		grep -v -e '^#' -e '^[[:space:]]*$' "$path.expected" > expected
	elif [ "$kind" = valid ]; then
		: > expected
	else
		echo "FAIL $name: no .expected sidecar"
		return 1
	fi
	if ! diff -u expected actual > diff.out; then
		echo "FAIL $name: diagnostics differ from its .expected"
		cat diff.out
		"$TRACELINT" "$path" 2>&1 | head -20
		return 1
	fi
	if awk '$2 == "error" { e = 1 } END { exit !e }' expected; then want=1; else want=0; fi
	# a case that gets no verdict (a resource limit) says so: "# exit status: 2"
	if [ -f "$path.expected" ] && grep -q '^# exit status: 2$' "$path.expected"; then want=2; fi
	case "$kind" in
	valid) [ $want = 0 ] || { echo "FAIL $name: a valid case must not expect errors"; return 1; } ;;
	invalid) [ $want = 1 ] || { echo "FAIL $name: an invalid case must expect an error"; return 1; } ;;
	esac
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit status $rc, expected $want"
		cat stderr
		return 1
	fi
	# The intent a reader is held to agrees with tracelint's own verdict.
	intent=$(sed -n 's/^# intent: \([a-z-]*\).*/\1/p' "$path.expected" 2>/dev/null | head -1)
	case "$intent:$rc" in
	must-accept:0 | must-reject:1 | either:0 | either:2) ;;
	:*) echo "FAIL $name: no '# intent:' line in its .expected"; return 1 ;;
	*) echo "FAIL $name: intent $intent, but tracelint's exit status is $rc"; return 1 ;;
	esac
	# Every rule reported is one of the catalog's.
	for rule in $(awk '{print $3}' actual | sort -u); do
		grep -qx "$rule" "$BUILDDIR/catalog-ids" ||
			{ echo "FAIL $name: rule $rule is not in the catalog (specs/)"; return 1; }
	done
	return 0
}

check_kind() {
	fmtdir=$1
	kind=$2
	total=0 failed=0 names=""
	for path in "$fmtdir/$kind"/*; do
		is_case "$path" || continue
		total=$((total + 1))
		if ! check_case "$path" "$kind"; then
			failed=$((failed + 1))
			names="$names ${path##*/}"
		fi
	done
	echo "$total cases, $failed failed"
	[ "$total" -gt 0 ] || atf_fail "no cases in ${fmtdir#$SRCDIR/}/$kind"
	[ "$failed" = 0 ] || atf_fail "$failed of $total cases failed:$names (see stdout)"
}

define_kind() {
	fmt=$1 kind=$2
	id=$(printf '%s_%s' "$fmt" "$kind" | tr -c 'A-Za-z0-9_' '_')
	eval "${id}_head() { atf_set descr 'corpus cases of $fmt/$kind'; atf_set require.progs jq; atf_set timeout 3600; }"
	eval "${id}_body() { check_kind '$SRCDIR/corpus/$fmt' '$kind'; }"
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
	find "$SRCDIR/corpus" \( -name '*.expected' ! -name '*.content.expected' \) -o -name '*.args' -o -name '*.env' | while read -r s; do
		[ -e "${s%.*}" ] || echo "$s"
	done > orphans
	# expected content: <case>.content.expected
	find "$SRCDIR/corpus" -name '*.content.expected' | while read -r s; do
		[ -e "${s%.content.expected}" ] || echo "$s"
	done >> orphans
	[ ! -s orphans ] || atf_fail "sidecars without a case: $(tr '\n' ' ' < orphans)"
}

atf_test_case intents
intents_head() {
	atf_set descr "every case's .expected says once whether readers must accept it, must reject it, or either (with why)"
}
intents_body() {
	n=0
	for path in "$SRCDIR"/corpus/*/valid/* "$SRCDIR"/corpus/*/invalid/* "$SRCDIR"/corpus/*/regressions/*; do
		is_case "$path" || continue
		n=$((n + 1))
		name=${path#$SRCDIR/}
		lines=$(grep -c '^# intent:' "$path.expected" 2>/dev/null) || lines=0
		[ "$lines" = 1 ] || { echo "$name: $lines intent lines"; continue; }
		line=$(grep '^# intent:' "$path.expected")
		case "$line" in
		"# intent: must-accept" | "# intent: must-reject") ;;
		"# intent: either "?*) ;;
		*) echo "$name: malformed: $line" ;;
		esac
		case "$name:$line" in
		*/invalid/*:"# intent: must-reject") ;;
		*/invalid/*) echo "$name: an invalid case must be rejected: $line" ;;
		esac
	done > bad
	[ "$n" -ge 500 ] || atf_fail "only $n cases found"
	[ ! -s bad ] || atf_fail "$(wc -l < bad) cases without a proper intent: $(head -5 bad | tr '\n' ';')"
}

atf_init_test_cases() {
	atf_add_test_case intents
	atf_add_test_case rules_covered
	atf_add_test_case sidecars_name_cases
	for fmtdir in "$SRCDIR"/corpus/*/; do
		fmt=${fmtdir%/}
		fmt=${fmt##*/}
		for kind in valid invalid regressions; do
			[ -d "$fmtdir$kind" ] && define_kind "$fmt" "$kind"
		done
	done
}
