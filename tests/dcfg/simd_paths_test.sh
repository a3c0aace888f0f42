#! /usr/bin/env atf-sh
# The JSON reader's structural index runs on three paths (scalar, SSE2,
# AVX2; TRACELINT_SIMD forces one, never one the CPU lacks): every path must
# give byte-identical output, on the whole DCFG and DCFG-trace corpus and on
# hostile texts (tests/dcfg/simd_paths_gen.py) that put strings, backslash
# runs, invalid UTF-8, cut numbers and deep nesting at every place of a
# 64-byte window.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# same_on_every_path STYLES FILE...: fails naming the first file and path
# that differ, in any of the output STYLES.
same_on_every_path() {
	styles=$1
	shift
	n=0
	for f in "$@"; do
		for style in $styles; do
			for path in scalar sse2 avx2; do
				TRACELINT_SIMD=$path "$TL" --max-errors=0 -o $style "$f" > "out.$path" 2>&1
				echo "exit $?" >> "out.$path"
			done
			[ -s out.scalar ] || atf_fail "no output for $f"
			cmp -s out.scalar out.sse2 || atf_fail "sse2 differs from scalar on $f ($style): $(diff out.scalar out.sse2 | head -5)"
			cmp -s out.scalar out.avx2 || atf_fail "avx2 differs from scalar on $f ($style): $(diff out.scalar out.avx2 | head -5)"
		done
		n=$((n + 1))
	done
	echo "$n files, the same on every path"
}

atf_test_case corpus
corpus_head() {
	atf_set "descr" "every DCFG and DCFG-trace file of the corpus reads the same on the scalar, SSE2 and AVX2 paths"
	atf_set "timeout" "1200"
}
corpus_body() {
	find "$SRCDIR/corpus/dcfg" "$SRCDIR/corpus/dcfg-trace" -type f ! -name '*.expected' ! -name '*.py' ! -name '*.md' \
		| sort > files
	[ "$(wc -l < files)" -ge 100 ] || atf_fail "only $(wc -l < files) corpus files found"
	same_on_every_path "text json" $(cat files)
}

atf_test_case hostile
hostile_head() {
	atf_set "descr" "hostile texts (strings across windows, backslash runs, invalid UTF-8, cut numbers, deep nesting, random mutations) read the same on every path"
	atf_set "timeout" "1800"
}
hostile_body() {
	python3 "$SRCDIR/tests/dcfg/simd_paths_gen.py" "$SRCDIR" texts || atf_fail "generator failed"
	[ "$(ls texts | wc -l)" -ge 300 ] || atf_fail "only $(ls texts | wc -l) texts written"
	same_on_every_path json texts/*
	# the texts reach the paths they were built for: errors of each kind
	atf_check -s exit:1 -o match:'JSON-SYNTAX' "$TL" texts/utf8_invalid_33.dcfg.json
	atf_check -s exit:1 -o match:'1025th level' "$TL" texts/deep_06.dcfg.json
	atf_check -s exit:1 -o match:"expected ',' or ']', found '1'" -o match:'JSON-SYNTAX' "$TL" texts/number_errors_63.dcfg.json
}

atf_init_test_cases() {
	atf_add_test_case corpus
	atf_add_test_case hostile
}
