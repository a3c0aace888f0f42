#!/bin/sh
# Measures tracelint -q per format and input size against the floor (cat) and
# the format's reference reader, each as the median of BENCH_RUNS runs after a
# warm-up with the file in the page cache, and writes reports/bench.md.
#
# Each format has reports/bench/<format>.sh defining:
#   bench_sizes                 sizes in MB to measure (default: $BENCH_SIZES)
#   bench_generate SIZE_MB OUT  writes a valid input of about SIZE_MB megabytes
#   bench_reference FILE        runs the reference reader on FILE (optional)
#   bench_reference_name        how the report names it
#   bench_reference_max_mb      largest size worth running the reference on
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BENCH_DIR:=/tmp/tracelint-bench}" "${BENCH_RUNS:=5}" "${BENCH_SIZES:=10 100 1000}"
: "${BENCH_FORMATS:=tfile xray dcfg dcfg-trace umtrace}" "${TRACELINT:=$top/build/tracelint}"
export TRACELINT top
mkdir -p "$BENCH_DIR"
results="$BENCH_DIR/results.tsv"
: > "$results"

# Prints "seconds max_rss_kb" of the median run (by time) of a command.
measure() {
	i=0
	"$@" > /dev/null 2>&1 || true # warm-up: page cache and dynamic loader
	while [ $i -lt "$BENCH_RUNS" ]; do
		/usr/bin/time -f '%e %M' -o "$BENCH_DIR/time.out" "$@" > /dev/null 2>&1 || true
		cat "$BENCH_DIR/time.out"
		i=$((i + 1))
	done | sort -n | awk '{ t[NR] = $1; m[NR] = $2 } END { k = int((NR + 1) / 2); print t[k], m[k] }'
}

input_bytes() { du -sb "$1" | awk '{print $1}'; }

for fmt in $BENCH_FORMATS; do
	def="$here/$fmt.sh"
	[ -f "$def" ] || { echo "no benchmark definition for $fmt" >&2; continue; }
	unset -f bench_reference 2> /dev/null || true
	bench_reference_name=""
	bench_reference_max_mb=0
	bench_sizes="$BENCH_SIZES"
	. "$def"
	for mb in $bench_sizes; do
		input="$BENCH_DIR/$fmt-$mb"
		[ -e "$input" ] || bench_generate "$mb" "$input"
		bytes=$(input_bytes "$input")
		"$TRACELINT" -q "$input" > "$BENCH_DIR/verdict" 2>&1 || true
		verdict=$(tail -n 1 "$BENCH_DIR/verdict")
		set -- $(measure "$TRACELINT" -q "$input")
		tl_s=$1 tl_kb=$2
		# The floor: reading every byte once (all member files of a directory).
		set -- $(measure sh -c "if [ -d '$input' ]; then cat '$input'/*; else cat '$input'; fi")
		cat_s=$1
		ref_s=- ref_kb=-
		if command -v bench_reference > /dev/null 2>&1 && [ "$mb" -le "$bench_reference_max_mb" ]; then
			saved=$BENCH_RUNS
			BENCH_RUNS=1 # the reference readers take seconds to minutes
			set -- $(measure sh -c ". '$def'; bench_reference '$input'")
			BENCH_RUNS=$saved
			ref_s=$1 ref_kb=$2
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fmt" "$mb" "$bytes" "$tl_s" "$tl_kb" \
			"$cat_s" "$ref_s" "$ref_kb" "${bench_reference_name:--}" >> "$results"
		echo "$fmt $mb MB: tracelint ${tl_s}s ${tl_kb}KB, cat ${cat_s}s, ${bench_reference_name:-reference} ${ref_s}s — $verdict"
	done
done
sh "$here/report.sh" "$results" > "$top/reports/bench.md"
echo "wrote reports/bench.md"
