#! /usr/bin/env atf-sh
# Output that streams: memory for the report and for baselines does not
# grow with the number of diagnostics, in any output style, with -j, when
# writing a baseline and when reading one back; --max-errors bounds what is
# printed in every style, unchanged results included. The input is a small
# gzip DCFG whose FILE_NAMES table repeats one row N times (one error each).
# Peak RSS is measured with GNU time; the validator's own memory is that of
# the text style, so each style is measured against it.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# duplicates N FILE: a DCFG with N - 1 repeated FILE_NAME_IDs.
duplicates() {
	python3 -c '
import gzip, sys
n = int(sys.argv[1])
doc = ("{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"],"
       + ",\n".join(["[1, \"a\"]"] * n) + "]}\n")
sys.stdout.buffer.write(gzip.compress(doc.encode(), 9))' "$1" > "$2"
}

# peak KB [ARGS...]: the peak resident set of tracelint ARGS, in KiB.
peak() {
	/usr/bin/time -f %M -o rss "$TL" "$@" > /dev/null 2> /dev/null
	tail -n 1 rss
}

atf_test_case flat_in_the_number_of_diagnostics
flat_in_the_number_of_diagnostics_head() {
	atf_set descr "JSON, SARIF, -j 2, --write-baseline and --baseline take no more memory than text for 40,000 diagnostics as for 10,000"
	atf_set require.progs "python3 /usr/bin/time"
	atf_set timeout 1200
}
flat_in_the_number_of_diagnostics_body() {
	# no quarantine of freed blocks: what is measured is what is held
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:detect_leaks=0"
	for n in 10000 40000; do
		duplicates $n d$n.dcfg.json.gz
		text=$(peak -q --max-errors=0 -o text d$n.dcfg.json.gz)
		"$TL" --max-errors=0 --write-baseline b$n.json d$n.dcfg.json.gz > /dev/null 2>&1
		for mode in "-o json" "-o sarif" "-j 2 -o sarif d$n.dcfg.json.gz" "--write-baseline w$n.json" \
			    "-o sarif --baseline b$n.json"; do
			kb=$(peak --max-errors=0 $mode d$n.dcfg.json.gz)
			echo "$n diagnostics, $mode: $kb KiB (text: $text KiB)"
			echo "$mode $((kb - text))" >> over$n
		done
	done
	atf_check -o inline:"39999\n" jq '.diagnostics | length' w40000.json
	# what each style needs beyond the text style does not grow with the diagnostics
	paste -d ' ' over10000 over40000 | while read -r line; do
		small=$(echo "$line" | awk '{print $(NF/2)}')
		large=$(echo "$line" | awk '{print $NF}')
		[ $((large - small)) -lt 8192 ] || atf_fail "grows with the diagnostics: $line (KiB over text at 10,000 and 40,000)"
	done
}

atf_test_case max_errors_bounds_every_style
max_errors_bounds_every_style_head() {
	atf_set descr "--max-errors bounds the diagnostics printed in text, JSON and SARIF, and the unchanged results of a baseline, which SARIF counts"
	atf_set require.progs "python3 jq"
}
max_errors_bounds_every_style_body() {
	duplicates 2001 d.dcfg.json.gz
	atf_check -s exit:1 -o save:out.txt "$TL" --max-errors=5 d.dcfg.json.gz
	atf_check -o inline:"5\n" grep -c 'error:' out.txt
	atf_check -s exit:1 -o save:out.json "$TL" --max-errors=5 -o json d.dcfg.json.gz
	atf_check -o inline:"6 2000 true\n" jq -r '.files[0] | "\(.diagnostics | length) \(.errors) \(.truncated)"' out.json
	atf_check -s exit:1 -o save:out.sarif "$TL" --max-errors=5 -o sarif d.dcfg.json.gz
	atf_check -o inline:"6\n" jq '.runs[0].results | length' out.sarif
	atf_check -s exit:1 -o ignore "$TL" --max-errors=0 --write-baseline base.json d.dcfg.json.gz
	atf_check -s exit:0 -o save:known.sarif -e ignore "$TL" --max-errors=5 -o sarif --baseline base.json d.dcfg.json.gz
	atf_check -o inline:"5 unchanged\n1 new\n" -x "jq -r '.runs[0].results[].baselineState' known.sarif | sort | uniq -c | awk '{print \$1, \$2}' | sort -r"
	atf_check -o inline:"1995\n" jq '.runs[0].properties.tracelintUnchangedNotListed' known.sarif
}

atf_init_test_cases() {
	atf_add_test_case flat_in_the_number_of_diagnostics
	atf_add_test_case max_errors_bounds_every_style
}
