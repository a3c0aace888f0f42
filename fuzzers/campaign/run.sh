#!/bin/sh
# One fuzzing campaign: make fuzz-run TARGET=xray SECONDS=300 [JOBS=1]
# [ENGINE=libfuzzer|afl] [MUTATOR=1]. Seeds come from corpus/; the growing
# campaign corpus lives in $FUZZ_WORK (default $BUILD/fuzz-work), never in
# the sources. Afterwards: corpus minimised, crashes de-duplicated and
# minimised into regression cases under $BUILD/triage/<format>/regressions/
# (fuzzers/campaign/triage.sh), and a report written to
# $REPORTS/fuzz/<date>-<target>[-mut|-afl].md (REPORTS defaults to
# $BUILD/reports; not in SMOKE mode, which only fails on a crash).
set -eu
. fuzzers/campaign/common.sh

TARGET=${TARGET:?TARGET=<name>} SECONDS=${SECONDS:-300} JOBS=${JOBS:-1}
ENGINE=${ENGINE:-libfuzzer} MUTATOR=${MUTATOR:-0} BUILD=${BUILD:-build} SMOKE=${SMOKE:-0}
FUZZ_WORK=${FUZZ_WORK:-$BUILD/fuzz-work} REPORTS=${REPORTS:-$BUILD/reports}
name=$(target_source_name "$TARGET")
variant=$name
[ "$MUTATOR" != 1 ] || variant=${name}_mut
[ "$ENGINE" != afl ] || variant=$variant-afl
work=$FUZZ_WORK/$variant
stamp=$(date -u +%Y-%m-%d)
# The engines run at nice +10 relative to the caller (capped at 19 by the kernel).
niceness=$(( $(nice) + 10 > 19 ? 19 : $(nice) + 10 ))
mkdir -p "$work/corpus" "$work/artifacts"
rm -rf "$work/seeds" "$work/artifacts"/* "$work/log.txt"
collect_seeds "$TARGET" "$work/seeds"
dict=
for fmt in $(target_formats "$TARGET"); do
	[ ! -f "fuzzers/dict/$fmt.dict" ] || cat "fuzzers/dict/$fmt.dict" >> "$work/dict"
done
: > "$work/dict.tmp"
[ ! -f "$work/dict" ] || sort -u "$work/dict" > "$work/dict.tmp"
mv "$work/dict.tmp" "$work/dict"
[ ! -s "$work/dict" ] || dict=$work/dict
before=$(dir_size "$work/corpus")
seeds=$(dir_size "$work/seeds")

run_libfuzzer() {
	bin=$BUILD/fuzz/${variant}_fuzzer
	[ -x "$bin" ] || { echo "$bin: not built (make fuzz fuzz-mutators)"; exit 2; }
	set -- -max_total_time="$SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/"
	[ -z "$dict" ] || set -- "$@" -dict="$dict"
	[ "$JOBS" -le 1 ] || set -- "$@" -fork="$JOBS" -ignore_crashes=1
	echo "campaign: $bin $* ($SECONDS s)"
	status=0
	nice -n 10 "$bin" "$@" "$work/corpus" "$work/seeds" > "$work/log.txt" 2>&1 || status=$?
	# Minimise: the smallest set of inputs with the same features.
	mkdir -p "$work/corpus.min"
	rm -f "$work/corpus.min"/*
	nice -n 10 "$bin" -merge=1 "$work/corpus.min" "$work/corpus" "$work/seeds" > "$work/merge.txt" 2>&1 || true
	rm -rf "$work/corpus" && mv "$work/corpus.min" "$work/corpus"
	execs=$(awk -F: '/stat::number_of_executed_units/ {gsub(/ /,"",$NF); print $NF}' "$work/log.txt" | tail -1)
	rate=$(awk -F: '/stat::average_exec_per_sec/ {gsub(/ /,"",$NF); print $NF}' "$work/log.txt" | tail -1)
	rss=$(awk -F: '/stat::peak_rss_mb/ {gsub(/ /,"",$NF); print $NF}' "$work/log.txt" | tail -1)
	# Timeline: libFuzzer's exec/s is the running average, so time = execs / rate.
	awk '/^#[0-9]+/ && /cov:/ {
		n = substr($1, 2); cov = ft = rate = 0
		for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i+1); if ($i == "ft:") ft = $(i+1); if ($i == "exec/s:") rate = $(i+1) }
		t = rate > 0 ? n / rate : 0
		print t "\t" n "\t" cov "\t" ft
	}' "$work/log.txt" > "$work/timeline.tsv"
	final=$(tail -1 "$work/timeline.tsv" | awk '{print "cov " $3 ", ft " $4}')
	crashes=$(find "$work/artifacts" -type f | sort)
	engine="libFuzzer (clang 14, -fsanitize=fuzzer,address,undefined)"
	if [ "$JOBS" -gt 1 ]; then engine="$engine, -fork=$JOBS"; fi
	if [ "$MUTATOR" = 1 ]; then engine="$engine + structure-aware mutator"; fi
	triage_bin=$bin
}

run_afl() {
	bin=$BUILD/fuzz-afl/${name}_afl
	[ -x "$bin" ] || { echo "$bin: not built (make fuzz-afl)"; exit 2; }
	out=$work/afl-out
	rm -rf "$out"
	# AFL wants small seeds: the corpus files above 1 MB are left out.
	mkdir -p "$work/afl-in"; rm -f "$work/afl-in"/*
	find "$work/seeds" "$work/corpus" -type f -size -1024k -exec cp {} "$work/afl-in"/ \; 2>/dev/null
	# afl-cmin refuses /tmp without AFL_ALLOW_TMP.
	export AFL_ALLOW_TMP=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
	[ "$MUTATOR" != 1 ] || export AFL_CUSTOM_MUTATOR_LIBRARY="$(pwd)/$BUILD/fuzz-afl/libtlm_$name.so"
	set -- -i "$work/afl-in" -o "$out" -m none -t 10000 -V "$SECONDS"
	[ -z "$dict" ] || set -- "$@" -x "$dict"
	i=1
	while [ "$i" -lt "$JOBS" ]; do
		nice -n 10 afl-fuzz "$@" -S "sec$i" -- "$bin" > "$work/afl-sec$i.txt" 2>&1 &
		i=$((i + 1))
	done
	echo "campaign: afl-fuzz $* -M main -- $bin"
	nice -n 10 afl-fuzz "$@" -M main -- "$bin" > "$work/log.txt" 2>&1 || true
	wait
	rm -rf "$work/corpus"; mkdir -p "$work/corpus"
	nice -n 10 afl-cmin -i "$out/main/queue" -o "$work/corpus" -m none -t 10000 -- "$bin" > "$work/merge.txt" 2>&1 || true
	stats=$out/main/fuzzer_stats
	execs=$(awk -F: '$1 ~ /^execs_done/ {gsub(/ /,"",$2); print $2}' "$stats")
	rate=$(awk -F: '$1 ~ /^execs_per_sec/ {gsub(/ /,"",$2); print $2}' "$stats")
	# afl-fuzz's peak_rss_mb counts its own children, not the persistent
	# target's forks (it reads 0), so measure the target replaying the
	# minimised corpus: the largest resident set, in KB, of GNU time.
	rm -f "$work/rss.txt"
	find "$work/corpus" -type f -exec /usr/bin/time -a -o "$work/rss.txt" -f '%M' "$bin" {} + > /dev/null 2>&1 || true
	rss=$(awk '$1 ~ /^[0-9]+$/ && $1 > m { m = $1 } END { if (m) printf "%.0f", m / 1024 }' "$work/rss.txt" 2>/dev/null)
	rss_how=" (the target replaying the minimised corpus)"
	# plot_data: relative_time, ..., map_size (%), ..., edges_found is the last column in 4.x.
	awk -F', *' '!/^#/ {print $1 "\t" $12 "\t" $7 "\t" $NF}' "$out/main/plot_data" > "$work/timeline.tsv" 2>/dev/null || true
	final="edges $(awk -F: '$1 ~ /^edges_found/ {gsub(/ /,"",$2); print $2}' "$stats")"
	crashes=$(find "$out"/*/crashes -type f -name 'id:*' 2>/dev/null | sort)
	engine="AFL++ 4.04c (afl-clang-fast, ASan+UBSan, persistent mode, shared-memory test cases, $JOBS instance(s))"
	if [ "$MUTATOR" = 1 ]; then engine="$engine + structure-aware custom mutator"; fi
	triage_bin=$BUILD/fuzz/${name}_fuzzer
}

case $ENGINE in
libfuzzer) run_libfuzzer ;;
afl) run_afl ;;
*) echo "ENGINE=$ENGINE: libfuzzer or afl"; exit 2 ;;
esac

after=$(dir_size "$work/corpus")
ncrash=$(printf '%s' "$crashes" | grep -c . || true)
cases=
if [ "$ncrash" -gt 0 ]; then
	echo "$ncrash crash input(s); triage:"
	# shellcheck disable=SC2086
	cases=$(CORPUS_ROOT=${CORPUS_ROOT:-$BUILD/triage} sh fuzzers/campaign/triage.sh "$TARGET" "$triage_bin" $crashes |
		tee /dev/stderr | sed -n 's/^regression: //p')
fi
echo "$TARGET: ${execs:-?} execs at ${rate:-?}/s; $final; corpus $before -> $after; $ncrash crash input(s)"
if [ "$SMOKE" = 1 ]; then
	[ "$ncrash" -eq 0 ] || { tail -30 "$work/log.txt"; exit 1; }
	exit 0
fi

# A second campaign of the same variant on the same day keeps the first report.
report_name=$stamp-$variant
[ ! -e "$REPORTS/fuzz/$report_name.md" ] || report_name=$report_name-$(date -u +%H%M)
report=$REPORTS/fuzz/$report_name.md
mkdir -p "$REPORTS/fuzz" "$REPORTS/fuzzing"
cp "$work/timeline.tsv" "$REPORTS/fuzzing/$report_name.tsv"
{
	echo "# Fuzzing campaign: $TARGET ($stamp)"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| engine | $engine |"
	echo "| target | \`$bin\` |"
	echo "| duration | $SECONDS s, $JOBS job(s), nice $niceness on a shared $(nproc)-core machine |"
	echo "| total executions | ${execs:-?} |"
	echo "| executions/s | ${rate:-?} |"
	echo "| peak RSS | ${rss:-?} MB${rss_how:-} |"
	echo "| seeds (corpus/) | $seeds |"
	echo "| campaign corpus before | $before |"
	echo "| campaign corpus after (minimised) | $after |"
	echo "| final coverage | $final |"
	echo "| crash inputs | $ncrash |"
	echo "| regression cases | ${cases:-none} |"
	echo
	echo "Coverage over time (seconds, executions, edges/cov, features/ft; full series in"
	echo "\`$REPORTS/fuzzing/$report_name.tsv\`):"
	echo
	echo "| s | execs | cov | ft |"
	echo "|---:|---:|---:|---:|"
	lines=$(wc -l < "$work/timeline.tsv")
	awk -v n="$lines" 'BEGIN { step = n > 12 ? int(n / 12) : 1 }
		NR % step == 0 || NR == n { printf "| %.0f | %s | %s | %s |\n", $1, $2, $3, $4 }' "$work/timeline.tsv"
} > "$report"
echo "report: $report"
