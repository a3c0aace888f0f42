# Benchmark definition: a zstd-compressed DCFG, .dcfg.json.zst (sourced by
# validators/core/bench/bench.sh), against zstdcat to /dev/null.
. "$top/validators/dcfg/bench/dcfg.sh"
bench_floor_name=zstdcat

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 1000000 / 420 )) "$2.json" "$2.trace"
	zstd -q -c "$2.json" > "$2"
	rm -f "$2.json"
}

bench_floor() { zstdcat "$1" > /dev/null; }

bench_reference() {
	case "$1" in
	python3-json) zstdcat "$2" | python3 -c 'import json, sys; json.load(sys.stdin)' ;;
	jq) zstdcat "$2" | jq empty ;;
	simdjson) zstdcat "$2" | "$(simdjson_validator)" ;;
	esac
}
