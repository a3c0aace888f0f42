# Benchmark definition for an error-heavy DCFG (sourced by validators/core/bench/bench.sh):
# a FILE_NAMES table of empty rows, each one a JSON-TABLE-COLUMN error
# (3 bytes a row: 3 MB = 10^6 defective rows, 30 MB = 10^7). The default
# --max-errors shows 100 of them; the rest must cost no more than a valid
# row, so "M rows/s" stays the same from one size to the next.
bench_sizes="3 30"

bench_generate() {
	python3 -c "import sys; n = int(sys.argv[1]); open(sys.argv[2], 'w').write('{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ]' + ',[]' * n + '] }')" \
		$(( $1 * 1000000 / 3 )) "$2"
}

bench_items_name="defective rows"
bench_items() {
	"$TRACELINT" -q "$1" | sed -n 's/.*dcfg: \([0-9]*\) errors.*/\1/p'
}
