# Benchmark definition for UMTracer trace directories (sourced by
# validators/core/bench/bench.sh). Inputs: corpus/umtrace/umtgen.c (a random but
# consistent 64-bit trace, 16 threads, about 77 bytes a record over its 11
# files). No reference reader exists outside Intel's own tools.
bench_items_name="records"

umt_gen() {
	gen="$BENCH_DIR/umtgen"
	[ -x "$gen" ] || cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -o "$gen" "$top/corpus/umtrace/umtgen.c"
	echo "$gen"
}

bench_generate() {
	"$(umt_gen)" gen "$2" -n $(( $1 * 1000000 / 77 )) -t 16 > /dev/null
	echo $(( $1 * 1000000 / 77 )) > "$2.records"
}

bench_items() {
	cat "$1.records"
}
