# Benchmark definition for an error-heavy XRay trace (sourced by
# validators/core/bench/bench.sh): basic mode, every 32-byte record of the undefined
# type 4 (corpus/gen_error_heavy.py), so every record is an error: "records/s"
# must not fall as the size (and the number of defects) grows.
. "$top/validators/core/bench/errors.sh"
bench_items_name="defective records"

bench_generate() {
	gen_error_heavy xray $(( $1 * 1000000 / 32 )) "$2"
}
