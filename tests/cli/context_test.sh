#! /usr/bin/env atf-sh
# Context under diagnostics in text output: the bytes around a binary offset
# (hex and ASCII, the whole offending field marked ^~~, then the record's
# decoded fields for XRay and tfile), the line with a caret for JSON and
# text; gcc's colours. On by default on a terminal only; never with -q.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

atf_test_case binary_dump
binary_dump_head() { atf_set "descr" "a binary diagnostic shows its 16-byte row and the next, the field marked, then its record decoded"; }
binary_dump_body() {
	cp "$C/xray/invalid/metadata-kind.xray" t.xray
	atf_check -s exit:1 -o save:out "$TL" --context t.xray
	cat > expected <<'OUT'
t.xray:offset 112 (record 5): error: expected a metadata kind 0..9, found 12 in buffer 0 [XRAY-FDR-METADATA-KIND]
  00000070: 19 a5 a5 a5 a5 a5 a5 a5  a5 a5 a5 a5 a5 a5 a5 a5  |................|
            ^~
  00000080: 10 00 00 00 01 00 00 00                           |........|
  record: kind=metadata-12 (undefined)
t.xray: invalid (xray: 1 error, 0 warnings; FDR version 5, little-endian (detected))
OUT
	atf_check -o file:expected cat out
	# a byte in the second half of a row: one more column after the eighth byte
	cp "$C/tfile/invalid/block-type.tf" t.tf
	atf_check -s exit:1 -o save:tf "$TL" --context t.tf
	atf_check -o match:'^  000001e0: 06 07 08 09 0a 0b 0c 0d  0e 0f 53 04 00 61 62 63  \|\.\.\.\.\.\.\.\.\.\.S\.\.abc\|$' cat tf
	atf_check -o match:'^                                           \^~$' cat tf
	atf_check -o match:"^  block: type=0x53 \\('S', not R, M or V\\)$" cat tf
}

atf_test_case field_wide_marker
field_wide_marker_head() { atf_set "descr" "the marker spans the whole field (8 bytes of a TSC, 4 of a delta, a block's address and length across two rows, a UMTracer row's column) and a line names the decoded fields"; }
field_wide_marker_body() {
	cp "$C/xray/valid/warn-tsc-backwards.xray" t.xray
	atf_check -o save:out "$TL" --context t.xray
	cat > expected <<'OUT'
t.xray:offset 144 (record 8): warning: expected the TSC of CPU 0 to be at least 1048676 in buffer 0, found NewCPUId with TSC 80 [XRAY-FDR-TSC-BACKWARDS]
  00000090: 05 00 00 50 00 00 00 00  00 00 00 a5 a5 a5 a5 a5  |...P............|
                     ^~~~~~~~~~~~~~~~~~~~~~~~
  000000a0: 07 10 00 00 00 00 00 00  00 a5 a5 a5 a5 a5 a5 a5  |................|
  record: kind=new-cpu-id cpu=0 tsc=80
OUT
	atf_check -o file:expected head -n 5 out
	cp "$C/xray/valid/warn-tsc-delta-range.xray" d.xray
	atf_check -o save:delta "$TL" --context d.xray
	atf_check -o match:'^                        \^~~~~~~~~~~$' \
		-o match:'^  record: kind=function-entry func=1 tsc_delta=2147483648$' cat delta
	cp "$C/tfile/invalid/block-m-wrap.tf" t.tf
	atf_check -s exit:1 -o save:tf "$TL" --context t.tf
	cat > expected <<'OUT'
  000001e0: 06 07 08 09 0a 0b 0c 0d  0e 0f 4d fe ff ff ff ff  |..........M.....|
                                              ^~~~~~~~~~~~~~
  000001f0: ff ff ff 04 00 01 02 03  04 01 00 11 00 00 00 52  |...............R|
            ~~~~~~~~~~~~~~
  block: type=M address=0xfffffffffffffffe length=4
OUT
	atf_check -o file:expected sed -n 2,6p tf
	# a frame header's field: the 2-byte tracepoint number
	cp "$C/tfile/invalid/frame-tpnum.tf" n.tf
	atf_check -s exit:1 -o save:tpnum "$TL" --context n.tf
	atf_check -o match:'^                     \^~~~~$' -o match:'^  frame: tpnum=32769 size=17$' cat tpnum
	# a UMTracer table row's column, and a table header's field
	cp -R "$C/umtrace/invalid/ins-disasm-fp" u
	atf_check -s exit:1 -o save:umt "$TL" --context u
	cat > expected <<'OUT'
  00000050: 00 00 00 00 00 00 00 00  ff ff ff ff ff ff ff ff  |................|
                                     ^~~~~~~~~~~~~~~~~~~~~~~
  00000060: 0a 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|
  insRec 0: Id=0 Type=0 CS64=1 CodeSize=3 Module=0 Address=0x401000 DisasmFP=-1 DecodedFP=10
OUT
	atf_check -o file:expected sed -n 2,5p umt
	cp -R "$C/umtrace/invalid/ins-extra-overlap" h
	atf_check -s exit:1 -o save:hdr "$TL" --context h
	atf_check -o match:'^            \^~~~~~~~~~~~~~~~~~~~~~~$' \
		-o match:'^  table header: HeaderVer=0 RecordVer=1 RowCount=3 RowSize=64 TableFP=48 ExtraFP=200 ExtraSize=383$' cat hdr
}

atf_test_case text_caret
text_caret_head() { atf_set "descr" "a JSON diagnostic shows its line and a caret at the column"; }
text_caret_body() {
	cp "$C/dcfg/invalid/dcfg_id_duplicate.dcfg.json" t.json
	atf_check -s exit:1 -o save:out "$TL" --context t.json
	atf_check -o inline:"  7 |     [1, \"hello.c\"]\n    |      ^\n  46 |                 [2, 3, \"0x10\", 8, 2]\n     |                  ^\n" \
		grep '^  ' out
	# a long line is cut 40 columns before the column, marked with ...
	python3 -c 'import sys; sys.stdout.write("{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"], [1, \"" + "a" * 300 + "\"], [1, \"b\"]]}\n")' > long.dcfg.json
	atf_check -s exit:1 -o save:long "$TL" --context -f dcfg long.dcfg.json
	atf_check -o match:'^  1 \| \.\.\.a{35}"\], \[1, "b"\]\]\}$' cat long
	atf_check -o match:'^    \| {44}\^$' cat long
}

atf_test_case colours
colours_head() { atf_set "descr" "--color=always colours as gcc; never and the default off a terminal do not"; }
colours_body() {
	cp "$C/xray/invalid/metadata-kind.xray" t.xray
	esc=$(printf '\033')
	atf_check -s exit:1 -o save:always "$TL" --color=always t.xray
	atf_check -o match:"^${esc}\[01mt\.xray:offset 112 \(record 5\):${esc}\[m ${esc}\[01;31merror:${esc}\[m expected" cat always
	atf_check -s exit:1 -o save:plain "$TL" t.xray
	atf_check -o not-match:"${esc}" cat plain
	atf_check -s exit:1 -o save:never "$TL" --color=never --context t.xray
	atf_check -o not-match:"${esc}" cat never
	atf_check -s exit:2 -e match:"--color: unknown value 'sometimes'" "$TL" --color=sometimes t.xray
}

atf_test_case on_a_terminal
on_a_terminal_head() {
	atf_set "descr" "on a terminal context and colour are on; NO_COLOR and -q are honoured"
	atf_set "require.progs" "script"
}
on_a_terminal_body() {
	cp "$C/xray/invalid/metadata-kind.xray" t.xray
	esc=$(printf '\033')
	script -qec "'$TL' t.xray" /dev/null > tty.out || true
	atf_check -o match:'00000070: 19 a5' cat tty.out
	atf_check -o match:"${esc}\[01;31merror:" cat tty.out
	NO_COLOR=1 script -qec "'$TL' t.xray" /dev/null > nocolor.out || true
	atf_check -o match:'00000070: 19 a5' cat nocolor.out
	atf_check -o not-match:"${esc}\[01" cat nocolor.out
	script -qec "'$TL' -q t.xray" /dev/null > quiet.out || true
	atf_check -o not-match:'00000070' cat quiet.out
	script -qec "'$TL' --no-context t.xray" /dev/null > nocontext.out || true
	atf_check -o not-match:'00000070' cat nocontext.out
}

# The --context report of $1 (a name in the working directory) and of its
# gzip, bzip2 and zstd copies and of standard input, the path on each line
# made "P" so that they can be compared: all five the same.
same_context_everywhere() {
	atf_check -s exit:1 -o save:plain "$TL" --context "$1"
	atf_check -o match:"$2" cat plain
	sed 's|^[^ ][^:]*:|P:|' plain > plain.p
	gzip -k "$1"
	bzip2 -k "$1"
	zstd -q "$1"
	for copy in "$1.gz" "$1.bz2" "$1.zst"; do
		atf_check -s exit:1 -o save:out "$TL" --context "$copy"
		sed 's|^[^ ][^:]*:|P:|' out > out.p
		atf_check -o file:plain.p cat out.p
	done
	atf_check -s exit:1 -o save:out -x "'$TL' --context - < '$1'"
	sed 's|^[^ ][^:]*:|P:|' out > out.p
	atf_check -o file:plain.p cat out.p
	# and -j 2, which keeps each diagnostic with its context until its turn
	atf_check -s exit:1 -o save:out -e ignore "$TL" -j 2 --context "$1" "$1.gz"
	sed 's|^[^ ][^:]*:|P:|' out > out.p
	cat plain.p plain.p > twice.p
	atf_check -o file:twice.p cat out.p
}

atf_test_case context_without_the_file
context_without_the_file_head() {
	atf_set "descr" "gzip, bzip2 and zstd files and standard input get the context the plain file gets (the diagnostic carries it)"
	atf_set "require.progs" "gzip bzip2 zstd"
}
context_without_the_file_body() {
	cp "$C/xray/invalid/event-size.xray" t.xray
	same_context_everywhere t.xray '^  record: kind=custom-event size=-8'
	cp "$C/tfile/invalid/block-m-wrap.tf" t.tf
	same_context_everywhere t.tf '^  block: type=M'
	cp "$C/dcfg/invalid/dcfg_block_cells.dcfg.json" t.dcfg.json
	same_context_everywhere t.dcfg.json '^  *[0-9]* | '
}

atf_init_test_cases() {
	atf_add_test_case binary_dump
	atf_add_test_case field_wide_marker
	atf_add_test_case text_caret
	atf_add_test_case colours
	atf_add_test_case on_a_terminal
	atf_add_test_case context_without_the_file
}
