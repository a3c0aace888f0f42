#!/bin/sh
# Decoder-only DCFG-trace benchmark. Builds validators/dcfg/bench/dcfg_decode.c
# against build/libtracelint.a (make first), generates a random-walk trace
# with corpus/dcfg/gen_walk.py unless one is given, and prints decoded edges
# per second (CPU time, best of RUNS).
#   sh validators/dcfg/bench/dcfg-decode.sh [TRACE.json] [RUNS] [reference]
#   sh validators/dcfg/bench/dcfg-decode.sh shapes [RUNS] [MILLION_EDGES] [reference]
# ("reference": the code-by-code decoder the tables replace; "shapes": one
# row per table shape: 16-, 64- and 256-way dispatch with fixed and skewed
# codes over 4 states, 64-way over 64 and 1000 states, the mixed walk; and
# gen_program.py's interpreter loops, one 64- or 256-way dispatch whose
# handlers return to it, uniform and skewed, about 6 M edges)
set -e
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${BENCH_DIR:-/tmp/tracelint-bench}
mkdir -p "$out"
${CC:-cc} -std=c11 -O2 -DNDEBUG -I"$top" -I"$top/validators/include" -I"$top/validators/dcfg" -I"$top/validators/core" -I"$top/validators/json" -I"$top/build/gen" \
	-o "$out/dcfg_decode" "$top/validators/dcfg/bench/dcfg_decode.c" "$top/build/libtracelint.a" -ljson-c -lz -lbz2 -lzstd -lexpat -lm
if [ "${1:-}" = shapes ]; then
	runs=${2:-5}
	edges=$(( ${3:-10} * 1000000 ))
	ref=${4:-}
	for row in "fixed16 4" "fixed64 4" "fixed256 4" "skew16 4" "skew64 4" "skew256 4" \
		"fixed64 64" "fixed64 1000" "skew256 1000" "mixed 20000"; do
		set -- $row
		trace=$out/walk-$1-$2-$edges.trace.json
		[ -f "$trace" ] || python3 "$top/corpus/dcfg/gen_walk.py" "$edges" "$2" 1 "$trace" "$1"
		printf '%-9s %5s states: %s\n' "$1" "$2" "$("$out/dcfg_decode" "$trace" "$runs" $ref)"
	done
	for row in "64" "64 --dispatch-skew" "256" "256 --dispatch-skew"; do
		set -- $row
		trace=$out/dispatch-$1${2:+-skew}.trace.json
		[ -f "$trace" ] || python3 "$top/corpus/dcfg/gen_program.py" --routines 4 --threads 1 --images 1 --budget 2000000 \
			--chunk 1000000 --dispatch "$1" ${2:-} --dispatch-trips 2000000 "$out/dispatch.dcfg.json" "$trace" > /dev/null
		printf '%-13s %11s: %s\n' "dispatch$1" "${2:+skew}" "$("$out/dcfg_decode" "$trace" "$runs" $ref)"
	done
	exit 0
fi
trace=${1:-$out/walk30m.trace.json}
if [ ! -f "$trace" ]; then
	python3 "$top/corpus/dcfg/gen_walk.py" 30000000 20000 7 "$trace"
fi
"$out/dcfg_decode" "$trace" "${2:-5}" ${3:-}
