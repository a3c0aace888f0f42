# Executable grammars: the Kaitai Struct compiler (npm kaitai-struct-compiler,
# run under node) and its JavaScript runtime are pinned by
# grammars/package-lock.json and installed into grammars/node_modules by
# `make deps`; tests/grammars/ compiles every .ksy with them and parses the corpus.

# `npm ci` runs only when the lock file changed since the last install (the
# stamp) or the installed tree is gone, not on every `make check`.
.PHONY: grammar-deps
deps: grammar-deps
GRAMMAR_NPM_STAMP := $(BUILD)/grammars-npm-ci.stamp
grammar-deps: $(GRAMMAR_NPM_STAMP)
$(GRAMMAR_NPM_STAMP): grammars/package-lock.json $(if $(wildcard grammars/node_modules/.package-lock.json),,.FORCE)
	@command -v npm >/dev/null 2>&1 || { \
		[ "$$(id -u)" = 0 ] || { echo "grammars need npm; run as root: apt-get install -y nodejs npm"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm; }
	cd grammars && npm ci --no-audit --no-fund --loglevel=error
	@mkdir -p $(@D) && touch $@

# Compiles the grammars into JavaScript parsers (for reader authors to look at;
# the tests compile their own copy).
.PHONY: grammars
grammars:
	node grammars/ksy-check.js compile $(O)/grammars grammars/*.ksy grammars/umtrace/*.ksy

# Seed corpora for the fuzz targets of the text grammars: random sentences of
# tfile.abnf and dcfg-sequence.ebnf as whole files, valid ones and one-edit
# mutants (grammars/sentgen.py), flat in fuzzers/seeds/<target>/ where the
# campaigns and the regression test pick them up. Reproducible from the seed,
# so not committed. GRAMMAR_SEEDS sentences per format, 4 mutants each.
GRAMMAR_SEED ?= 1
GRAMMAR_SEEDS ?= 100
.PHONY: grammar-seeds
grammar-seeds:
	@mkdir -p $(O)
	rm -f fuzzers/seeds/tfile/grammar-* fuzzers/seeds/dcfg_trace/grammar-*
	python3 grammars/sentgen.py tfile --seed $(GRAMMAR_SEED) --count $(GRAMMAR_SEEDS) --mutants 4 \
		--prefix grammar- --out fuzzers/seeds/tfile --manifest $(O)/grammar-seeds-tfile.tsv
	python3 grammars/sentgen.py dcfg-trace --seed $(GRAMMAR_SEED) --count $(GRAMMAR_SEEDS) --mutants 4 \
		--prefix grammar- --out fuzzers/seeds/dcfg_trace --manifest $(O)/grammar-seeds-dcfg_trace.tsv
