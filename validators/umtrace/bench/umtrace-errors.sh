# Benchmark definition for an error-heavy UMTracer trace (sourced by
# validators/core/bench/bench.sh): a umtgen trace (about 77 bytes a record) whose
# instruction records all have their flags byte cleared
# (corpus/gen_error_heavy.py), one UMT-INS-RECORD-MODE error each.
bench_sizes="10 100"
# no limit: every defect is reported (-q prints only the verdict)
bench_options="--max-errors=0"
bench_items_name="defective records"

bench_generate() {
	gen="$BENCH_DIR/umtgen"
	[ -x "$gen" ] || cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -o "$gen" "$top/corpus/umtrace/umtgen.c"
	"$gen" gen "$2" -n $(( $1 * 1000000 / 77 )) -t 16 -m "$2.map" > /dev/null
	python3 "$top/corpus/gen_error_heavy.py" umtrace "$2" > "$2.records"
	rm -f "$2.map"
}

bench_items() {
	cat "$1.records"
}
