#! /usr/bin/env atf-sh
# The worked examples of validators/examples/ do what their comments say:
# a tracer validates its trace after writing it, or while writing it.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

check_example() {
	ex="$BUILDDIR/examples/$1"
	atf_check -s exit:0 -o match:'^t\.xray: valid \(0 errors, 0 warnings; basic mode version 3' "$ex" t.xray
	atf_check -s exit:0 -o match:': valid \(' "$BUILDDIR/tracelint" t.xray
	atf_check -s exit:1 -o match:'16032: error: expected record type 0 \(function\) or 1 \(argument payload\), found 4 \[XRAY-BASIC-RECORD-TYPE\]' \
		-o match:'^t\.xray: invalid \(1 errors' "$ex" t.xray --broken
	atf_check -s exit:1 -o match:'XRAY-BASIC-RECORD-TYPE' "$BUILDDIR/tracelint" t.xray
	atf_check -s exit:2 -e match:'usage' "$ex"
}

atf_test_case validate_after_write
validate_after_write_head() { atf_set "descr" "writes a trace, validates it with tl_validate_path"; }
validate_after_write_body() { check_example validate_after_write; }

atf_test_case stream_while_write
stream_while_write_head() { atf_set "descr" "feeds every flushed buffer to tl_stream_feed, the verdict at close"; }
stream_while_write_body() { check_example stream_while_write; }

atf_init_test_cases() {
	atf_add_test_case validate_after_write
	atf_add_test_case stream_while_write
}
