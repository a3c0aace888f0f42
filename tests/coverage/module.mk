# Branch coverage of the whole Kyua suite (unit, CLI, corpus, fuzz regression,
# fault injection), per directory of validators/, as a ratchet: the committed
# baseline tests/coverage/branches.baseline may only go up. `make coverage`
# (after the corpus coverage report) and `make check-heavy` fail when a
# directory's branch figure drops by more than COVERAGE_SLACK points (the
# suite has a few paths that depend on the machine, e.g. root-only tests).
# Counters are updated atomically: tracelint validates files on several
# threads (-j, --threads), and counts lost to races made gcov show branches
# taken that were not, and figures that moved by dozens of branches a run.
COV_O := $(BUILD)/cov
COVERAGE_SLACK ?= 0.3

.PHONY: coverage-suite coverage-ratchet coverage-baseline
coverage-suite: deps
	rm -rf $(COV_O)/obj $(COV_O)/tests
	$(MAKE) $(CHECK_MAKE_JOBS) O=$(COV_O) SANITIZE=0 CC=gcc OPT="-O0 -g" CFLAGS="--coverage -fprofile-update=atomic -DTL_COVERAGE" LDFLAGS=--coverage tests
	find $(COV_O) -name '*.gcda' -delete
	rm -f $(COV_O)/results.db
	cd $(COV_O)/tests && kyua --config=none -v parallelism=$(CHECK_JOBS) \
		-v test_suites.tracelint.srcdir=$(CURDIR) \
		-v test_suites.tracelint.builddir=$(abspath $(COV_O)) \
		test --results-file=$(abspath $(COV_O))/results.db > $(abspath $(COV_O))/kyua.log 2>&1 || true
	tail -1 $(COV_O)/kyua.log
	sh tests/coverage/branches.sh $(COV_O) > $(COV_O)/branches.txt
	cat $(COV_O)/branches.txt

coverage-ratchet: coverage-suite
	awk -v slack=$(COVERAGE_SLACK) -f tests/coverage/ratchet.awk \
		tests/coverage/branches.baseline $(COV_O)/branches.txt

# After a change that raises coverage: make coverage-baseline, then commit.
coverage-baseline: coverage-suite
	cp $(COV_O)/branches.txt tests/coverage/branches.baseline

coverage check-heavy: coverage-ratchet
