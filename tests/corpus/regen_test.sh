#! /usr/bin/env atf-sh
# Every corpus generator, run afresh in a copy of the corpus, writes exactly
# the committed cases (inputs and, where the generator writes them, sidecars):
# the corpus cannot drift from the code that made it. Traces recorded from
# real producers (make-real-traces.sh: clang -fxray, gdb) are not
# reproducible byte for byte and are not regenerated here.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# copy_corpus: a scratch tree laid out like the repository's root
copy_corpus() {
	mkdir -p tree
	cp -R "$SRCDIR/corpus" tree/corpus
}

# same DIR...: every file under tree/DIR equals the committed one, and no
# committed file is missing from the regenerated tree
same() {
	for d in "$@"; do
		if ! diff -r "$SRCDIR/$d" "tree/$d" > diff.txt; then
			cat diff.txt
			atf_fail "regenerating $d changed the corpus (see the diff above)"
		fi
	done
}

atf_test_case xray
xray_head() { atf_set "descr" "xraygen writes the committed synthetic XRay cases"; }
xray_body() {
	mkdir -p out/valid out/invalid
	atf_check -o ignore "$BUILDDIR/xraygen" out
	n=0
	for f in out/valid/* out/invalid/*; do
		n=$((n + 1))
		committed="$SRCDIR/corpus/xray/${f#out/}"
		[ -f "$committed" ] || atf_fail "xraygen writes $f, which the corpus lacks"
		cmp -s "$f" "$committed" || atf_fail "xraygen's ${f#out/} differs from the committed case"
	done
	[ "$n" -ge 50 ] || atf_fail "xraygen wrote only $n cases"
}

atf_test_case dcfg
dcfg_head() { atf_set "descr" "make_corpus.py writes the committed DCFG and DCFG-trace cases"; }
dcfg_body() {
	copy_corpus
	(cd tree && python3 corpus/dcfg/make_corpus.py) > log 2>&1 || { cat log; atf_fail "make_corpus.py failed"; }
	same corpus/dcfg corpus/dcfg-trace
}

atf_test_case tfile
tfile_head() { atf_set "descr" "make-cases.py writes the committed tfile cases and sidecars"; }
tfile_body() {
	copy_corpus
	(cd tree && python3 corpus/tfile/make-cases.py "$BUILDDIR/tracelint") > log 2>&1 || { cat log; atf_fail "make-cases.py failed"; }
	same corpus/tfile
}

atf_test_case umtrace
umtrace_head() { atf_set "descr" "make-corpus.sh (umtgen) writes the committed UMTracer traces"; }
umtrace_body() {
	copy_corpus
	(cd tree && TRACELINT="$BUILDDIR/tracelint" sh corpus/umtrace/make-corpus.sh "$BUILDDIR/umtgen") > log 2>&1 || { cat log; atf_fail "make-corpus.sh failed"; }
	same corpus/umtrace
}

atf_init_test_cases() {
	atf_add_test_case xray
	atf_add_test_case dcfg
	atf_add_test_case tfile
	atf_add_test_case umtrace
}
