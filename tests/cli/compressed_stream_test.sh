#! /usr/bin/env atf-sh
# A compressed trace whose stream is cut short, damaged or followed by other
# bytes is a broken trace (TL-COMPRESSED-STREAM, exit 1) when its name binds
# a format or --format names one: for gzip, bzip2 and zstd, and for each
# format's names, named, walked and under --unknown-format=skip. Under a
# name that binds nothing it stays unreadable (exit 2).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# compress CODEC FILE: FILE compressed with CODEC on standard output
compress() {
	case $1 in
	gz) gzip -9 -n -c "$2" ;;
	bz2) bzip2 -9 -c "$2" ;;
	zst) zstd -q -19 -c "$2" ;;
	esac
}

# make_broken: in directory $D, for each format and codec, a cut, a
# damaged and a trailing-bytes copy of a valid case under the format's name
make_broken() {
	mkdir -p "$D"
	for codec in gz bz2 zst; do
		for pair in "xray/valid/basic-log-arg1-version-3.xray run.xray" \
			    "tfile/valid/zero-tail.tf run.tf" \
			    "dcfg/valid/dcfg_block_count.dcfg.json run.dcfg.json" \
			    "dcfg-trace/valid/dtrace_group_overshoot.trace.json run.trace.json"; do
			set -- $pair
			compress $codec "$C/$1" > whole
			n=$(wc -c < whole)
			head -c $((n / 2)) whole > "$D/cut-$2.$codec"
			cp whole "$D/damaged-$2.$codec"
			# four bytes in the middle of the compressed data
			printf '\377\000\377\000' | dd of="$D/damaged-$2.$codec" bs=1 seek=$((n / 2)) conv=notrunc 2>/dev/null
			{ cat whole; echo 'not a stream'; } > "$D/trailing-$2.$codec"
		done
	done
	rm -f whole
}

atf_test_case named_by_name
named_by_name_head() {
	atf_set "descr" "every broken stream of every codec under a trace name: exit 1 with TL-COMPRESSED-STREAM, alone, at a decompressed offset"
	atf_set "require.progs" "gzip bzip2 zstd"
}
named_by_name_body() {
	D=broken
	make_broken
	for f in $D/*; do
		atf_check -s exit:1 -o save:out "$TL" "$f"
		atf_check -o match:"^$f:offset [0-9]+: error: expected .*\\[TL-COMPRESSED-STREAM\\]" \
			-o match:"^$f: invalid \\([a-z-]+: 1 error, 0 warnings; " cat out
		case $f in
		*/cut-*) atf_check -o match:'the file was cut short' cat out ;;
		*/damaged-*) atf_check -o match:'(cut short|corrupt data|other bytes)' cat out ;;
		*/trailing-*) atf_check -o match:'(other bytes|corrupt data)' cat out ;;
		esac
	done
	# the format is the name's
	atf_check -s exit:1 -o match:'invalid \(tfile: 1 error' "$TL" $D/cut-run.tf.zst
	atf_check -s exit:1 -o match:'invalid \(dcfg-trace: 1 error' "$TL" $D/cut-run.trace.json.bz2
}

atf_test_case walked_and_skip
walked_and_skip_head() {
	atf_set "descr" "a walk counts every broken trace invalid, also with --unknown-format=skip; -o json names the rule"
	atf_set "require.progs" "gzip bzip2 zstd jq"
}
walked_and_skip_body() {
	D=broken
	make_broken
	total=$(ls $D | wc -l)
	atf_check -s exit:1 -o ignore -e match:"$total files: 0 valid, $total invalid, 0 unreadable, 0 skipped" "$TL" $D
	atf_check -s exit:1 -o ignore -e match:"$total files: 0 valid, $total invalid" "$TL" --unknown-format=skip $D
	atf_check -s exit:1 -o save:json -e ignore "$TL" -o json $D
	atf_check -o inline:"$total\n" jq '[.files[] | select(.valid == false and .diagnostics[0].rule == "TL-COMPRESSED-STREAM")] | length' json
}

atf_test_case unbound_name
unbound_name_head() {
	atf_set "descr" "under a name that binds nothing a broken stream is unreadable (exit 2), unless --format names the format"
	atf_set "require.progs" "gzip"
}
unbound_name_body() {
	gzip -9 -n -c "$C/xray/valid/basic-log-arg1-version-3.xray" > whole
	head -c 40 whole > capture.gz
	atf_check -s exit:2 -o match:'capture.gz: error: capture.gz: gzip data end early' "$TL" capture.gz
	atf_check -s exit:1 -o match:'TL-COMPRESSED-STREAM' -o match:'capture.gz: invalid \(xray' "$TL" --format=xray capture.gz
	# walked, it is unreadable too
	mkdir d && cp capture.gz d/
	atf_check -s exit:2 -o match:'gzip data end early' -e match:'1 file: 0 valid, 0 invalid, 1 unreadable' "$TL" d
}

atf_init_test_cases() {
	atf_add_test_case named_by_name
	atf_add_test_case walked_and_skip
	atf_add_test_case unbound_name
}
