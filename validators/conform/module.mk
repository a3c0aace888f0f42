# The conformance kit: build/tracelint-conform, its install rule and
# `make conformance`. Its mutations come from the mutator library (TLM_LIB,
# validators/mutate/).
include validators/mutate/module.mk
CONFORM_SRCS := $(wildcard validators/conform/*.c)
CONFORM_OBJS := $(patsubst %.c,$(O)/obj/%.o,$(CONFORM_SRCS))
CONFORM_BIN := $(O)/tracelint-conform

all: $(CONFORM_BIN)
tests: $(CONFORM_BIN)

# Where the installed program looks for the corpus.
$(O)/obj/validators/conform/main.o: CFLAGS += -DCONFORM_DATADIR='"$(PREFIX)/share/tracelint"'

$(CONFORM_BIN): $(CONFORM_OBJS) $(TLM_LIB) $(LIB)
	$(CC) $(OPT) $(LDFLAGS) -o $@ $(CONFORM_OBJS) $(TLM_LIB) $(LIB) $(LDLIBS) $(LDSAN)

.PHONY: install-conform conformance
install-conform: $(CONFORM_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(CONFORM_BIN) $(DESTDIR)$(PREFIX)/bin/tracelint-conform
	install -m 644 validators/conform/tracelint-conform.1 $(DESTDIR)$(PREFIX)/share/man/man1/tracelint-conform.1
	install -d $(DESTDIR)$(PREFIX)/share/tracelint/readers
	install -m 755 validators/conform/readers/gdb-tfile.sh $(DESTDIR)$(PREFIX)/share/tracelint/readers/gdb-tfile.sh
	install -m 755 validators/conform/readers/llvm-xray-content.py $(DESTDIR)$(PREFIX)/share/tracelint/readers/llvm-xray-content.py
	install -m 755 validators/conform/readers/gdb-tfile-content.sh $(DESTDIR)$(PREFIX)/share/tracelint/readers/gdb-tfile-content.sh
	install -m 644 validators/conform/readers/gdb-frames.py $(DESTDIR)$(PREFIX)/share/tracelint/readers/gdb-frames.py
	install -m 755 validators/conform/readers/kaitai-content.py $(DESTDIR)$(PREFIX)/share/tracelint/readers/kaitai-content.py
	install -m 755 validators/conform/content-diff.py $(DESTDIR)$(PREFIX)/share/tracelint/content-diff.py
	install -d $(DESTDIR)$(PREFIX)/share/tracelint/explain
	install -m 644 reports/conformance/explain/*.txt $(DESTDIR)$(PREFIX)/share/tracelint/explain/

# Reference reports (reports/conformance/): llvm-xray 14 on the xray corpus,
# gdb's `target tfile` on the tfile corpus, each with a differential campaign
# of CONFORM_MUTANTS mutants (10,000 by default; a shared machine may
# pass fewer). Kept, minimised mutants go to reports/conformance/findings/.
# The kit exits 1 when it finds disagreements: that is the report, not a failure.
CONFORM_MUTANTS ?= 10000
CONFORM_SEED ?= 1
CONFORM_KEEP ?= 1
CONFORM_BUDGET ?= 60
# Seconds per campaign; empty: until CONFORM_MUTANTS are done.
CONFORM_MAX_TIME ?=
CONFORM_DIR := reports/conformance
CONFORM_RUN = nice -n 10 $(CONFORM_BIN) --seed=$(CONFORM_SEED) --keep=$(CONFORM_KEEP) \
	--minimize-budget=$(CONFORM_BUDGET) --mutate=$(CONFORM_MUTANTS) --progress=500 \
	$(if $(CONFORM_MAX_TIME),--max-time=$(CONFORM_MAX_TIME))
LLVM_XRAY ?= llvm-xray
GDB_TFILE_READER := sh validators/conform/readers/gdb-tfile.sh {}

.PHONY: conformance-llvm-xray-fdr-dump conformance-llvm-xray-convert conformance-gdb-tfile
conformance: conformance-llvm-xray-fdr-dump conformance-llvm-xray-convert conformance-gdb-tfile

conformance-llvm-xray-fdr-dump: $(CONFORM_BIN)
	rm -rf $(CONFORM_DIR)/findings/llvm-xray-fdr-dump
	$(CONFORM_RUN) --format=xray --reader='$(LLVM_XRAY) fdr-dump {}' \
		--explain=$(CONFORM_DIR)/explain/llvm-xray.txt \
		--out=$(CONFORM_DIR)/findings/llvm-xray-fdr-dump \
		--report=$(CONFORM_DIR)/llvm-xray-fdr-dump.md corpus/xray || test $$? = 1

conformance-llvm-xray-convert: $(CONFORM_BIN)
	rm -rf $(CONFORM_DIR)/findings/llvm-xray-convert
	$(CONFORM_RUN) --format=xray --reader='$(LLVM_XRAY) convert --output-format=yaml --output=/dev/null {}' \
		--explain=$(CONFORM_DIR)/explain/llvm-xray.txt \
		--out=$(CONFORM_DIR)/findings/llvm-xray-convert \
		--report=$(CONFORM_DIR)/llvm-xray-convert.md corpus/xray || test $$? = 1

conformance-gdb-tfile: $(CONFORM_BIN)
	rm -rf $(CONFORM_DIR)/findings/gdb-tfile
	$(CONFORM_RUN) --format=tfile --timeout=20 --reader='$(GDB_TFILE_READER)' \
		--explain=$(CONFORM_DIR)/explain/gdb-tfile.txt \
		--out=$(CONFORM_DIR)/findings/gdb-tfile \
		--report=$(CONFORM_DIR)/gdb-tfile.md corpus/tfile || test $$? = 1

# Sharded campaigns: `make conformance-llvm-xray-fdr-dump-sharded` runs
# CONFORM_SHARD_MUTANTS mutants of the same campaign as CONFORM_SHARDS shards,
# CONFORM_SHARD_JOBS at a time (each a `--shard=K/N` run writing a shard file
# to $(O)/conform-shards/), then merges them with `--merge` into the report a
# single run would have written. A CI matrix runs the same commands, one shard
# a runner. The wall time of the whole run is appended to the report.
CONFORM_SHARDS ?= 4
CONFORM_SHARD_JOBS ?= 2
CONFORM_SHARD_MUTANTS ?= 100000
CONFORM_SHARD_NAME ?= llvm-xray-fdr-dump-100k
CONFORM_SHARD_DIR := $(O)/conform-shards/$(CONFORM_SHARD_NAME)
CONFORM_SHARD_RUN = nice -n 19 $(CONFORM_BIN) --seed=$(CONFORM_SEED) --keep=$(CONFORM_KEEP) \
	--minimize-budget=$(CONFORM_BUDGET) --mutate=$(CONFORM_SHARD_MUTANTS) --progress=2500 \
	$(if $(CONFORM_MAX_TIME),--max-time=$(CONFORM_MAX_TIME))

.PHONY: conformance-llvm-xray-fdr-dump-sharded
conformance-llvm-xray-fdr-dump-sharded: $(CONFORM_BIN)
	rm -rf $(CONFORM_DIR)/findings/$(CONFORM_SHARD_NAME) $(CONFORM_SHARD_DIR)
	mkdir -p $(CONFORM_SHARD_DIR)
	start=$$(date +%s); \
	seq 1 $(CONFORM_SHARDS) | xargs -P $(CONFORM_SHARD_JOBS) -I @K@ sh -c \
		'$(CONFORM_SHARD_RUN) --format=xray --reader="$(LLVM_XRAY) fdr-dump {}" \
		--out=$(CONFORM_DIR)/findings/$(CONFORM_SHARD_NAME) --shard=@K@/$(CONFORM_SHARDS) \
		--report=$(CONFORM_SHARD_DIR)/shard-@K@.txt corpus/xray 2>$(CONFORM_SHARD_DIR)/shard-@K@.log || test $$? = 1'; \
	end=$$(date +%s); \
	$(CONFORM_BIN) --merge --explain=$(CONFORM_DIR)/explain/llvm-xray.txt \
		--report=$(CONFORM_DIR)/$(CONFORM_SHARD_NAME).md $(CONFORM_SHARD_DIR)/shard-*.txt || test $$? = 1; \
	printf '\nWall time: %s s for %s shards, %s at a time, at nice 19 (the time above is the sum of the shards).\n' \
		$$((end - start)) $(CONFORM_SHARDS) $(CONFORM_SHARD_JOBS) >> $(CONFORM_DIR)/$(CONFORM_SHARD_NAME).md

# Corpus reports. `make conformance-xray`: llvm-xray 14 (`fdr-dump --verify` and `convert`) on
# every XRay corpus case through the conformance kit, every disagreement
# explained from explain/llvm-xray.txt; written to
# xray.md under the prose of xray-notes.md. Needs llvm-xray
# (Debian package llvm). The kit exits 1 when the reader disagrees: that is the
# report's content, not a failure.
XRAY_CONFORM = $(CONFORM_BIN) --format=xray --list=all \
	--explain=$(CONFORM_DIR)/explain/llvm-xray.txt

.PHONY: conformance-xray
conformance-xray: $(CONFORM_BIN)
	$(XRAY_CONFORM) --reader='$(LLVM_XRAY) fdr-dump --verify {}' --report=$(O)/xray-fdr-dump.md corpus/xray \
		|| test $$? = 1
	$(XRAY_CONFORM) --reader='$(LLVM_XRAY) convert --output-format=yaml --output=/dev/null {}' \
		--report=$(O)/xray-convert.md corpus/xray || test $$? = 1
	{ cat $(CONFORM_DIR)/xray-notes.md; echo; sed 's/^#/##/' $(O)/xray-fdr-dump.md; \
	  echo; sed 's/^#/##/' $(O)/xray-convert.md; } > $(CONFORM_DIR)/xray.md

# `make conformance-tfile`: gdb's `target tfile` plus a walk over every frame
# (validators/conform/readers/gdb-tfile.sh) on every tfile corpus case through
# the conformance kit, every disagreement explained from
# $(CONFORM_DIR)/explain/gdb-tfile.txt; written to
# $(CONFORM_DIR)/tfile.md under the prose of tfile-notes.md. Needs gdb.
.PHONY: conformance-tfile
conformance-tfile: $(CONFORM_BIN)
	$(CONFORM_BIN) --format=tfile --list=all --timeout=60 \
		--explain=$(CONFORM_DIR)/explain/gdb-tfile.txt \
		--reader='$(GDB_TFILE_READER)' --report=$(O)/tfile-gdb.md corpus/tfile || test $$? = 1
	{ cat $(CONFORM_DIR)/tfile-notes.md; echo; sed 's/^#/##/' $(O)/tfile-gdb.md; } \
		> $(CONFORM_DIR)/tfile.md

# `make conformance-matrix`: every corpus case x every reader installable from
# Debian here (llvm-xray fdr-dump --verify, llvm-xray convert with its content
# compared, gdb's target tfile) x outcome, as reports/conformance/matrix.html
# and matrix.json (validators/conform/matrix.py). The kit runs exit 1 on
# unexplained disagreements: that is the matrix's content, not a failure.
MATRIX_DIR := $(O)/matrix
.PHONY: conformance-matrix
conformance-matrix: $(CONFORM_BIN) kaitai-python
	mkdir -p $(MATRIX_DIR)
	$(CONFORM_BIN) --format=xray --output=json --explain=$(CONFORM_DIR)/explain/llvm-xray.txt \
		--reader='$(LLVM_XRAY) fdr-dump --verify {}' --report=$(MATRIX_DIR)/fdr-dump.json corpus/xray || test $$? = 1
	$(CONFORM_BIN) --format=xray --output=json --explain=$(CONFORM_DIR)/explain/llvm-xray.txt --content-sort \
		--reader='python3 validators/conform/readers/llvm-xray-content.py --llvm-xray=$(LLVM_XRAY) {}' \
		--report=$(MATRIX_DIR)/convert.json corpus/xray || test $$? = 1
	$(CONFORM_BIN) --format=tfile --output=json --timeout=60 --explain=$(CONFORM_DIR)/explain/gdb-tfile.txt \
		--reader='$(GDB_TFILE_READER)' --report=$(MATRIX_DIR)/gdb.json corpus/tfile || test $$? = 1
	for fmt in xray tfile umtrace; do \
		$(CONFORM_BIN) --format=$$fmt --output=json --content --explain=$(CONFORM_DIR)/explain/kaitai.txt \
			--reader="$(KAITAI_CONTENT_READER:{}=--format=$$fmt {})" --report=$(MATRIX_DIR)/kaitai-$$fmt.json corpus/$$fmt || test $$? = 1 || exit 1; \
	done
	python3 validators/conform/matrix.py --html=$(CONFORM_DIR)/matrix.html --json=$(CONFORM_DIR)/matrix.json \
		'llvm-xray fdr-dump --verify=$(MATRIX_DIR)/fdr-dump.json' 'llvm-xray convert=$(MATRIX_DIR)/convert.json' \
		'gdb target tfile=$(MATRIX_DIR)/gdb.json' \
		'Kaitai Python (xray.ksy)=$(MATRIX_DIR)/kaitai-xray.json' 'Kaitai Python (tfile.ksy)=$(MATRIX_DIR)/kaitai-tfile.json' \
		'Kaitai Python (umtrace/*.ksy)=$(MATRIX_DIR)/kaitai-umtrace.json'

# The Kaitai grammars' Python parsers (generated into the build, never into
# grammars/) and their runtime, Debian's python3-kaitaistruct, which installs
# for Debian's own interpreter: validators/conform/readers/kaitai-content.py
# prints what they read in the dump schema (tests/conform/kaitai_content_test).
KAITAI_PY := $(O)/kaitai-python
KAITAI_PYTHON ?= /usr/bin/python3
KAITAI_CONTENT_READER = $(KAITAI_PYTHON) validators/conform/readers/kaitai-content.py --parsers=$(KAITAI_PY) {}
.PHONY: kaitai-python
kaitai-python:
	node grammars/ksy-check.js compile-python $(KAITAI_PY) grammars/xray.ksy grammars/tfile.ksy grammars/umtrace/*.ksy
