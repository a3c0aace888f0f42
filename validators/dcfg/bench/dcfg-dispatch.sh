# Benchmark definition for a wide-dispatch DCFG-trace (sourced by
# validators/core/bench/bench.sh): corpus/dcfg/gen_walk.py's "fixed64" shape, 64
# blocks each ending in a 64-way indirect jump coded with fixed 6-bit codes,
# as in an interpreter's dispatch loop: every sequence character is one
# edge, and each step picks one of 64 codes. About one byte an edge.
# References as for DCFG-trace.
bench_sizes="100"
bench_references="python3-json jq"
bench_reference_max_mb=100
bench_items_name="edges"

bench_generate() {
	python3 "$top/corpus/dcfg/gen_walk.py" $(( $1 * 1000000 )) 64 1 "$2" fixed64
}

# The one chunk's EDGE_COUNT (gen_walk.py writes it on the chunk's line).
bench_items() {
	grep -o '^\[0, 0, [0-9]*' "$1" | awk -F', ' '{ s += $3 } END { print s }'
}

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" ;;
	jq) jq empty "$2" ;;
	esac
}
