# Benchmarks: `make bench` generates large inputs with our own
# generators, measures tracelint against cat and the reference readers, and
# writes reports/bench.md and reports/bench-throughput.png (the raw figures:
# $(BUILD)/reports/bench-results.tsv). Not part of check.
BENCH_DIR ?= /tmp/tracelint-bench
BENCH_SIZES ?= 10 100 1000
BENCH_RUNS ?= 5
BENCH_FORMATS ?= tfile xray dcfg dcfg-bz2 dcfg-gz dcfg-zst dcfg-program dcfg-errors dcfg-trace dcfg-dispatch umtrace xray-errors tfile-errors umtrace-errors

.PHONY: bench
bench: deps all
	BENCH_DIR=$(BENCH_DIR) BENCH_SIZES="$(BENCH_SIZES)" BENCH_RUNS=$(BENCH_RUNS) \
	BENCH_FORMATS="$(BENCH_FORMATS)" TRACELINT=$(abspath $(BIN)) \
	BENCH_RESULTS=$(abspath $(BUILD))/reports/bench-results.tsv \
		sh validators/core/bench/bench.sh

# The goals table alone (tracelint against the fastest tool on each input,
# side by side): writes reports/bench/goals.md and puts it in reports/bench.md.
.PHONY: bench-goals
bench-goals: deps all
	BENCH_DIR=$(BENCH_DIR) BENCH_RUNS=$(BENCH_RUNS) TRACELINT=$(abspath $(BIN)) \
		sh validators/core/bench/goals.sh > reports/bench/goals.md.tmp
	mv reports/bench/goals.md.tmp reports/bench/goals.md
	sh validators/core/bench/splice-goals.sh

# The DCFG targets against the machine's ceiling (simdjson's parse alone):
# writes reports/bench/ceiling.md, which reports/bench.md then includes.
.PHONY: bench-ceiling
bench-ceiling: deps all
	BENCH_DIR=$(BENCH_DIR) BENCH_RUNS=$(BENCH_RUNS) TRACELINT=$(abspath $(BIN)) \
		sh validators/dcfg/bench/ceiling.sh > reports/bench/ceiling.md.tmp
	mv reports/bench/ceiling.md.tmp reports/bench/ceiling.md

