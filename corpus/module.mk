# The corpus generators, each run by a target (`make corpus` runs them all).
# tests/corpus/regen_test.sh checks that each one, run afresh, writes exactly
# the committed cases; after changing a generator run its target and review
# `git diff corpus/`.
XRAYGEN := $(O)/xraygen
$(XRAYGEN): corpus/xray/xraygen.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 $(WARNINGS) -o $@ $<

.PHONY: corpus corpus-xray corpus-dcfg corpus-tfile
corpus: corpus-xray corpus-dcfg corpus-tfile umtrace-corpus
corpus-xray: $(XRAYGEN)
	$(XRAYGEN) corpus/xray
corpus-dcfg:
	python3 corpus/dcfg/make_corpus.py
corpus-tfile: $(BIN)
	python3 corpus/tfile/make-cases.py $(BIN)

TEST_EXTRA += $(XRAYGEN)
