# Compares branch coverage (lines "DIR BRANCHES TAKEN PERCENT") with the
# committed baseline: exit 1 when a directory dropped by more than `slack`
# points or vanished.
FNR == NR { base[$1] = $4; next }
{ now[$1] = $4 }
END {
	bad = 0
	for (d in base) {
		if (!(d in now)) { printf "coverage: %s has no figure any more (baseline %.1f%%)\n", d, base[d]; bad = 1; continue }
		if (now[d] + slack < base[d]) {
			printf "coverage: %s branches %.1f%%, below the baseline %.1f%%\n", d, now[d], base[d]; bad = 1
		} else {
			printf "coverage: %s branches %.1f%% (baseline %.1f%%)\n", d, now[d], base[d]
		}
	}
	exit bad
}
