# Benchmark definition for an error-heavy GDB trace file (sourced by
# validators/core/bench/bench.sh): every 6-byte frame names the undefined tracepoint
# 0x8000 (corpus/gen_error_heavy.py), one error a frame. "frames/s" must not
# fall as the number of defects grows.
. "$top/validators/core/bench/errors.sh"
bench_items_name="defective frames"

bench_generate() {
	gen_error_heavy tfile $(( $1 * 1000000 / 6 )) "$2"
}
