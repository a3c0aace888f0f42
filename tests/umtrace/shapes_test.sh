#! /usr/bin/env atf-sh
# Traces the corpus cannot hold: tables long enough to cross the every-65536-rows
# page drops (ins.itable rows, syscall blocks) and a trace.xml over expat's 1 MiB
# input chunks, each checked past that point; and a trace.xml outside the layout's
# model (tests/umtrace/layout_test.sh parses every valid corpus trace with it).

BUILDDIR='@BUILDDIR@'

atf_test_case many_instruction_rows
many_instruction_rows_head() {
	atf_set descr "an ins.itable of 65540 rows validates alone; a wrong ID past row 65535 is still found"
}
many_instruction_rows_body() {
	"$BUILDDIR/umtgen" gen t -s 6 -n 50 || atf_fail "umtgen failed"
	# the generator's three rows repeated, each with its own ID, before the same
	# extra area (row pointers are relative to it)
	python3 - t/ins.itable ins.itable 65540 <<'PY' || atf_fail "python3 failed"
import struct, sys
src = open(sys.argv[1], "rb").read()
n = int(sys.argv[3])
rows, row_size, table_fp, extra_fp, extra_size = struct.unpack_from("<qqqqq", src, 8)
head = bytearray(src[:48])
struct.pack_into("<qq", head, 8, n, row_size)
struct.pack_into("<q", head, 32, 48 + n * row_size)
out = [bytes(head)]
for k in range(n):
    r = bytearray(src[table_fp + (k % rows) * row_size:][:row_size])
    struct.pack_into("<q", r, 0, k)
    out.append(bytes(r))
out.append(src[extra_fp:extra_fp + extra_size])
open(sys.argv[2], "wb").write(b"".join(out))
PY
	mkdir alone && mv ins.itable alone/
	atf_check -s exit:0 -o match:'alone/ins.itable: valid \(umtrace: 0 errors, 0 warnings; one table alone\)' \
		"$BUILDDIR/tracelint" alone/ins.itable
	"$BUILDDIR/umtgen" poke alone/ins.itable $((48 + 64 * 65538)) 8 7
	atf_check -s exit:1 -o match:"alone/ins.itable:offset $((48 + 64 * 65538)): error: expected insRec ID 65538 \(its row\), found 7 \[UMT-INS-ID\]" \
		"$BUILDDIR/tracelint" alone/ins.itable
}

atf_test_case many_syscalls
many_syscalls_head() {
	atf_set descr "a trace of over 65536 system calls is valid; a block grown into its neighbour past the 65536th is still UMT-SYSCALL-BLOCK-OVERLAP"
}
many_syscalls_body() {
	"$BUILDDIR/umtgen" gen t -s 3 -n 1000000 || atf_fail "umtgen failed"
	calls=$(od -An -tu8 -j8 -N8 t/syscall.vtable | tr -d ' ')
	[ "$calls" -gt 65600 ] || atf_fail "only $calls syscalls: the test needs more than 65536"
	atf_check -s exit:0 -o match:"valid \(umtrace: 0 errors, 0 warnings; 64-bit, 1000000 exec record\(s\), 3 thread\(s\), 2 module\(s\), $calls syscall\(s\)\)" \
		"$BUILDDIR/tracelint" t
	# blocks are written in reverse ID order: syscall 65600 lies just after 65601's
	s=65600
	size=$(od -An -tu8 -j$((16 * s + 8)) -N8 t/syscall.offsets | tr -d ' ')
	"$BUILDDIR/umtgen" poke t/syscall.offsets $((16 * s + 8)) 8 $((size + 8))
	atf_check -s exit:1 -o match:"syscall.offsets:offset $((16 * s)): error: expected syscall $s block .*\[UMT-SYSCALL-BLOCK-OVERLAP\]" \
		"$BUILDDIR/tracelint" t
}

atf_test_case long_xml
long_xml_head() {
	atf_set descr "a trace.xml over 1 MiB is parsed across expat chunks: a bad ProcessID after the first MiB is found on its line"
}
long_xml_body() {
	"$BUILDDIR/umtgen" gen t -s 6 -n 50 || atf_fail "umtgen failed"
	# 70000 comment lines of 20 bytes before <App>
	awk '/<App>/ { for (i = 0; i < 70000; i++) print "<!-- padding..... -->" } { print }' t/trace.xml > x.xml
	mv x.xml t/trace.xml
	[ "$(wc -c < t/trace.xml)" -gt 1048576 ] || atf_fail "trace.xml is not over 1 MiB"
	atf_check -s exit:0 -o match:'valid \(umtrace: 0 errors, 0 warnings; 64-bit' "$BUILDDIR/tracelint" t
	sed -i 's/4242/42x/' t/trace.xml
	line=$(grep -n 'ProcessID' t/trace.xml | cut -d: -f1)
	atf_check -s exit:1 -o match:"trace.xml:$line:7: error: expected App/ProcessID to be an unsigned decimal integer, found \"42x\" \[UMT-XML-PROCESS-ID-SYNTAX\]" \
		"$BUILDDIR/tracelint" t
}

atf_test_case xml_fields_elsewhere
xml_fields_elsewhere_head() {
	atf_set descr "trace.xml: a field repeated counts once (the first), one outside TraceMetaData is not read"
}
xml_fields_elsewhere_body() {
	"$BUILDDIR/umtgen" gen t -s 6 -n 50 || atf_fail "umtgen failed"
	sed -i 's|</ProcessID>|</ProcessID><ProcessID>x</ProcessID>|; s|</TraceMetaData>|</TraceMetaData><Other><App><ProcessID>y</ProcessID></App></Other>|' t/trace.xml
	atf_check -s exit:0 -o match:'t: valid \(umtrace: 0 errors, 0 warnings; 64-bit' "$BUILDDIR/tracelint" t
	# the first one is still read: made bad, it is reported
	sed -i 's|<ProcessID>4242<|<ProcessID>z<|' t/trace.xml
	atf_check -s exit:1 -o match:'trace.xml:8:7: error: .*found "z" \[UMT-XML-PROCESS-ID-SYNTAX\]' \
		-o not-match:'found "[xy]"' "$BUILDDIR/tracelint" t
}

atf_init_test_cases() {
	atf_add_test_case many_instruction_rows
	atf_add_test_case many_syscalls
	atf_add_test_case long_xml
	atf_add_test_case xml_fields_elsewhere
}
