#!/bin/sh
# report-index.sh DIR: one line per campaign report (date, target, engine,
# duration, execs/s, final coverage, crash inputs) of the campaigns run here
# (make fuzz-run writes them to build/reports/fuzz/), for reports/fuzzing.md.
set -eu
dir=${1:-build/reports/fuzz}
printf '| report | duration | execs | execs/s | final coverage | crash inputs |\n|---|---|---:|---:|---|---:|\n'
for r in "$dir"/*.md; do
	[ -f "$r" ] || continue
	field() { awk -F' \\| ' -v k="$1" '$1 == "| " k { sub(/ \|$/, "", $2); print $2 }' "$r"; }
	printf '| [%s](%s) | %s | %s | %s | %s | %s |\n' "$(basename "$r" .md)" "$r" \
		"$(field duration | cut -d, -f1)" "$(field 'total executions')" "$(field 'executions/s')" \
		"$(field 'final coverage')" "$(field 'crash inputs')"
done
