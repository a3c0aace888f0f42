#! /usr/bin/env atf-sh
# JSON inputs built to cost time or memory: a table of a million defective
# rows, an object of millions of repeated keys. Each check has a generous cap
# (time or address space) that a linear, bounded reader meets many times over
# and the quadratic or amplifying reader it guards against cannot.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# empty_rows N OUT: a DCFG whose FILE_NAMES table has N empty (defective) rows.
empty_rows() {
	python3 -c "import sys; n = int(sys.argv[1]); open(sys.argv[2], 'w').write('{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ]' + ',[]' * n + '] }')" "$1" "$2"
}

atf_test_case defective_rows_past_max_errors
defective_rows_past_max_errors_head() {
	atf_set "descr" "10^6 defective rows with --max-errors=1 are counted in linear time (the pointer of a row is not built past the limit)"
}
defective_rows_past_max_errors_body() {
	empty_rows 1000000 f.json
	# Quadratic reporting took about 14 minutes here; linear takes about a second.
	atf_check -s exit:1 -o match:'1000000 errors' timeout 60 "$TL" -q --max-errors=1 f.json
}

atf_test_case every_defective_row_shown
every_defective_row_shown_head() {
	atf_set "descr" "3x10^5 defective rows, all shown with their pointer, in linear time"
}
every_defective_row_shown_body() {
	empty_rows 300000 f.json
	atf_check -s exit:1 -o save:out timeout 60 "$TL" --max-errors=0 f.json
	atf_check -s exit:0 -o inline:'300000\n' sh -c "grep -c 'JSON-TABLE-COLUMN' out"
	atf_check -s exit:0 -o ignore grep -F 'at /FILE_NAMES/300000 [JSON-TABLE-COLUMN]' out
}

atf_test_case repeated_keys_memory
repeated_keys_memory_head() {
	atf_set "descr" "10^6 repeats of one key (9 MB) cost memory in proportion to the file (a generous 48 bytes a byte, sanitizer included)"
}
repeated_keys_memory_body() {
	python3 -c "import sys; open(sys.argv[1], 'w').write('{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0' + ', \"a\" : 0' * 1000000 + '}')" f.json
	atf_check -s exit:1 -o match:'999999 errors' /usr/bin/time -f '%M' -o rss "$TL" -q f.json
	bytes=$(wc -c < f.json)
	kb=$(tail -n 1 rss)
	echo "peak RSS ${kb} KB for ${bytes} bytes"
	[ $((kb * 1024)) -le $((bytes * 48)) ] || atf_fail "peak RSS ${kb} KB above 48 x ${bytes} bytes"
}

atf_test_case escaped_known_keys
escaped_known_keys_head() {
	atf_set "descr" "an escaped spelling of a known key is that key: a second PROCESSES or MAJOR_VERSION is an error"
}
escaped_known_keys_body() {
	atf_check -s exit:1 -o match:'found key "PROCESSE\\\\u0053" \(read as "PROCESSES"\) again .* at /PROCESSES \[JSON-DUPLICATE-KEY\]' \
		-o match:'at /MAJOR_VERSION \[JSON-DUPLICATE-KEY\]' -o match:'2 errors, 0 warnings' \
		"$TL" "$SRCDIR/corpus/dcfg/invalid/json_duplicate_key_escaped.dcfg.json"
	atf_check -s exit:0 -o match:'valid \(dcfg: 0 errors, 0 warnings' "$TL" "$SRCDIR/corpus/dcfg/valid/json_key_escaped.dcfg.json"
}

atf_init_test_cases() {
	atf_add_test_case escaped_known_keys
	atf_add_test_case repeated_keys_memory
	atf_add_test_case defective_rows_past_max_errors
	atf_add_test_case every_defective_row_shown
}
