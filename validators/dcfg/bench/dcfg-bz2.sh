# Benchmark definition: a DCFG as SDE writes it, .dcfg.json.bz2 (sourced by
# validators/core/bench/bench.sh). The floor is bzcat to /dev/null: the
# target is tracelint within 1.1x of it on one core and below it on two
# (bzip2 blocks decoded in parallel, validators/core/bzip2_par.h). The
# references read the decompressed stream, as a user would pipe it.
. "$top/validators/dcfg/bench/dcfg.sh"
bench_floor_name=bzcat

bench_generate() {
	python3 "$top/corpus/dcfg/gen_large.py" $(( $1 * 1000000 / 420 )) "$2.json" "$2.trace"
	bzip2 -9 -c "$2.json" > "$2"
	rm -f "$2.json"
}

bench_floor() { bzcat "$1" > /dev/null; }

bench_reference() {
	case "$1" in
	python3-json) python3 -c 'import bz2, json, sys; json.load(bz2.open(sys.argv[1]))' "$2" ;;
	jq) bzcat "$2" | jq empty ;;
	simdjson) bzcat "$2" | "$(simdjson_validator)" ;;
	esac
}
