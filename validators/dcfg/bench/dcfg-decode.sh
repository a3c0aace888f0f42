#!/bin/sh
# Decoder-only DCFG-trace benchmark (issue 8: >= 100 M edges/s). Builds
# validators/dcfg/bench/dcfg_decode.c against build/libtracelint.a (make first),
# generates a random-walk trace with corpus/dcfg/gen_walk.py unless one is
# given, and prints decoded edges per second (best of RUNS).
#   sh validators/dcfg/bench/dcfg-decode.sh [TRACE.json] [RUNS] [reference]
# ("reference": the code-by-code decoder the lookup tables replaced)
set -e
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${BENCH_DIR:-/tmp/tracelint-bench}
mkdir -p "$out"
trace=${1:-$out/walk30m.trace.json}
if [ ! -f "$trace" ]; then
	python3 "$top/corpus/dcfg/gen_walk.py" 30000000 20000 7 "$trace"
fi
${CC:-cc} -std=c11 -O2 -DNDEBUG -I"$top" -I"$top/validators/include" -I"$top/validators/dcfg" -I"$top/validators/core" -I"$top/validators/json" -I"$top/build/gen" \
	-o "$out/dcfg_decode" "$top/validators/dcfg/bench/dcfg_decode.c" "$top/build/libtracelint.a" -ljson-c -lz -lbz2 -lzstd -lexpat -lm
"$out/dcfg_decode" "$trace" "${2:-5}" ${3:-}
