# Benchmark definition for an error-heavy GDB trace file (sourced by
# validators/core/bench/bench.sh): every 6-byte frame names the undefined tracepoint
# 0x8000 (corpus/gen_error_heavy.py), one error a frame. "frames/s" must not
# fall as the number of defects grows.
bench_sizes="10 100"
# no limit: every defect is reported (-q prints only the verdict)
bench_options="--max-errors=0"
bench_items_name="defective frames"

bench_generate() {
	python3 "$top/corpus/gen_error_heavy.py" tfile $(( $1 * 1000000 / 6 )) "$2" > "$2.records"
}

bench_items() {
	cat "$1.records"
}
