#! /usr/bin/env atf-sh
# The page (make web: build/web) in headless Chromium, served from a static
# server on 127.0.0.1 and used as a user does: choose files, read verdicts,
# click diagnostics, download the reports (tests/web/page_check.js). Every
# case also fails when the page or its worker requests anything outside the
# page's origin.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
WEB_DIR="$SRCDIR/build/web"
NPM_DIR="$SRCDIR/build/web-npm"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# Skips only when the browser or Emscripten is absent; `make deps` installs
# both, and `make check` then builds the page.
need_page() {
	command -v emcc >/dev/null 2>&1 || atf_skip "emcc is not installed (make deps installs Debian's emscripten)"
	[ -x "$CHROMIUM" ] || atf_skip "$CHROMIUM is not installed (make deps installs Debian's chromium)"
	command -v node >/dev/null 2>&1 || atf_skip "node is not installed (make deps installs it)"
	[ -d "$NPM_DIR/node_modules/puppeteer-core" ] || atf_fail "$NPM_DIR lacks puppeteer-core: run make deps"
	[ -f "$WEB_DIR/tracelint.wasm" ] || atf_fail "$WEB_DIR/tracelint.wasm is missing: run make web"
}

check() {
	need_page
	SRCDIR="$SRCDIR" WEB_DIR="$WEB_DIR" NPM_DIR="$NPM_DIR" CLI="$BUILDDIR/tracelint" CHROMIUM="$CHROMIUM" \
		node "$SRCDIR/tests/web/page_check.js" "$1" > out 2>&1
	status=$?
	cat out
	[ $status = 0 ] || atf_fail "$(grep '^FAIL' out | head -3 | tr '\n' ' ')"
	atf_check -o match:'^ok$' cat out
}

atf_test_case corpus_as_cli
corpus_as_cli_head() {
	atf_set "descr" "every xray, dcfg, dcfg-trace and tfile corpus case and a fixed sample of the UMTracer cases get the CLI's verdict and rules (-o json --max-errors=0)"
	atf_set "timeout" "240"
}
corpus_as_cli_body() {
	check corpus
}

atf_test_case hex_view_as_context
hex_view_as_context_head() {
	atf_set "descr" "a clicked diagnostic's hex view marks the bytes the CLI's --context marks, beside the rule's explanation; the run's JSON and SARIF download"
	atf_set "timeout" "120"
}
hex_view_as_context_body() {
	check hexview
}

atf_test_case large_xray_flat_memory
large_xray_flat_memory_head() {
	atf_set "descr" "a 200 MiB XRay trace and a 200 MiB tfile validate as the CLI says, read in slices, with WebAssembly memory under 64 MiB and the page's heap flat"
	atf_set "timeout" "300"
	atf_set "require.progs" "cc"
}
large_xray_flat_memory_body() {
	LARGE_MB=${LARGE_MB:-200} check large
}

atf_test_case diagnostics_few_reads
diagnostics_few_reads_head() {
	atf_set "descr" "an XRay trace with hundreds of diagnostics gives the CLI's rules with a bounded number of File reads (small reads come from cached blocks), not several per diagnostic"
	atf_set "timeout" "120"
	atf_set "require.progs" "cc"
}
diagnostics_few_reads_body() {
	check reads
}

atf_test_case screenshots_unchanged
screenshots_unchanged_head() {
	atf_set "descr" "the page's main states look as reports/web/page-*.png show them (pixel comparison), and a 10-pixel move of the diagnostics' columns is caught"
	atf_set "timeout" "120"
}
screenshots_unchanged_body() {
	check screenshots
}

atf_test_case done_when_documented
done_when_documented_head() {
	atf_set "descr" "a fresh clone's make check builds the page and runs these browser tests (dry run); the README's section on the page shows a committed screenshot and says how to serve build/web; reports/web has the size under 1 MB and a throughput row against the CLI for every format"
	atf_set "timeout" "120"
	atf_set "require.progs" "git make"
}
done_when_documented_body() {
	git -C "$SRCDIR" rev-parse --git-dir >/dev/null 2>&1 || atf_skip "$SRCDIR is not a git checkout"
	command -v emcc >/dev/null 2>&1 || atf_skip "emcc is not installed (make deps installs Debian's emscripten)"
	# the committed sources, as a user clones them
	atf_check -o ignore -e ignore git clone -q "$SRCDIR" clone
	make -C clone -n check > plan 2>&1 || { cat plan; atf_fail "make -n check fails in a fresh clone"; }
	grep -q 'emcc .*-o build/web/tracelint.js' plan || atf_fail "make check in a fresh clone does not build the page"
	grep -q 'kyua --config=none' plan || atf_fail "make check in a fresh clone does not run Kyua"
	grep -q '"web"' clone/tests/Kyuafile || atf_fail "tests/Kyuafile does not run tests/web"
	grep -q 'name="page_test"' clone/tests/web/Kyuafile || atf_fail "tests/web/Kyuafile does not list page_test"

	readme="$SRCDIR/README.md"
	section=$(awk '/^## In the browser/ { on = 1; next } /^## / { on = 0 } on' "$readme")
	[ -n "$section" ] || atf_fail "README.md has no section on the page"
	shot=$(printf '%s\n' "$section" | sed -n 's/.*!\[[^]]*\](\(reports\/web\/[^)]*\.png\)).*/\1/p' | head -1)
	[ -n "$shot" ] || atf_fail "the README's section on the page shows no screenshot of reports/web"
	[ -f "$SRCDIR/$shot" ] || atf_fail "the README's screenshot $shot is not in the tree"
	git -C "$SRCDIR" ls-files --error-unmatch "$shot" >/dev/null 2>&1 || atf_fail "$shot is not committed"
	printf '%s\n' "$section" | grep -q 'GitHub Pages' || atf_fail "the README does not say how to publish build/web"
	printf '%s\n' "$section" | grep -q 'http.server -d build/web' || atf_fail "the README does not say how to serve build/web"

	report="$SRCDIR/reports/web/README.md"
	[ -f "$report" ] || atf_fail "reports/web/README.md is missing"
	kib=$(sed -n 's/^| tracelint.wasm + tracelint.js[^|]*| \([0-9][0-9]*\) KiB |$/\1/p' "$report")
	[ -n "$kib" ] || atf_fail "reports/web/README.md gives no compressed size of the WebAssembly and JavaScript"
	[ "$kib" -lt 977 ] || atf_fail "the compressed WebAssembly and JavaScript take $kib KiB, not under 1 MB"
	for format in xray tfile dcfg dcfg-trace umtrace; do
		grep -Eq "^\| $format( \([^)]*\))? \| [0-9]+ MiB \| [0-9]+ MiB/s \| [0-9]+ MiB/s \| [0-9.]+x \|" "$report" ||
			atf_fail "reports/web/README.md has no throughput row of $format against the CLI"
	done
}

atf_init_test_cases() {
	atf_add_test_case corpus_as_cli
	atf_add_test_case hex_view_as_context
	atf_add_test_case large_xray_flat_memory
	atf_add_test_case diagnostics_few_reads
	atf_add_test_case screenshots_unchanged
	atf_add_test_case done_when_documented
}
