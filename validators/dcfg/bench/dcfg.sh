# Benchmark definition for Intel DCFG JSON (sourced by validators/core/bench/bench.sh).
# Inputs: corpus/dcfg/gen_large.py (a chain of four-block routines with loops,
# about 420 bytes of DCFG a routine). References: Python's json module and jq,
# the two JSON readers a DCFG user has at hand.
bench_sizes="10 150"
bench_references="python3-json jq"
bench_reference_max_mb=150

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 1000000 / 420 )) "$2" "$2.trace"
}

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" ;;
	jq) jq empty "$2" ;;
	esac
}
