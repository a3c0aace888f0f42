#! /usr/bin/env atf-sh
# One policy whatever the baseline: over every corpus case, a run that
# writes a baseline prints exactly what a plain run prints, and a run with
# that baseline (or half of it) has the same counts and the same
# `truncated`, its known diagnostics moved from new to known and nothing
# else. Cases without sidecars run together, the others one by one.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
case_env=        # a case's .env sidecar, VAR=value words

. "$SRCDIR/corpus/cases.sh"

# The cases of the corpus, split into those run together (./together) and
# those with sidecars (./alone).
list_cases() {
	: > together
	: > alone
	for path in "$SRCDIR"/corpus/*/valid/* "$SRCDIR"/corpus/*/invalid/* "$SRCDIR"/corpus/*/regressions/*; do
		is_case "$path" || continue
		if [ -f "$path.args" ] || [ -f "$path.env" ]; then
			echo "$path" >> alone
		else
			echo "$path" >> together
		fi
	done
	[ "$(wc -l < together)" -gt 100 ] || atf_fail "too few corpus cases found"
}

# The counts of each file of a JSON report, one line each.
counts() {
	jq -r '.files[] | [.path, .errors, .warnings, .notes, .truncated] | @tsv' "$1"
}

# check NAME OPTION... -- PATH...: the four runs of one group of paths.
check() {
	name=$1
	shift
	opts=""
	while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
	shift
	env $case_env "$TL" -j 2 -o json $opts "$@" > "$name.plain" 2> /dev/null
	env $case_env "$TL" -j 2 -o json $opts --write-baseline "$name.base" "$@" > "$name.writing" 2> /dev/null
	cmp -s "$name.plain" "$name.writing" || { diff "$name.plain" "$name.writing" | head; atf_fail "$name: writing a baseline changes the report"; }
	env $case_env "$TL" -j 2 -o json $opts --baseline "$name.base" "$@" > "$name.known" 2> /dev/null
	counts "$name.plain" > "$name.want"
	counts "$name.known" > "$name.got"
	cmp -s "$name.want" "$name.got" || { diff "$name.want" "$name.got" | head; atf_fail "$name: a baseline changes the counts"; }
	# every diagnostic counted was recorded, so all are known and every file valid
	bad=$(jq -r '.files[] | select(.format != null) | select(.known_errors != .errors or .known_warnings != .warnings or .valid != true) | .path' "$name.known")
	[ -z "$bad" ] || atf_fail "$name: not all known with their own baseline: $bad"
	# half of the baseline: the rest is new again, the counts stay
	jq '.diagnostics |= [to_entries[] | select(.key % 2 == 0) | .value]' "$name.base" > "$name.half"
	env $case_env "$TL" -j 2 -o json $opts --baseline "$name.half" "$@" > "$name.halfknown" 2> /dev/null
	counts "$name.halfknown" > "$name.got"
	cmp -s "$name.want" "$name.got" || atf_fail "$name: half a baseline changes the counts"
	bad=$(jq -r '.files[] | select(.format != null) | select(.valid != (.errors == .known_errors)) | .path' "$name.halfknown")
	[ -z "$bad" ] || atf_fail "$name: a verdict that is not 'no new error': $bad"
}

atf_test_case counts_equal_default_limit
counts_equal_default_limit_head() { atf_set descr "counts, truncated and verdicts with and without a baseline, every corpus case, the default error limit"; atf_set require.progs jq; atf_set timeout 1200; }
counts_equal_default_limit_body() {
	list_cases
	check together -- $(cat together)
	check_alone
}

atf_test_case counts_equal_small_limit
counts_equal_small_limit_head() { atf_set descr "the same with --max-errors=2, where reporting stops early"; atf_set require.progs jq; atf_set timeout 1200; }
counts_equal_small_limit_body() {
	list_cases
	check together --max-errors=2 -- $(cat together)
	check_alone --max-errors=2
}

# The cases with sidecars, each with its own options (case_run's).
check_alone() {
	i=0
	while read -r path; do
		i=$((i + 1))
		# case_run calls its first argument with the options and the path
		cat > run.sh <<EOS
#!/bin/sh
n=\$#
eval "last=\\\${\$n}"
args=""
for a in "\$@"; do [ "\$a" = "\$last" ] || args="\$args '\$a'"; done
echo "\$args" > args
EOS
		chmod +x run.sh
		case_run ./run.sh "$path" "$@" > /dev/null 2>&1
		case_env=$([ -f "$path.env" ] && grep -v '^#' "$path.env")
		eval "check alone$i $(cat args) -- '$path'"
		case_env=
	done < alone
}

atf_init_test_cases() {
	atf_add_test_case counts_equal_default_limit
	atf_add_test_case counts_equal_small_limit
}
