#!/bin/sh
# Puts reports/bench/goals.md in reports/bench.md in place of its goals
# section (or before its first section), so that `make bench-goals` updates
# the goals table without rerunning every per-format row.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
report="$top/reports/bench.md" goals="$top/reports/bench/goals.md"
awk -v goals="$goals" '
function put(   line) { while ((getline line < goals) > 0) print line; print ""; done = 1 }
/^## Goals:/ { put(); skip = 1; next }
/^## / { if (!done) put(); skip = 0 }
!skip { print }
END { if (!done) put() }' "$report" > "$report.tmp"
mv "$report.tmp" "$report"
