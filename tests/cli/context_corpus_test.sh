#! /usr/bin/env atf-sh
# Every binary diagnostic of the corpus (XRay, tfile, UMTracer) gets its
# bytes with one field marker under them, and one that names a record gets
# that record decoded below (the formats' describe hooks), except for the
# rules listed in context_corpus.awk's terms: no bytes at the offset, or no
# whole record there.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

NOMARK="TFILE-END-MISSING XRAY-FDR-PREAMBLE UMT-FILE-MISSING UMT-SINGLE-TABLE"
NODECODE="XRAY-FDR-EXTENTS-MISSING XRAY-FDR-PREAMBLE XRAY-FDR-RECORD-CROSSES-BUFFER XRAY-BASIC-SIZE TL-MAX-ERRORS"

# The --context output of every uncompressed case of format $1, with its .args.
context_of() {
	find "$SRCDIR/corpus/$1/invalid" "$SRCDIR/corpus/$1/valid" -mindepth 1 -maxdepth 1 \
		! -name '*.expected' ! -name '*.args' ! -name '*.md' ! -name '*.env' \
		! -name '*.gz' ! -name '*.bz2' ! -name '*.zst' | LC_ALL=C sort |
	while IFS= read -r c; do
		args=""
		[ -f "$c.args" ] && args=$(tr '\n' ' ' < "$c.args")
		(cd "$(dirname "$c")" && "$TL" --context $args "$c") 2>/dev/null
	done
}

check_format() {
	context_of "$1" > out
	atf_check -o save:report awk -v nomark="$NOMARK" -v nodecode="$NODECODE" \
		-f "$SRCDIR/tests/cli/context_corpus.awk" out
	n=$(sed -n 's/^\([0-9]*\) diagnostics checked.*/\1/p' report)
	[ "$n" -ge "$2" ] || atf_fail "$1: only $n binary diagnostics in the corpus, expected at least $2"
}

atf_test_case xray
xray_head() { atf_set descr "every XRay diagnostic of the corpus: one field marker, its record decoded"; }
xray_body() { check_format xray 40; }

atf_test_case tfile
tfile_head() { atf_set descr "every tfile diagnostic of the corpus: one field marker, its frame or block decoded"; }
tfile_body() { check_format tfile 20; }

atf_test_case umtrace
umtrace_head() { atf_set descr "every UMTracer diagnostic of the corpus: one field marker"; }
umtrace_body() { check_format umtrace 150; }

atf_test_case catches_a_missing_marker
catches_a_missing_marker_head() { atf_set descr "the check fails on a diagnostic without a marker or a decoded line"; }
catches_a_missing_marker_body() {
	printf 't.xray:offset 40 (record 1): error: made up [XRAY-FDR-THREAD-ID]\n  00000020: 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n' > out
	atf_check -s exit:1 -o match:'0 markers' -o match:'no decoded line' \
		awk -v nomark="$NOMARK" -v nodecode="$NODECODE" -f "$SRCDIR/tests/cli/context_corpus.awk" out
}

atf_init_test_cases() {
	atf_add_test_case xray
	atf_add_test_case tfile
	atf_add_test_case umtrace
	atf_add_test_case catches_a_missing_marker
}
