# The page (`make web`): build/web/ holds index.html, its CSS and JavaScript,
# the rule catalog with every rule's explanation (rules.js, what --explain
# prints), and the library compiled to WebAssembly by Emscripten (emcc from
# Debian's emscripten package). The browser tests drive Debian's chromium
# with puppeteer-core; expat's C sources come from the npm package
# node-expat (its Node addon is not built). Both npm packages are pinned by
# validators/web/package-lock.json and installed by `make deps` into
# build/web-npm (outside the source tree, whose C files the tests scan).
# Its Debian packages are listed in tests/packages.txt.

WEB_OUT := $(BUILD)/web
WEB_O := $(BUILD)/web-obj
WEB_DIR := validators/web
WEB_NPM := $(BUILD)/web-npm
EXPAT_DIR := $(WEB_NPM)/node_modules/node-expat/deps/libexpat
EMCC ?= emcc
# Debian's emcc runs its JavaScript tools with the node on PATH, which may not
# search Debian's node modules (acorn).
WEB_NODE_PATH := /usr/share/nodejs

# The library as for the CLI, less the decoders of gzip, bzip2 and zstd
# (Emscripten's ports of them are downloaded at build time; a compressed
# file is refused with a message), plus expat and the web shims.
WEB_LIB_SRCS := $(filter-out validators/core/bzip2_par.c,$(LIB_SRCS))
WEB_EXPAT_SRCS := $(EXPAT_DIR)/lib/xmlparse.c $(EXPAT_DIR)/lib/xmlrole.c $(EXPAT_DIR)/lib/xmltok.c
WEB_SHIM_SRCS := $(wildcard $(WEB_DIR)/wasm/*.c)
WEB_OBJS := $(patsubst %.c,$(WEB_O)/%.o,$(WEB_LIB_SRCS) $(WEB_SHIM_SRCS)) \
	$(patsubst $(EXPAT_DIR)/%.c,$(WEB_O)/expat/%.o,$(WEB_EXPAT_SRCS))
# SEEK_DATA/SEEK_HOLE: Emscripten lacks them; its lseek refuses them, and
# the library then scans the bytes as for a file without holes.
# -O2 rather than -Os: a 62 MiB XRay trace took 0.54 s at -Os, 0.25-0.52 s at
# -O2 (a busy machine), for 15 KB more of compressed WebAssembly.
WEB_OPT := -O2
WEB_CFLAGS := $(CSTD) $(WEB_OPT) -DTL_NO_DECOMPRESSORS -DSEEK_DATA=3 -DSEEK_HOLE=4 -DXML_DEV_URANDOM -DHAVE_EXPAT_CONFIG_H \
	-I$(WEB_DIR)/wasm -I$(EXPAT_DIR) -I$(EXPAT_DIR)/lib $(INCLUDES)
WEB_EXPORTS := _tlw_run_new,_tlw_run_file,_tlw_run_finish,_malloc,_free
WEB_LDFLAGS := $(WEB_OPT) -sMODULARIZE=1 -sEXPORT_NAME=createTracelint -sENVIRONMENT=worker \
	-sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sMAXIMUM_MEMORY=2147483648 \
	-sFORCE_FILESYSTEM=1 -lworkerfs.js -sEXPORTED_FUNCTIONS=$(WEB_EXPORTS) \
	-sEXPORTED_RUNTIME_METHODS=ccall,FS,ENV -sEXIT_RUNTIME=0
WEB_PAGE := $(wildcard $(WEB_DIR)/page/*)

.PHONY: web web-deps
web: $(WEB_OUT)/tracelint.js $(WEB_OUT)/rules.js $(patsubst $(WEB_DIR)/page/%,$(WEB_OUT)/%,$(WEB_PAGE))

# The npm packages, installed once per lock file (the stamp says when).
WEB_NPM_STAMP := $(WEB_NPM)/installed.stamp
deps: web-deps
web-deps: $(WEB_NPM_STAMP)
$(WEB_NPM_STAMP): $(WEB_DIR)/package.json $(WEB_DIR)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "the page needs npm (Debian package npm)"; exit 1; }
	mkdir -p $(WEB_NPM)
	cp $(WEB_DIR)/package.json $(WEB_DIR)/package-lock.json $(WEB_NPM)/
	cd $(WEB_NPM) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@
$(WEB_EXPAT_SRCS): | $(WEB_NPM_STAMP) ;

# The objects do not depend on this build variant's rules.inc (O=build/san
# has its own) but on the catalogs it is made from, so `make check` does not
# compile them again; headers are tracked by -MMD.
$(WEB_O)/%.o: %.c $(SPECS) $(WEB_DIR)/module.mk | $(GEN)/rules.inc $(WEB_NPM_STAMP)
	@mkdir -p $(@D)
	@echo "  EMCC    $<"
	@$(EMCC) $(WEB_CFLAGS) -MMD -MP -c $< -o $@
-include $(wildcard $(WEB_O)/validators/*/*.d $(WEB_O)/validators/web/wasm/*.d)

$(WEB_O)/expat/%.o: $(EXPAT_DIR)/%.c $(WEB_DIR)/module.mk
	@mkdir -p $(@D)
	@echo "  EMCC    $<"
	@$(EMCC) $(WEB_CFLAGS) -w -c $< -o $@

$(WEB_OUT)/tracelint.js: $(WEB_OBJS) $(WEB_DIR)/module.mk
	@mkdir -p $(@D)
	NODE_PATH=$(WEB_NODE_PATH) $(EMCC) $(WEB_LDFLAGS) -o $@ $(WEB_OBJS)

# Every rule with its explanation, as `tracelint --explain -o json '*'` gives them.
$(WEB_OUT)/rules.js: $(BIN)
	@mkdir -p $(@D)
	{ printf 'self.TRACELINT_RULES = '; $(BIN) --explain -o json '*'; printf ';\n'; } > $@.tmp && mv $@.tmp $@

$(WEB_OUT)/%: $(WEB_DIR)/page/%
	@mkdir -p $(@D)
	cp $< $@

# `make check` builds the page when Emscripten is there (tests/web/ skips
# without it or without Chromium).
ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
TEST_EXTRA += web
endif

# Throughput in Chromium against the native CLI (200 MB XRay, 100 MB tfile,
# 25 MB DCFG, best of 5) and the compressed size of the page.
.PHONY: web-bench
web-bench: web $(BIN)
	SRCDIR=$(CURDIR) WEB_DIR=$(abspath $(WEB_OUT)) NPM_DIR=$(abspath $(WEB_NPM)) CLI=$(abspath $(BIN)) \
		CHROMIUM=$${CHROMIUM:-/usr/bin/chromium} node tests/web/page_check.js bench
