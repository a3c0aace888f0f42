# What the error-heavy rows share (sourced by their definitions, e.g.
# validators/xray/bench/xray-errors.sh): every defect is reported, and the
# item count is what corpus/gen_error_heavy.py printed when it wrote the input.
bench_sizes="10 100"
# no limit: every defect is reported (-q prints only the verdict)
bench_options="--max-errors=0"

# gen_error_heavy FORMAT ARGS...: writes the defects, keeps their count next to
# the input (the last argument)
gen_error_heavy() {
	for out; do :; done
	python3 "$top/corpus/gen_error_heavy.py" "$@" > "$out.records"
}

bench_items() {
	cat "$1.records"
}
