#! /usr/bin/env atf-sh
# The thread count changes nothing but speed: the whole corpus and generated
# large compressed DCFGs (many bzip2 blocks, several streams, valid and full
# of diagnostics) give byte-identical output with 1, 2 and 4 threads; the
# parallel bzip2 decoder is also run under ThreadSanitizer.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# Runs tracelint with 1, 2 and 4 threads and expects one output and status.
same_for_every_count() {
	for n in 1 2 4; do
		"$TL" --no-config --threads "$n" "$@" > "out.$n" 2>&1
		echo "status $?" >> "out.$n"
	done
	atf_check -o empty cmp out.1 out.2
	atf_check -o empty cmp out.1 out.4
}

atf_test_case corpus
corpus_head() { atf_set "descr" "every corpus file: the same text and JSON output with 1, 2 and 4 threads"; }
corpus_body() {
	same_for_every_count -o json "$SRCDIR/corpus"
	atf_check -o match:'"valid"' cat out.1
	same_for_every_count "$SRCDIR/corpus"
	atf_check -o match:'files: [0-9]+ valid, [1-9][0-9]* invalid' cat out.1
}

# A DCFG of ~2.5 MB: 25 bzip2 blocks at level 1.
make_large() {
	atf_check python3 "$SRCDIR/corpus/dcfg/gen_large.py" 6000 big.dcfg.json big.trace.json
}

atf_test_case large_bzip2
large_bzip2_head() {
	atf_set "descr" "generated DCFGs of many bzip2 blocks and streams: the same output with 1, 2 and 4 threads"
	atf_set "require.progs" "bzip2 python3"
}
large_bzip2_body() {
	make_large
	bzip2 -1 -c big.dcfg.json > one.dcfg.json.bz2
	same_for_every_count one.dcfg.json.bz2
	atf_check -o match:'^one.dcfg.json.bz2: valid' cat out.1
	# Two streams, as parallel compressors write them, at different levels.
	half=$(( $(wc -c < big.dcfg.json) / 2 ))
	head -c "$half" big.dcfg.json | bzip2 -2 -c > two.dcfg.json.bz2
	tail -c +"$((half + 1))" big.dcfg.json | bzip2 -9 -c >> two.dcfg.json.bz2
	same_for_every_count two.dcfg.json.bz2
	atf_check -o match:'^two.dcfg.json.bz2: valid' cat out.1
	# Broken edges all over: many diagnostics, in the same order.
	sed 's/\[\([0-9]*\)5, \([0-9]*\), /[\15, 9\2, /' big.dcfg.json | bzip2 -1 -c > bad.dcfg.json.bz2
	same_for_every_count -o json --max-errors 0 bad.dcfg.json.bz2
	atf_check -o match:'"rule"' cat out.1
	# A corrupt block and a cut file: the sequential decoder's finding.
	cp one.dcfg.json.bz2 flipped.dcfg.json.bz2
	printf 'X' | dd of=flipped.dcfg.json.bz2 bs=1 seek=100000 conv=notrunc 2>/dev/null
	same_for_every_count flipped.dcfg.json.bz2
	atf_check -o match:'found corrupt data near compressed byte .*\[TL-COMPRESSED-STREAM\]' cat out.1
	head -c 150000 one.dcfg.json.bz2 > cut.dcfg.json.bz2
	same_for_every_count cut.dcfg.json.bz2
	atf_check -o match:'expected the bzip2 stream to go on.*\[TL-COMPRESSED-STREAM\]' cat out.1
}

atf_test_case bzip2_thread_sanitizer
bzip2_thread_sanitizer_head() {
	atf_set "descr" "parallel bzip2 decoding under ThreadSanitizer: no data race, the sequential bytes"
	atf_set "require.progs" "bzip2 python3"
}
bzip2_thread_sanitizer_body() {
	make_large
	bzip2 -1 -c big.dcfg.json > one.bz2
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" atf_check -o match:'^4 threads: [0-9]+ bytes, equal to 1 thread$' \
		"$BUILDDIR/threads/bzip2-par-tsan" one.bz2 4
}

atf_init_test_cases() {
	atf_add_test_case corpus
	atf_add_test_case large_bzip2
	atf_add_test_case bzip2_thread_sanitizer
}
