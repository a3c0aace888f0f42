# Benchmark definition for an error-heavy XRay trace (sourced by
# validators/core/bench/bench.sh): basic mode, every 32-byte record of the undefined
# type 4 (corpus/gen_error_heavy.py), so every record is an error: "records/s"
# must not fall as the size (and the number of defects) grows.
bench_sizes="10 100"
# no limit: every defect is reported (-q prints only the verdict)
bench_options="--max-errors=0"
bench_items_name="defective records"

bench_generate() {
	python3 "$top/corpus/gen_error_heavy.py" xray $(( $1 * 1000000 / 32 )) "$2" > "$2.records"
}

bench_items() {
	cat "$1.records"
}
