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

atf_init_test_cases() {
	atf_add_test_case corpus_as_cli
	atf_add_test_case hex_view_as_context
	atf_add_test_case large_xray_flat_memory
	atf_add_test_case diagnostics_few_reads
	atf_add_test_case screenshots_unchanged
}
