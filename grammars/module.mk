# Executable grammars: the Kaitai Struct compiler (npm kaitai-struct-compiler,
# run under node) and its JavaScript runtime are pinned by
# grammars/package-lock.json and installed into grammars/node_modules by
# `make deps`; tests/grammars/ compiles every .ksy with them and parses the corpus.
DEB_PACKAGES += nodejs zstd

.PHONY: grammar-deps
deps: grammar-deps
grammar-deps:
	@command -v npm >/dev/null 2>&1 || { \
		[ "$$(id -u)" = 0 ] || { echo "grammars need npm; run as root: apt-get install -y nodejs npm"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm; }
	cd grammars && npm ci --no-audit --no-fund --loglevel=error

# Compiles the grammars into JavaScript parsers (for reader authors to look at;
# the tests compile their own copy).
.PHONY: grammars
grammars:
	node grammars/ksy-check.js compile $(O)/grammars grammars/*.ksy grammars/umtrace/*.ksy
