#!/bin/sh
# Source-based line and branch coverage of every validator from the
# committed corpus: the regression drivers of every fuzz target and the CLI
# over every case (with its .args), built by clang with
# -fprofile-instr-generate -fcoverage-mapping in $BUILD/cov-corpus (not $BUILD/cov, where the
# gcc build of the suite's branch coverage lives). Writes
# $REPORTS/coverage/summary.md (per validator and per file) and
# $REPORTS/coverage/report.txt (llvm-cov's table); REPORTS defaults to
# $BUILD/reports.
set -eu
BUILD=${BUILD:-build}
REPORTS=${REPORTS:-$BUILD/reports}
O=$BUILD/cov-corpus
PROF=$(pwd)/$O/prof
rm -rf "$PROF" && mkdir -p "$PROF" "$REPORTS/coverage"
flags="-fprofile-instr-generate -fcoverage-mapping"
nice -n 10 make -s O="$O" CC=clang SANITIZE=0 CFLAGS="$flags" LDFLAGS="$flags" all regress > "$O.log" 2>&1 ||
	{ tail -20 "$O.log"; exit 1; }
export LLVM_PROFILE_FILE="$PROF/%p-%m.profraw"
for bin in "$O"/fuzz/regress_*; do
	"$bin" corpus > /dev/null 2>&1 || echo "warning: $bin failed on the corpus"
done
# The CLI over every case, as the corpus runner calls it.
find corpus -mindepth 3 -maxdepth 3 \( -path '*/valid/*' -o -path '*/invalid/*' -o -path '*/regressions/*' \) |
	grep -vE '\.(expected|args|md|sh|py)$|/README' | while read -r case; do
	args=
	[ -f "$case.args" ] && args=$(sed -e "s|--pair=\([^/]\)|--pair=$(dirname "$case")/\1|" -e "s|--instr-map=\([^/]\)|--instr-map=$(dirname "$case")/\1|" "$case.args" | tr '\n' ' ')
	# shellcheck disable=SC2086
	"$O/tracelint" $args "$case" > /dev/null 2>&1 || true
	# The JSON and SARIF writers see every kind of diagnostic too.
	# shellcheck disable=SC2086
	"$O/tracelint" -o json $args "$case" > /dev/null 2>&1 || true
	# shellcheck disable=SC2086
	"$O/tracelint" -o sarif $args "$case" > /dev/null 2>&1 || true
done
# The JSON conformance suite exercises the DCFG reader's tokenizer (strings,
# escapes, UTF-8, numbers) beyond what well-formed DCFGs need, when present.
JSON_SUITE=${JSON_SUITE:-tests/json/JSONTestSuite/test_parsing}
if [ -d "$JSON_SUITE" ]; then
	for f in "$JSON_SUITE"/*.json; do
		"$O/tracelint" --format=dcfg "$f" > /dev/null 2>&1 || true
	done
fi
llvm-profdata merge -sparse "$PROF"/*.profraw -o "$O/merged.profdata"
objects=""
for bin in "$O"/fuzz/regress_*; do objects="$objects -object $bin"; done
# shellcheck disable=SC2086
llvm-cov report "$O/tracelint" $objects -instr-profile="$O/merged.profdata" \
	validators/ > "$REPORTS/coverage/report.txt"
# Per validator directory: sum the per-file lines and branches.
awk -v date="$(date -u +%Y-%m-%d)" '
	# llvm-cov strips the common prefix: names are <validator>/<file>.
	$1 ~ /\/.*\.[ch]$/ && $8 > 0 {
		split($1, p, "/"); dir = p[1]
		# columns: regions missed cover functions missed executed lines missed cover branches missed cover
		lines[dir] += $8; lmiss[dir] += $9; br[dir] += $11; bmiss[dir] += $12
		file[$1] = sprintf("| `validators/%s` | %s | %s | %s |", $1, $8, $10, $13)
		order[++n] = $1
	}
	END {
		print "# Coverage of the validators from the committed corpus (" date ")"
		print ""
		print "Regression drivers of every fuzz target plus the CLI over every corpus case,"
		print "clang 14 source-based coverage (`make coverage`); the CLI runs each case in text, JSON"
		print "and SARIF output, and over the JSON parser conformance suite (`tests/json/JSONTestSuite`)"
		print "with --format=dcfg. Goal: >= 90% lines per validator. `cli` and `core` are exercised"
		print "mostly by the unit and CLI tests (tests/core, tests/cli), which this corpus-only figure"
		print "leaves out."
		print ""
		print "| validator | lines | line cover | branches | branch cover |"
		print "|---|---:|---:|---:|---:|"
		for (d in lines)
			printf "| %s | %d | %.1f%% | %d | %s |\n", d, lines[d],
				lines[d] ? 100 * (lines[d] - lmiss[d]) / lines[d] : 0, br[d],
				br[d] ? sprintf("%.1f%%", 100 * (br[d] - bmiss[d]) / br[d]) : "-"
		print ""
		print "| file | lines | line cover | branch cover |"
		print "|---|---:|---:|---:|"
		for (i = 1; i <= n; i++) print file[order[i]]
	}' "$REPORTS/coverage/report.txt" > "$REPORTS/coverage/summary.md"

# Name the uncovered code: in every file under 90% of its lines, the functions
# that miss lines, most missed first.
{
	echo
	echo "## Uncovered code (files under 90% of lines: functions with missed lines)"
	echo
	echo "| file | function | lines | missed |"
	echo "|---|---|---:|---:|"
	awk '$1 ~ /\/.*\.[ch]$/ && $8 > 0 && $10 + 0 < 90 { print $1 }' "$REPORTS/coverage/report.txt" |
	while read -r f; do
		# shellcheck disable=SC2086
		llvm-cov report "$O/tracelint" $objects -instr-profile="$O/merged.profdata" \
			-show-functions "validators/$f" 2> /dev/null |
		awk -v f="$f" '$1 != "TOTAL" && NF >= 10 && $5 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/ && $6 > 0 {
			name = $1; sub(/^[^:]*:/, "", name)
			printf "%d\t| `validators/%s` | `%s` | %d | %d |\n", $6, f, name, $5, $6 }' |
		sort -rn | cut -f2
	done
} >> "$REPORTS/coverage/summary.md"
cat "$REPORTS/coverage/summary.md" | head -20
