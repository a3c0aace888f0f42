#!/bin/sh
# make demo: validates every case of the bundled corpus and prints one verdict
# row per file, with the verdict the corpus expects beside it.
tl=${1:-build/tracelint}
dir=$(dirname "$0")
. "$dir/cases.sh"
printf '%-11s %-8s %-52s %-8s %6s %6s  %s\n' FORMAT KIND CASE VERDICT ERRORS WARNS EXPECTED
total=0 agree=0
for fmtdir in "$dir"/*/; do
	fmt=$(basename "$fmtdir")
	for kind in valid invalid regressions; do
		[ -d "$fmtdir$kind" ] || continue
		for p in "$fmtdir$kind"/*; do
			is_case "$p" || continue
			line=$(case_run "$tl" "$p" -q 2>&1 | tail -n 1)
			verdict=$(echo "$line" | sed -n 's/.*: \(valid\|invalid\) (.*/\1/p')
			errors=$(echo "$line" | sed -n 's/.*: \([0-9]*\) errors\{0,1\},.*/\1/p')
			warns=$(echo "$line" | sed -n 's/.*, \([0-9]*\) warnings\{0,1\}.*/\1/p')
			want=valid
			[ "$kind" = invalid ] && want=invalid
			if [ "$kind" = regressions ]; then
				awk '$2 == "error" { e = 1 } END { exit !e }' "$p.expected" 2>/dev/null && want=invalid
				# a case that must end without a verdict (a resource limit)
				grep -q '^# exit status: 2$' "$p.expected" 2>/dev/null && want=error
			fi
			total=$((total + 1))
			[ "${verdict:-error}" = "$want" ] && agree=$((agree + 1))
			printf '%-11s %-8s %-52s %-8s %6s %6s  %s\n' "$fmt" "$kind" "$(basename "$p" | cut -c1-52)" \
				"${verdict:-error}" "${errors:--}" "${warns:--}" "$want"
		done
	done
done
echo
echo "$total files; $agree verdicts as the corpus expects"
[ "$total" = "$agree" ]
