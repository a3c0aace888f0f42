# Benchmark definition: a gzip-compressed DCFG, .dcfg.json.gz (sourced by
# validators/core/bench/bench.sh), against zcat to /dev/null.
. "$top/validators/dcfg/bench/dcfg.sh"
bench_floor_name=zcat

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 1000000 / 420 )) "$2.json" "$2.trace"
	gzip -6 -c "$2.json" > "$2"
	rm -f "$2.json"
}

bench_floor() { zcat "$1" > /dev/null; }

bench_reference() {
	case "$1" in
	python3-json) zcat "$2" | python3 -c 'import json, sys; json.load(sys.stdin)' ;;
	jq) zcat "$2" | jq empty ;;
	simdjson) zcat "$2" | "$(simdjson_validator)" ;;
	esac
}
