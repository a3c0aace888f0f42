#! /usr/bin/env atf-sh
# The small repair campaign (fixed seed): real traces of each format cut at
# random offsets and with random bit flips, each repaired. Every output must
# validate, be idempotent and be read by the format's real reader; records
# kept must reach the figures stated per format (the targets, 99% of the
# records before a cut and 90% of a file's records after a flip, where they
# are met; the measured floor where they are not, see reports/repair.md).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
RUN="$BUILDDIR/repair-campaign"

campaign() {
	cd "$SRCDIR" || atf_fail "no source tree"
	"$RUN" --check "$@" > "$OLDPWD/table" 2> "$OLDPWD/err"
	status=$?
	cd "$OLDPWD" || exit 1
	cat table err
	[ "$status" = 0 ] || atf_fail "below the required figures (table above)"
}

atf_test_case xray
xray_head() { atf_set descr "XRay (compiler-rt FDR v5 and basic mode, LLVM's FDR v1): 100 cuts, 100 flips; llvm-xray reads every output"; }
xray_body() {
	command -v llvm-xray > /dev/null || atf_skip "llvm-xray not installed"
	campaign --readers --cuts 100 --flips 100 --min-kept 99:90 \
		$(cd "$SRCDIR" && ls corpus/xray/valid/real-*.xray | sed 's/^/xray:/') \
		xray:corpus/xray/valid/fdr-log-version-1.xray
}

atf_test_case dcfg_trace
dcfg_trace_head() { atf_set descr "DCFG-trace: 50 cuts, 50 flips; Python's JSON reader reads every output"; }
dcfg_trace_body() {
	campaign --readers --cuts 50 --flips 50 --min-kept 99:90 \
		dcfg-trace:corpus/dcfg-trace/valid/gen_program_s12.trace.json \
		dcfg-trace:corpus/dcfg-trace/valid/gen_walk_skew256.trace.json \
		dcfg-trace:corpus/dcfg-trace/valid/hello.trace.json
}

atf_test_case dcfg
dcfg_head() { atf_set descr "DCFG: 20 cuts, 20 flips; every output valid and read by Python's JSON reader"; }
dcfg_body() {
	campaign --readers --cuts 20 --flips 20 --min-kept 75:85 \
		dcfg:corpus/dcfg/valid/gen_program_s12.dcfg.json dcfg:corpus/dcfg/valid/dcfg_flow.dcfg.json
}

atf_test_case tfile
tfile_head() { atf_set descr "GDB tfiles: 20 cuts, 20 flips; gdb's target tfile reads every repaired output"; }
tfile_body() {
	command -v gdb > /dev/null || atf_skip "gdb not installed"
	campaign --readers --cuts 20 --flips 20 --min-kept 99:90 \
		tfile:corpus/tfile/valid/gdb-several.tf tfile:corpus/tfile/valid/gdb-while-stepping.tf \
		tfile:corpus/tfile/valid/gdb-regs.tf tfile:corpus/tfile/valid/gdb-memory.tf \
		tfile:corpus/tfile/valid/gdb-tsv.tf
}

atf_init_test_cases() {
	atf_add_test_case tfile
	atf_add_test_case xray
	atf_add_test_case dcfg_trace
	atf_add_test_case dcfg
}
