# Benchmark definition for DCFG-trace JSON (sourced by validators/core/bench/bench.sh).
# Inputs: the trace half of corpus/dcfg/gen_large.py (its sequence written
# literally, so the decoder visits every edge); the trace is about a third of
# the DCFG's size. References as for DCFG: Python's json module and jq, which
# only parse the JSON and decode nothing.
bench_sizes="10 100"
bench_references="python3-json jq"
bench_reference_max_mb=100

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 3 * 1000000 / 420 )) "$2.dcfg" "$2"
}

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" ;;
	jq) jq empty "$2" ;;
	esac
}
