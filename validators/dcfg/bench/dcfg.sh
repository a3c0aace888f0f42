# Benchmark definition for Intel DCFG JSON (sourced by validators/core/bench/bench.sh).
# Inputs: corpus/dcfg/gen_large.py (a chain of four-block routines with loops,
# about 420 bytes of DCFG a routine). References: Python's json module and jq,
# the two JSON readers a DCFG user has at hand, and simdjson (when
# libsimdjson-dev is installed), the practical ceiling of JSON validation.
bench_sizes="10 150"
bench_reference_max_mb=150

# Builds the simdjson validator once per bench directory; prints its path.
simdjson_validator() {
	bin="$BENCH_DIR/simdjson-validate"
	[ -x "$bin" ] || c++ -O2 -std=c++17 -o "$bin" "$top/validators/dcfg/bench/simdjson_validate.cpp" \
		-lsimdjson > /dev/null 2>&1 || return 1
	echo "$bin"
}

bench_references="python3-json jq"
! simdjson_validator > /dev/null || bench_references="$bench_references simdjson"

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 1000000 / 420 )) "$2" "$2.trace"
}

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$2" ;;
	jq) jq empty "$2" ;;
	simdjson) "$(simdjson_validator)" "$2" ;;
	esac
}
