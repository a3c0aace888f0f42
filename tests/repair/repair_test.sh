#! /usr/bin/env atf-sh
# tracelint repair, as users run it: valid input handed back byte for byte,
# cut and damaged traces salvaged into files tracelint and the real readers
# accept, idempotence, --in-place, standard output, exit statuses, reports.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# the first $2 bytes of $1
cut_to() { head -c "$2" "$1"; }

# a copy of $1 with bit $3 of byte $2 flipped, into $4
flip() {
	python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[int(sys.argv[2])] ^= 1 << int(sys.argv[3])
open(sys.argv[4], "wb").write(d)' "$1" "$2" "$3" "$4"
}

# repaired output is valid for tracelint, and a second repair finds nothing
check_repaired() {
	atf_check -s exit:0 -o ignore "$TL" "$1"
	atf_check -s exit:0 -o match:'nothing to repair' "$TL" repair "$1" again.out
	atf_check cmp "$1" again.out
}

# an FDR trace of about $1 bytes into $2: the header and the buffers of a
# real one, repeated
fdr_of_size() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
n = int(sys.argv[2]) // (len(d) - 32)
with open(sys.argv[3], "wb") as f:
    f.write(d[:32])
    for _ in range(n): f.write(d[32:])' "$C/xray/valid/real-fdr-v5.xray" "$1" "$2"
}

# the saved report holds a line matching each pattern given
report_says() {
	for pattern in "$@"; do
		atf_check -o match:"$pattern" cat report
	done
}

# the same for JSON, which any JSON reader reads too
check_json_repaired() {
	atf_check -o ignore python3 -m json.tool "$1"
	check_repaired "$1"
}

have_llvm_xray() { command -v llvm-xray > /dev/null; }

atf_test_case valid_returned
valid_returned_head() { atf_set descr "a valid trace of each format comes back byte for byte with exit 0"; }
valid_returned_body() {
	for f in "$C"/xray/valid/real-fdr-v5.xray "$C"/xray/valid/gen-fdr-v1-le.xray \
		 "$C"/dcfg-trace/valid/gen_program_s12.trace.json "$C"/dcfg/valid/dcfg_flow.dcfg.json \
		 "$C"/tfile/valid/gdb-several.tf "$C"/tfile/valid/gdb-locals-be.tf \
		 "$C"/xray/valid/gen-fdr-v5-be.xray "$C"/xray/valid/real-basic-v3.xray \
		 "$C"/xray/valid/warn-tsc-backwards.xray; do
		atf_check -s exit:0 -o match:'nothing to repair' "$TL" repair "$f" out
		atf_check cmp "$f" out
	done
}

atf_test_case xray_cut
xray_cut_head() { atf_set descr "an FDR trace cut inside a buffer keeps every whole record before the cut; llvm-xray reads it"; }
xray_cut_body() {
	f="$C/xray/valid/real-fdr-v5.xray"
	cut_to "$f" 3700 > cut.xray
	atf_check -s exit:1 -o save:report "$TL" repair cut.xray out.xray
	atf_check -o match:'rewritten 2928\.\.2943 \(16 bytes\): XRAY-FDR-EXTENTS-EOF' cat report
	atf_check -o match:'buffer 3 \(thread [0-9]+\): [0-9]+ records kept, 0 dropped' cat report
	check_repaired out.xray
	# the records kept are those of the original up to the cut: same dump, shorter
	if have_llvm_xray; then
		atf_check -o save:orig.dump llvm-xray fdr-dump "$f"
		atf_check -o save:out.dump llvm-xray fdr-dump out.xray
		atf_check -o save:out.yaml llvm-xray convert -output-format=yaml out.xray
		# every record but the cut buffer's size line is the original's, in order
		grep -v '^<Buffer' out.dump > o1; grep -v '^<Buffer' orig.dump | head -n "$(wc -l < o1)" > o2
		atf_check cmp o1 o2
	fi
}

atf_test_case xray_flip
xray_flip_head() { atf_set descr "a damaged record in the middle of a buffer is dropped; later records and buffers are kept"; }
xray_flip_body() {
	f="$C/xray/valid/real-fdr-v5.xray"
	# byte 1000 is the first byte of a function record: bit 0 makes it a metadata record
	flip "$f" 1000 0 bad.xray
	atf_check -s exit:1 -o ignore "$TL" bad.xray
	atf_check -s exit:1 -o save:report "$TL" repair bad.xray out.xray
	atf_check -o match:'dropped   1000\.\.' cat report
	atf_check -o match:'buffer 3 \(thread [0-9]+\): [0-9]+ records kept, 0 dropped' cat report
	check_repaired out.xray
	if have_llvm_xray; then
		atf_check -o ignore llvm-xray fdr-dump out.xray
		atf_check -o ignore llvm-xray convert -output-format=yaml out.xray
	fi
}

atf_test_case xray_basic_and_v1
xray_basic_and_v1_head() { atf_set descr "basic mode cut to whole records; FDR version 1 buffer closed by EndOfBuffer and padded"; }
xray_basic_and_v1_body() {
	cut_to "$C/xray/valid/real-basic-v3.xray" 5000 > basic.xray
	atf_check -s exit:1 -o match:'XRAY-BASIC-SIZE' "$TL" repair basic.xray out.xray
	atf_check -o inline:"4992\n" sh -c 'wc -c < out.xray'
	check_repaired out.xray
	# LLVM's own version-1 trace (llvm-xray reads the padding after EndOfBuffer as
	# records of function 0, as it does for LLVM's files; it fails on leftovers that are not)
	cut_to "$C/xray/valid/fdr-log-version-1.xray" 200 > v1.xray
	atf_check -s exit:1 -o match:'EndOfBuffer' "$TL" repair v1.xray out1.xray
	atf_check -o inline:"232\\n" sh -c 'wc -c < out1.xray'
	check_repaired out1.xray
	if have_llvm_xray; then
		atf_check -o ignore llvm-xray convert -output-format=yaml out.xray
		atf_check -o ignore llvm-xray fdr-dump out1.xray
	fi
}

atf_test_case in_place
in_place_head() { atf_set descr "--in-place replaces the input atomically, and leaves it alone when nothing is to be done or nothing can be kept"; }
in_place_body() {
	cut_to "$C/xray/valid/real-fdr-v5.xray" 3700 > t.xray
	cp t.xray before.xray
	atf_check -s exit:1 -o ignore "$TL" repair --in-place t.xray
	atf_check -s exit:0 -o ignore "$TL" t.xray
	atf_check -s not-exit:0 cmp -s t.xray before.xray
	cp t.xray valid.xray
	atf_check -s exit:0 -o match:'nothing to repair' "$TL" repair -i t.xray
	atf_check cmp t.xray valid.xray
	# only a header's start: nothing salvageable, the file stays as it was
	cut_to "$C/xray/valid/real-fdr-v5.xray" 20 > short.xray
	cp short.xray short.before
	atf_check -s exit:3 -o match:'nothing salvageable' "$TL" repair --in-place short.xray
	atf_check cmp short.xray short.before
	# no temporary file is left behind
	atf_check -o inline:"" sh -c 'ls -A | grep tracelint-repair || true'
}

atf_test_case standard_output
standard_output_head() { atf_set descr "OUTPUT '-' writes the trace to standard output and the report to standard error"; }
standard_output_body() {
	cut_to "$C/xray/valid/real-fdr-v5.xray" 3700 > t.xray
	atf_check -s exit:1 -o save:piped -e match:'repaired' "$TL" repair t.xray -
	atf_check -s exit:1 -o ignore "$TL" repair t.xray file.xray
	atf_check cmp piped file.xray
}

atf_test_case standard_input
standard_input_head() { atf_set descr "INPUT '-' reads the trace from standard input (a pipe): to a file, or with OUTPUT '-' as a filter; --in-place refuses it"; }
standard_input_body() {
	cut_to "$C/xray/valid/real-fdr-v5.xray" 3700 > t.xray
	atf_check -s exit:1 -o ignore "$TL" repair t.xray file.xray
	atf_check -s exit:1 -o match:'^-: repaired \(xray' -x "cat t.xray | \"$TL\" repair - piped.xray"
	atf_check cmp piped.xray file.xray
	atf_check -s exit:1 -o save:filtered -e match:'^-: repaired' -x "cat t.xray | \"$TL\" repair - -"
	atf_check cmp filtered file.xray
	# a valid trace passes through the filter byte for byte
	f="$C/dcfg/valid/dcfg_flow.dcfg.json"
	atf_check -s exit:0 -o save:same -e match:'nothing to repair' -x "cat \"$f\" | \"$TL\" repair - -"
	atf_check cmp same "$f"
	# nothing salvageable: exit 3, nothing on standard output
	atf_check -s exit:3 -o empty -e match:'nothing salvageable' -x "head -c 20 t.xray | \"$TL\" repair - -"
	atf_check -s exit:2 -e match:'--in-place needs a file' "$TL" repair --in-place -
	# the spooled input and the output's temporary file are gone
	atf_check -o inline:"" sh -c 'ls -A | grep tracelint-repair || true'
}

atf_test_case memory_flat
memory_flat_head() { atf_set descr "repairing a 96 MB XRay trace (valid, cut inside a buffer, one bit flipped mid-file) holds far less than the file in memory, as a 1 MB one does, and takes at most 5x the processor time of validating it (the command validates the input and its output too)"; }
memory_flat_body() {
	fdr_of_size 1000000 small.xray
	fdr_of_size 96000000 big.xray
	head -c 90000001 big.xray > cut.xray
	# a function record's first byte mid-file (byte 1000 of the original): bit 0 makes it metadata
	flip big.xray 48000904 0 flipped.xray
	# one run: its exit status, peak resident size (KiB) and processor time (ms)
	cat > run.py <<'RUN'
import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, u.ru_maxrss, int(1000 * (u.ru_utime + u.ru_stime)))
RUN
	set -- $(python3 run.py "$TL" repair -q small.xray out.xray)
	atf_check_equal 0 "$1"
	base=$2
	for f in big.xray:0 cut.xray:1 flipped.xray:1; do
		set -- $(python3 run.py "$TL" repair -q "${f%:*}" out.xray)
		atf_check_equal "${f#*:}" "$1"
		peak=$2 repair_ms=$3
		set -- $(python3 run.py "$TL" "${f%:*}")
		echo "${f%:*}: peak ${peak} KiB (1 MB file: ${base} KiB); ${repair_ms} ms, validation $3 ms"
		# the file is 94,000 KiB: its pages must not pile up
		[ "$peak" -lt $((base + 24000)) ] || atf_fail "${f%:*}: peak resident size ${peak} KiB, over ${base} + 24000 KiB"
		# linear: the input validated, the salvage, the output validated
		[ "$repair_ms" -le $((5 * $3 + 300)) ] || atf_fail "${f%:*}: repair took ${repair_ms} ms, validation $3 ms"
	done
	rm -f big.xray cut.xray flipped.xray out.xray
}

# bit $2 of byte $1 of a generated DCFG flipped, repaired into out.json, the report saved
repair_flipped_dcfg() {
	flip "$C/dcfg/valid/gen_program_s12.dcfg.json" "$1" "$2" bad.json
	atf_check -s exit:1 -o save:report "$TL" repair bad.json out.json
}

atf_test_case dcfg_flip_row
dcfg_flip_row_head() { atf_set descr "a DCFG block row broken by a flipped bit goes with its routine and what refers to it, not the whole ROUTINES table"; }
dcfg_flip_row_body() {
	# byte 12750 is in block 828's ADDR_OFFSET string ("0x3c67"): bit 6 makes it "0xsc67"
	repair_flipped_dcfg 12750 6
	report_says 'dropped   12739\.\.12767 \(29 bytes\): JSON-INTEGER: a row of table BASIC_BLOCKS' \
		'DCFG-ROUTINE-REACH: a row of table ROUTINES that does not validate' \
		'table ROUTINES: 83 records kept, 1 dropped' \
		'table BASIC_BLOCKS: 1136 records kept, 6 dropped' \
		'records: 4088 kept, 22 dropped'
	check_json_repaired out.json
	# the same as data: per-table counts, and every change with its rule
	atf_check -s exit:1 -o save:r.json "$TL" repair -o json bad.json out2.json
	atf_check -o inline:"1\n" jq '.units[] | select(.unit == "table ROUTINES") | .dropped' r.json
	atf_check -o inline:"true\n" jq '[.changes[].rule] | index("JSON-INTEGER") != null' r.json
	atf_check cmp out.json out2.json
}

atf_test_case dcfg_junk_between_rows
dcfg_junk_between_rows_head() { atf_set descr "a flipped bit turns the comma between two DCFG rows into junk: the row before it goes and every row after it is kept"; }
dcfg_junk_between_rows_body() {
	# byte 12950 is the comma after block 834's row: bit 6 makes it 'l'
	repair_flipped_dcfg 12950 6
	report_says 'JSON-SYNTAX: the end of a row broken by bytes that do not frame as JSON; resynchronised on the next whole row' \
		'table EDGES: 14[0-9][0-9] records kept' \
		'table ROUTINES: 83 records kept, 1 dropped'
	# no range is reported twice
	grep '^  dropped' report | sed 's/^  dropped *\([0-9]*\)\.\.\([0-9]*\).*/\1 \2/' > ranges
	atf_check -o empty awk 'NR > 1 && $1 <= end { print "overlap at " $1 } { end = $2 }' ranges
	check_repaired out.json
}

atf_test_case exit_statuses
exit_statuses_head() { atf_set descr "usage errors, unreadable input and a UMTracer directory exit 2, nothing salvageable exits 3 and writes nothing"; }
exit_statuses_body() {
	atf_check -s exit:2 -e match:'INPUT and OUTPUT' "$TL" repair only-one
	atf_check -s exit:2 -e match:'cannot open' "$TL" repair missing.xray out
	atf_check -s exit:2 -e match:'unknown option' "$TL" repair --bogus a b
	# a UMTracer trace is a directory of tables judged against one another: not repaired
	atf_check -s exit:2 -e match:'trace directories are not repaired' "$TL" repair "$C/umtrace/valid/aborted-not-last" out
	atf_check test ! -e out
	head -c 20 "$C/xray/valid/real-fdr-v5.xray" > short.xray
	atf_check -s exit:3 -o match:'nothing salvageable' "$TL" repair short.xray out.xray
	atf_check test ! -e out.xray
	gzip -c "$C/xray/valid/real-fdr-v5.xray" > z.xray.gz
	atf_check -s exit:2 -o match:'decompress' "$TL" repair z.xray.gz out.xray
}

atf_test_case reports
reports_head() { atf_set descr "JSON and SARIF reports list every change with its rule and the counts"; }
reports_body() {
	cut_to "$C/xray/valid/real-fdr-v5.xray" 3700 > t.xray
	atf_check -s exit:1 -o save:r.json "$TL" repair -o json t.xray out.xray
	atf_check -o inline:"repaired\n" jq -r .outcome r.json
	atf_check -o match:'XRAY-FDR-EXTENTS-EOF' jq -r '.changes[].rule' r.json
	atf_check -o inline:"4\n" jq ".units | length" r.json
	atf_check -o inline:"true\n" jq '.records_kept == ([.units[].kept] | add)' r.json
	atf_check -s exit:1 -o save:r.sarif "$TL" repair -o sarif t.xray out2.xray
	atf_check -o inline:"2.1.0\n" jq -r .version r.sarif
	atf_check -o match:'XRAY-FDR-EXTENTS-EOF' jq -r '.runs[0].results[].ruleId' r.sarif
	atf_check -o inline:"2928\n" jq '[.runs[0].results[].locations[0].physicalLocation.region.byteOffset] | min' r.sarif
}

atf_test_case dcfg_trace_cut
dcfg_trace_cut_head() { atf_set descr "a DCFG-trace cut short is closed after its last whole row; JSON readers and tracelint --pair accept it"; }
dcfg_trace_cut_body() {
	f="$C/dcfg-trace/valid/gen_program_s12.trace.json"
	pair="$C/dcfg/valid/gen_program_s12.dcfg.json"
	cut_to "$f" 9000 > t.json
	atf_check -s exit:1 -o ignore -e ignore python3 -m json.tool t.json
	atf_check -s exit:1 -o save:report "$TL" repair --pair="$pair" t.json out.json
	atf_check -o match:'JSON-SYNTAX: a document cut short' cat report
	# the rows wholly before the cut are kept: 482 transitions and the process row
	atf_check -o match:'table \[CURRENT_EDGE_ID, ...\]: 482 records kept, 0 dropped' cat report
	atf_check -o match:'empty THREAD_DATA added' cat report
	atf_check -o ignore python3 -m json.tool out.json
	atf_check -o ignore "$TL" --pair="$pair" out.json
	check_repaired out.json
	# the kept text is the input's up to the last whole row
	atf_check cmp -n 8996 out.json t.json
}

atf_test_case dcfg_trace_flip
dcfg_trace_flip_head() { atf_set descr "a row of a DCFG-trace broken by a flipped bit is dropped and the rows after it are kept"; }
dcfg_trace_flip_body() {
	f="$C/dcfg-trace/valid/gen_walk_skew256.trace.json"
	# byte 7000 is a digit of a TRANSITION_CODE string: bit 5 makes it a control character
	flip "$f" 7000 5 bad.json
	atf_check -s exit:1 -o save:report "$TL" repair bad.json out.json
	atf_check -o match:'resynchronised on the next whole row' cat report
	atf_check -o match:'CURRENT_EDGE_ID, ...\]: 511 records kept, 1 dropped' cat report
	check_json_repaired out.json
}

atf_test_case dcfg_cut
dcfg_cut_head() { atf_set descr "a DCFG cut inside its EDGES: the whole edges are kept, the ROUTINES table that needs the lost ones goes whole, counted per table; cut inside an image, the image is closed after its last whole table"; }
dcfg_cut_body() {
	cut_to "$C/dcfg/valid/dcfg_flow.dcfg.json" 2500 > t.json
	atf_check -s exit:1 -o save:report "$TL" repair t.json out.json
	atf_check -o match:'table EDGE_TYPES: 7 records kept, 0 dropped' cat report
	atf_check -o match:'table EDGES: 2 records kept, 0 dropped' cat report
	atf_check -o match:'DCFG-ROUTINE-REACH: a ROUTINES table that no longer agrees' cat report
	atf_check -o match:'table \[ENTRY_NODE_ID, ...\]: 0 records kept, 1 dropped' cat report
	check_json_repaired out.json
	# cut inside an image's third table: the image stays, with its two whole tables
	cut_to "$C/dcfg/valid/gen_program_s12.dcfg.json" 5000 > image.json
	atf_check -s exit:1 -o save:report "$TL" repair image.json out.json
	report_says 'table SYMBOLS: 84 records kept, 0 dropped' 'table SOURCE_DATA: 84 records kept, 0 dropped' \
		'records: 182 kept, 0 dropped'
	check_json_repaired out.json
}

# gdb's target tfile over a file: every frame is selected and read (the corpus's harness)
gdb_walk() {
	gdb -batch -nx -ex "python path = \"$1\"" -x "$SRCDIR/corpus/tfile/gdb/walk.py" 2>&1 | grep '^WALK-'
}

atf_test_case tfile_cut
tfile_cut_head() { atf_set descr "a tfile cut inside a frame keeps the whole frames and gets its end marker; gdb reads it"; }
tfile_cut_body() {
	cut_to "$C/tfile/valid/gdb-several.tf" 18000 > t.tf
	atf_check -s exit:1 -o save:report "$TL" repair t.tf out.tf
	atf_check -o match:'frame 3: the file ends inside it \(cut\)' cat report
	atf_check -o match:'frames: 3 records kept, 1 dropped' cat report
	atf_check -o match:'TFILE-STATUS-TFRAMES' cat report
	check_repaired out.tf
	if command -v gdb > /dev/null; then
		gdb_walk out.tf > walk.out
		atf_check -o inline:"WALK-END 3\n" cat walk.out
	fi
}

atf_test_case tfile_flip
tfile_flip_head() { atf_set descr "a tfile frame whose size is damaged is dropped, the frames after it are found again; gdb reads them all"; }
tfile_flip_body() {
	f="$C/tfile/valid/gdb-while-stepping.tf"
	# the second byte of the first frame's size (the frames start at 15586)
	flip "$f" 15589 4 bad.tf
	atf_check -s exit:1 -o save:report "$TL" repair bad.tf out.tf
	atf_check -o match:'dropped   15586\.\.15606 \(21 bytes\)' cat report
	atf_check -o match:'frames: 11 records kept, 1 dropped' cat report
	check_repaired out.tf
	if command -v gdb > /dev/null; then
		gdb_walk out.tf > walk.out
		atf_check -o inline:"WALK-END 11\n" cat walk.out
	fi
}

atf_test_case tfile_description
tfile_description_head() { atf_set descr "a tfile whose target description is damaged keeps its frames without it; gdb reads them"; }
tfile_description_body() {
	cp "$SRCDIR/fuzzers/seeds/repair/tfile-tdesc-flip.tf" bad.tf
	atf_check -s exit:1 -o match:'TFILE-TDESC-XML' "$TL" bad.tf
	atf_check -s exit:1 -o save:report "$TL" repair bad.tf out.tf
	atf_check -o match:'rewritten 8\.\.[0-9]+ .*TFILE-TDESC-XML: the target description' cat report
	atf_check -o match:'frames: 4 records kept, 0 dropped' cat report
	check_repaired out.tf
	if command -v gdb > /dev/null; then
		gdb_walk out.tf > walk.out
		atf_check -o inline:"WALK-END 4\n" cat walk.out
	fi
}

atf_init_test_cases() {
	atf_add_test_case tfile_description
	atf_add_test_case tfile_cut
	atf_add_test_case tfile_flip
	atf_add_test_case dcfg_trace_cut
	atf_add_test_case dcfg_trace_flip
	atf_add_test_case dcfg_cut
	atf_add_test_case valid_returned
	atf_add_test_case xray_cut
	atf_add_test_case xray_flip
	atf_add_test_case xray_basic_and_v1
	atf_add_test_case in_place
	atf_add_test_case standard_output
	atf_add_test_case exit_statuses
	atf_add_test_case standard_input
	atf_add_test_case memory_flat
	atf_add_test_case dcfg_flip_row
	atf_add_test_case dcfg_junk_between_rows
	atf_add_test_case reports
}
