#!/bin/sh
# Measures tracelint -q per format and input size against the floor (cat) and
# the format's reference readers, and writes reports/bench.md. tracelint and
# the floor run in turn, BENCH_RUNS pairs after a warm-up with the file in the
# page cache (pairs.py): their medians, and the median and spread of the
# per-pair ratio. The goals table (goals.sh) comes first.
#
# Each row has validators/<format>/bench/<row>.sh defining:
#   bench_sizes                 sizes in MB to measure (default: $BENCH_SIZES)
#   bench_generate SIZE_MB OUT  writes a valid input of about SIZE_MB megabytes
#   bench_references            names of the reference readers (optional)
#   bench_reference NAME FILE   runs reference reader NAME on FILE
#   bench_reference_max_mb      largest size worth running the references on
#   bench_items_name            what bench_items counts, e.g. "edges" (optional)
#   bench_items FILE            prints how many of those FILE holds
#   bench_options               extra tracelint options (optional), e.g. --max-errors=0
#   bench_floor FILE            the floor to compare with (default: cat FILE), named by
#   bench_floor_name            (default cat), e.g. bzcat for a compressed input
#
# BENCH_CPUS (e.g. 0, or 0,1) runs every measured command under taskset -c,
# to measure one core and two on a larger machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
: "${BENCH_DIR:=/tmp/tracelint-bench}" "${BENCH_RUNS:=5}" "${BENCH_SIZES:=10 100 1000}"
: "${BENCH_FORMATS:=tfile xray dcfg dcfg-bz2 dcfg-gz dcfg-zst dcfg-program dcfg-errors dcfg-trace dcfg-dispatch umtrace xray-errors tfile-errors umtrace-errors}" "${TRACELINT:=$top/build/tracelint}"
: "${BENCH_CPUS:=}"
export TRACELINT top BENCH_DIR BENCH_CPUS
mkdir -p "$BENCH_DIR"
results="$BENCH_DIR/results.tsv"
: > "$results"

# Runs a command once; prints "seconds max_rss_kb". The wall time comes from
# nanosecond clock readings (GNU time's own is rounded to 10 ms, too coarse
# for a 10 MB input read at GB/s).
run_once() {
	start=$(date +%s%N)
	/usr/bin/time -f '%M' -o "$BENCH_DIR/rss.out" ${BENCH_CPUS:+taskset -c "$BENCH_CPUS"} "$@" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	echo "$(( (end - start) / 1000 )) $(tail -n 1 "$BENCH_DIR/rss.out")" |
		awk '{ printf "%.6f %s\n", $1 / 1e6, $2 }'
}

# Prints "seconds max_rss_kb" of the median run (by time) of a command.
measure() {
	runs=$1
	shift
	"$@" > /dev/null 2>&1 || true # warm-up: page cache and dynamic loader
	i=0
	while [ $i -lt "$runs" ]; do
		run_once "$@"
		i=$((i + 1))
	done | sort -n | awk '{ t[NR] = $1; m[NR] = $2 } END { k = int((NR + 1) / 2); print t[k], m[k] }'
}

input_bytes() { du -sb "$1" | awk '{print $1}'; }

for fmt in $BENCH_FORMATS; do
	def=$(ls "$top"/validators/*/bench/"$fmt".sh 2> /dev/null | head -n 1)
	[ -n "$def" ] || { echo "no benchmark definition for $fmt" >&2; continue; }
	unset -f bench_reference bench_items bench_floor 2> /dev/null || true
	bench_floor_name=cat
	bench_references=""
	bench_reference_max_mb=0
	bench_items_name=""
	bench_options=""
	bench_sizes="$BENCH_SIZES"
	. "$def"
	for mb in $bench_sizes; do
		input="$BENCH_DIR/$fmt-$mb"
		[ -e "$input" ] || bench_generate "$mb" "$input"
		bytes=$(input_bytes "$input")
		items=-
		[ -z "$bench_items_name" ] || items=$(bench_items "$input")
		"$TRACELINT" -q $bench_options "$input" > "$BENCH_DIR/verdict" 2>&1 || true
		verdict=$(tail -n 1 "$BENCH_DIR/verdict")
		# tracelint and the floor (reading every byte once, all member files of
		# a directory, or decompressing them) alternate, the ratio pair by pair.
		if [ "$bench_floor_name" != cat ]; then
			set -- sh -c ". '$def'; bench_floor '$input'"
		elif [ -d "$input" ]; then
			set -- cat $(find "$input" -maxdepth 1 -type f | sort)
		else
			set -- cat "$input"
		fi
		set -- $(python3 "$here/pairs.py" "$BENCH_RUNS" ${BENCH_CPUS:+taskset -c "$BENCH_CPUS"} \
			"$TRACELINT" -q $bench_options "$input" -- ${BENCH_CPUS:+taskset -c "$BENCH_CPUS"} "$@")
		tl_s=$1 cat_s=$2 ratio="$3 $4 $5" tl_kb=$6
		refs=$bench_references
		[ "$mb" -le "$bench_reference_max_mb" ] || refs=""
		[ -n "$refs" ] || refs=-
		for ref in $refs; do
			ref_s=- ref_kb=-
			if [ "$ref" != - ]; then
				# The reference readers take seconds to minutes: one measured run.
				set -- $(measure 1 sh -c ". '$def'; bench_reference '$ref' '$input'")
				ref_s=$1 ref_kb=$2
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fmt" "$mb" "$bytes" "$tl_s" \
				"$tl_kb" "$cat_s" "$ref" "$ref_s" "$ref_kb" "$items" "${bench_items_name:--}" \
				"$bench_floor_name" "$ratio" >> "$results"
			echo "$fmt $mb MB: tracelint ${tl_s}s ${tl_kb}KB, $bench_floor_name ${cat_s}s, $ref ${ref_s}s — $verdict"
		done
	done
done
sh "$here/goals.sh" > "$top/reports/bench/goals.md.tmp"
mv "$top/reports/bench/goals.md.tmp" "$top/reports/bench/goals.md"
sh "$here/report.sh" "$results" > "$top/reports/bench.md"
# The raw figures are regenerated with the report, so they are not committed.
raw=${BENCH_RESULTS:-$top/build/reports/bench-results.tsv}
mkdir -p "$(dirname "$raw")"
cp "$results" "$raw"
echo "wrote reports/bench.md (raw figures: $raw)"
