# Benchmark definition for an error-heavy UMTracer trace (sourced by
# validators/core/bench/bench.sh): a umtgen trace (about 77 bytes a record) whose
# instruction records all have their flags byte cleared
# (corpus/gen_error_heavy.py), one UMT-INS-RECORD-MODE error each.
. "$top/validators/core/bench/errors.sh"
bench_items_name="defective records"

bench_generate() {
	gen="$BENCH_DIR/umtgen"
	[ -x "$gen" ] || cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -o "$gen" "$top/corpus/umtrace/umtgen.c"
	"$gen" gen "$2" -n $(( $1 * 1000000 / 77 )) -t 16 -m "$2.map" > /dev/null
	gen_error_heavy umtrace "$2"
	rm -f "$2.map"
}
