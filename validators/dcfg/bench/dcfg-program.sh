# Benchmark definition for a realistic DCFG (sourced by validators/core/bench/bench.sh).
# Inputs: corpus/dcfg/gen_program.py, a random structured program (loops,
# calls, eight images) of which the DCFG lists the executed blocks, so ids
# have gaps and routines vary, unlike gen_large.py's identical chain. About
# 1,220 bytes of DCFG a routine; writing 100 MB takes about a minute and
# 3 GB of Python. References as for DCFG.
bench_sizes="100"
bench_references="python3-json jq"
bench_reference_max_mb=100

bench_generate() {
	python3 "$top/corpus/dcfg/gen_program.py" --routines $(( $1 * 1000000 / 1220 )) --budget 0 --threads 1 \
		--images 8 "$2" "$2.trace" 2> /dev/null
}

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" ;;
	jq) jq empty "$2" ;;
	esac
}
