# Benchmark definition for LLVM XRay (sourced by validators/core/bench/bench.sh).
# Inputs: FDR version 5 traces from corpus/xray/xraygen.c (1 MiB buffers of
# call pairs, one thread). References: llvm-xray 14 (about 0.5 us a record).
bench_references="llvm-xray-fdr-dump"
bench_reference_max_mb=200
bench_items_name="records"

xray_gen() {
	gen="$BENCH_DIR/xraygen"
	[ -x "$gen" ] || cc -std=c11 -O2 -o "$gen" "$top/corpus/xray/xraygen.c"
	echo "$gen"
}

bench_generate() {
	"$(xray_gen)" --big $(( $1 * 1000000 )) "$2" > "$2.records"
}

bench_reference() {
	case "$1" in
	llvm-xray-fdr-dump) llvm-xray fdr-dump "$2" ;;
	esac
}

# The generator prints how many records it wrote; kept next to the input.
bench_items() {
	awk '{ print $1 }' "$1.records"
}
