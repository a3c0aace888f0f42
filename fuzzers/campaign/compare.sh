#!/bin/sh
# compare.sh: the same target, the same seconds, the same seeds and libFuzzer
# seed, once with plain mutation and once with the structure-aware mutator,
# each from an empty campaign corpus. Writes <target>-mutator.tsv
# (variant, execs, exec/s, final cov, final ft, corpus files) and both timelines
# under $REPORTS/fuzzing/<seed set>/ (REPORTS defaults to $BUILD/reports;
# crash inputs go to $BUILD/fuzz-work/crashes-<target>): SEED=<file> starts both from that one
# file (seed set "one-seed"), otherwise from every corpus case ("full-corpus").
set -eu
. fuzzers/campaign/common.sh
TARGET=${TARGET:?} SECONDS=${SECONDS:-120} BUILD=${BUILD:-build}
REPORTS=${REPORTS:-$BUILD/reports}
name=$(target_source_name "$TARGET")
work=$(mktemp -d /tmp/tracelint-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -n "${SEED:-}" ]; then
	mkdir -p "$work/seeds" && cp "$SEED" "$work/seeds/"
	set_name=one-seed
else
	collect_seeds "$TARGET" "$work/seeds"
	set_name=full-corpus
fi
dict=
for fmt in $(target_formats "$TARGET"); do
	[ -f "fuzzers/dict/$fmt.dict" ] && dict=fuzzers/dict/$fmt.dict
done
dest=$REPORTS/fuzzing/$set_name
mkdir -p "$dest"
out=$dest/$name-mutator.tsv
printf 'variant\tseconds\texecs\texec_per_s\tcov\tft\tcorpus_files\n' > "$out"
for variant in plain mut; do
	bin=$BUILD/fuzz/${name}_fuzzer
	[ $variant = mut ] && bin=$BUILD/fuzz/${name}_mut_fuzzer
	mkdir -p "$work/$variant"
	set -- -max_total_time="$SECONDS" -seed=1 -timeout=10 -print_final_stats=1 -artifact_prefix="$work/"
	[ -n "$dict" ] && set -- "$@" -dict="$dict"
	nice -n 10 "$bin" "$@" "$work/$variant" "$work/seeds" > "$work/$variant.log" 2>&1 || true
	awk '/^#[0-9]+/ && /cov:/ {
		n = substr($1, 2); cov = ft = rate = 0
		for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i+1); if ($i == "ft:") ft = $(i+1); if ($i == "exec/s:") rate = $(i+1) }
		printf "%.1f\t%s\t%s\t%s\n", (rate > 0 ? n / rate : 0), n, cov, ft
	}' "$work/$variant.log" > "$dest/$name-$variant-timeline.tsv"
	execs=$(awk -F: '/number_of_executed_units/ {gsub(/ /,"",$NF); print $NF}' "$work/$variant.log")
	rate=$(awk -F: '/average_exec_per_sec/ {gsub(/ /,"",$NF); print $NF}' "$work/$variant.log")
	last=$(tail -1 "$dest/$name-$variant-timeline.tsv")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$variant" "$SECONDS" "$execs" "$rate" \
		"$(echo "$last" | cut -f3)" "$(echo "$last" | cut -f4)" "$(find "$work/$variant" -type f | wc -l)" >> "$out"
	if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* > /dev/null 2>&1; then
		echo "crash inputs kept in $BUILD/fuzz-work/crashes-$name"
		mkdir -p "$BUILD/fuzz-work/crashes-$name"
		cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$BUILD/fuzz-work/crashes-$name"/ 2>/dev/null || true
	fi
done
cat "$out"
