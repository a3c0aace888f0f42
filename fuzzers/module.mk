# Fuzzing campaigns. `make fuzz` (GNUmakefile) builds the plain
# libFuzzer targets; this file adds the structure-aware mutators, the AFL++
# build, a gcc UBSan regression build, campaigns, coverage and the heavy
# smoke mode. See fuzzers/README.md.

# The mutator library (TLM_SRCS, TLM_LIB) is validators/mutate/.
include validators/mutate/module.mk
# Formats with a mutator, among the targets that exist.
TLM_FORMATS = $(filter xray tfile umtrace,$(FUZZ_NAMES))
AFL_O := $(BUILD)/fuzz-afl
AFL_CC ?= afl-clang-fast
TARGET ?= xray
SECONDS ?= 300
JOBS ?= 1
ENGINE ?= libfuzzer
MUTATOR ?= 0
SMOKE_SECONDS ?= 20
# Where campaign, comparison and coverage reports go (REPORTS=reports updates
# the committed ones).
REPORTS ?= $(BUILD)/reports

.PHONY: fuzz-mutators fuzz-afl fuzz-ubsan fuzz-run fuzz-compare fuzz-coverage coverage \
	fuzz-oss fuzz-oss-afl check-heavy fuzz-report

# libFuzzer targets with the custom mutator: build/fuzz/<format>_mut_fuzzer.
# The mutator objects get ASan but no coverage instrumentation, so they
# never count as features of the target.
MUT_O := $(FUZZ_O)/mut
MUT_FLAGS := $(CSTD) -O1 -g -fsanitize=address,undefined -Ivalidators/mutate
MUT_OBJS := $(patsubst validators/mutate/%.c,$(MUT_O)/%.o,$(TLM_SRCS))
fuzz-mutators: fuzz $(patsubst %,$(FUZZ_O)/%_mut_fuzzer,$(TLM_FORMATS))
.PRECIOUS: $(MUT_O)/%.o

$(MUT_O)/%.o: validators/mutate/%.c validators/mutate/mutator.h
	@mkdir -p $(@D)
	@$(FUZZ_CC) $(MUT_FLAGS) -c $< -o $@

$(MUT_O)/glue_%.o: fuzzers/mutators/libfuzzer_glue.c validators/mutate/mutator.h
	@mkdir -p $(@D)
	@$(FUZZ_CC) $(MUT_FLAGS) -DTLM_MUTATE=tlm_$*_mutate -c $< -o $@

$(FUZZ_O)/%_mut_fuzzer: fuzzers/%_fuzzer.c $(FUZZ_HELPERS) $(MUT_O)/glue_%.o $(MUT_OBJS) $(FUZZ_LIB)
	@echo "  FUZZ    $* + mutator"
	@$(FUZZ_CC) $(CSTD) $(FUZZ_FLAGS) $(INCLUDES) -I$(FUZZ_O)/lib/gen -Ifuzzers \
		-o $@ $< $(FUZZ_HELPERS) $(MUT_O)/glue_$*.o $(MUT_OBJS) $(FUZZ_LIB) $(LDLIBS)

# AFL++: persistent-mode, shared-memory targets build/fuzz-afl/<name>_afl
# (ASan+UBSan through afl-clang-fast) and the custom mutator libraries
# build/fuzz-afl/libtlm_<format>.so.
AFL_LIB := $(AFL_O)/lib/libtracelint.a
AFL_ENV := AFL_USE_ASAN=1 AFL_USE_UBSAN=1 AFL_QUIET=1
fuzz-afl: deps $(patsubst %,$(AFL_O)/%_afl,$(FUZZ_NAMES)) $(patsubst %,$(AFL_O)/libtlm_%.so,$(TLM_FORMATS))

ifneq ($(LIB),$(AFL_LIB))
$(AFL_LIB): .FORCE
	$(AFL_ENV) $(MAKE) O=$(AFL_O)/lib CC=$(AFL_CC) SANITIZE=0 lib
endif

$(AFL_O)/%_afl: fuzzers/%_fuzzer.c fuzzers/engines/afl_driver.c $(FUZZ_HELPERS) $(AFL_LIB)
	@echo "  AFL     $*"
	@$(AFL_ENV) $(AFL_CC) $(CSTD) -O1 -g $(INCLUDES) -I$(AFL_O)/lib/gen -Ifuzzers \
		-o $@ $< fuzzers/engines/afl_driver.c $(FUZZ_HELPERS) $(AFL_LIB) $(LDLIBS)

$(AFL_O)/libtlm_%.so: fuzzers/mutators/afl_glue.c $(TLM_SRCS) validators/mutate/mutator.h
	@mkdir -p $(@D)
	@echo "  AFLMUT  $*"
	@$(CC) $(CSTD) -O2 -g -fPIC -shared -Ivalidators/mutate -DTLM_MUTATE=tlm_$*_mutate \
		-o $@ fuzzers/mutators/afl_glue.c $(TLM_SRCS)

# The regression drivers under gcc with UBSan alone (no ASan, no MSan).
fuzz-ubsan:
	$(MAKE) O=$(BUILD)/fuzz-ubsan CC=gcc SANITIZE=0 \
		CFLAGS="-O1 -fsanitize=undefined -fno-sanitize-recover=all" regress
	set -e; for b in $(BUILD)/fuzz-ubsan/fuzz/regress_*; do $$b corpus; done

# make fuzz-run TARGET=xray SECONDS=300 [JOBS=1] [ENGINE=libfuzzer|afl] [MUTATOR=1]
fuzz-run:
	TARGET=$(TARGET) SECONDS=$(SECONDS) JOBS=$(JOBS) ENGINE=$(ENGINE) MUTATOR=$(MUTATOR) \
		BUILD=$(BUILD) REPORTS=$(REPORTS) sh fuzzers/campaign/run.sh

# The same seconds with and without the mutator (SEED=<file>: from that one file);
# writes $(REPORTS)/fuzzing/<seed set>/<target>-mutator.tsv.
fuzz-compare: fuzz-mutators
	TARGET=$(TARGET) SECONDS=$(SECONDS) SEED=$(SEED) BUILD=$(BUILD) REPORTS=$(REPORTS) sh fuzzers/campaign/compare.sh

# Source-based coverage of every validator from the committed corpus.
coverage fuzz-coverage: deps
	BUILD=$(BUILD) REPORTS=$(REPORTS) sh fuzzers/campaign/coverage.sh

# fuzzers/build.sh as OSS-Fuzz calls it, into build/oss-out.
fuzz-oss:
	rm -rf $(BUILD)/oss-out $(BUILD)/oss-work && mkdir -p $(BUILD)/oss-out $(BUILD)/oss-work
	SRC=$(CURDIR) OUT=$(abspath $(BUILD))/oss-out WORK=$(abspath $(BUILD))/oss-work \
		CC=clang CXX=clang++ CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
		LIB_FUZZING_ENGINE=-fsanitize=fuzzer sh fuzzers/build.sh

# fuzzers/build.sh as OSS-Fuzz's AFL++ builder calls it (afl-clang-fast, ASan,
# the AFL++ driver as $LIB_FUZZING_ENGINE), into build/oss-afl-out; then every
# target runs its seed corpus once, as OSS-Fuzz's build check does.
AFL_DRIVER ?= /usr/lib/afl/libAFLDriver.a
fuzz-oss-afl:
	rm -rf $(BUILD)/oss-afl-out $(BUILD)/oss-afl-work && mkdir -p $(BUILD)/oss-afl-out $(BUILD)/oss-afl-work
	SRC=$(CURDIR) OUT=$(abspath $(BUILD))/oss-afl-out WORK=$(abspath $(BUILD))/oss-afl-work \
		CC=afl-clang-fast CXX=afl-clang-fast++ AFL_QUIET=1 \
		CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope" \
		LIB_FUZZING_ENGINE=$(AFL_DRIVER) sh fuzzers/build.sh
	set -e; for t in $(BUILD)/oss-afl-out/*_fuzzer; do \
		d=$$(mktemp -d); (cd $$d && unzip -q $(abspath $(BUILD))/oss-afl-out/$$(basename $$t)_seed_corpus.zip); \
		n=$$(find $$d -type f | wc -l); \
		find $$d -type f -size -1024k -exec $$t {} + > /dev/null 2>&1 || { echo "$$t failed on its seeds"; rm -rf $$d; exit 1; }; \
		echo "  $$(basename $$t): ran $$n seeds"; rm -rf $$d; \
	done

# A short campaign per target (SMOKE_SECONDS each), and `make fuzz-oss` (make
# check builds the same targets through tests/ci/oss-build.sh); not part of `make check`.
check-heavy: fuzz fuzz-mutators fuzz-oss
	set -e; for n in $(FUZZ_NAMES); do \
		TARGET=$$n SECONDS=$(SMOKE_SECONDS) JOBS=1 ENGINE=libfuzzer MUTATOR=0 SMOKE=1 \
			BUILD=$(BUILD) sh fuzzers/campaign/run.sh; \
	done

# Lists the campaign reports with their headline figures.
fuzz-report:
	sh fuzzers/campaign/report-index.sh $(REPORTS)/fuzz

# The libraries the formats link (for fuzzers/build.sh).
.PHONY: fuzz-ldlibs
fuzz-ldlibs:
	@echo $(LDLIBS)
