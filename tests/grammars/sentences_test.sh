#! /usr/bin/env atf-sh
# The text grammars, executed: grammars/sentgen.py derives random sentences
# from tfile.abnf and dcfg-sequence.ebnf (fixed seed), wraps them into whole
# files with one-edit mutants, and tracelint must give each file the verdict
# the generator expects (accept every valid sentence and every mutant still
# in the language, reject the others). Also: xray-fdr.ebnf and xray.ksy name
# the same records with the same sizes.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
G="$SRCDIR/grammars"
SEED=20261125
COUNT=30
MUTANTS=6

# verdicts FORMAT: generate, validate in one run, compare verdicts; prints
# what differs and returns 1 on any difference.
verdicts() {
	fmt=$1
	rm -rf gen
	python3 "$G/sentgen.py" "$fmt" --seed $SEED --count $COUNT --mutants $MUTANTS --out gen ||
		{ echo "sentgen.py $fmt failed"; return 2; }
	n=$(wc -l < gen/expect.tsv)
	[ "$n" -ge $((COUNT * 3)) ] || { echo "only $n files generated"; return 2; }
	for want in accept reject; do
		[ "$(cut -f2 gen/expect.tsv | grep -c "^$want\$")" -ge 5 ] ||
			{ echo "fewer than 5 files to $want"; return 2; }
	done
	grep -q 'mutant.*accept' gen/expect.tsv || { echo "no mutant stays in the language"; return 2; }
	(cd gen && "$BUILDDIR/tracelint" -q -o json --format="$fmt" $(cut -f1 expect.tsv)) > out.json
	jq -r '.files[] | "\(.path)\t\(if .valid then "accept" else "reject" end)"' out.json |
		sort > got
	cut -f1,2 gen/expect.tsv | sort > want
	[ "$(wc -l < got)" -eq "$n" ] || { echo "tracelint reported $(wc -l < got) of $n files"; return 2; }
	if ! diff want got > diff.txt; then
		grep '^<' diff.txt | while read -r _ f _; do grep "^$f	" gen/expect.tsv; done
		echo "tracelint and the $fmt grammar disagree (expected verdicts above)"
		return 1
	fi
}

atf_test_case tfile_sentences
tfile_sentences_head() {
	atf_set descr "tracelint accepts generated tfile description lines (tfile.abnf) and judges their one-edit mutants as the grammar does"
}
tfile_sentences_body() {
	verdicts tfile || atf_fail "see the output"
}

atf_test_case dcfg_trace_sentences
dcfg_trace_sentences_head() {
	atf_set descr "tracelint accepts generated DCFG-trace sequences (dcfg-sequence.ebnf) and judges their one-edit mutants as the grammar does"
}
dcfg_trace_sentences_body() {
	verdicts dcfg-trace || atf_fail "see the output"
}

atf_test_case reproducible
reproducible_head() {
	atf_set descr "the same seed gives the same files; another seed other files"
}
reproducible_body() {
	for s in 1 1 2; do
		python3 "$G/sentgen.py" tfile --seed $s --count 5 --mutants 2 --out "tf$s.$$" > /dev/null
		python3 "$G/sentgen.py" dcfg-trace --seed $s --count 5 --mutants 2 --out "dt$s.$$" > /dev/null
		cat tf$s.$$/* dt$s.$$/* | cksum >> sums
		rm -rf tf$s.$$ dt$s.$$
	done
	[ "$(sed -n 1p sums)" = "$(sed -n 2p sums)" ] || atf_fail "seed 1 gave two different sets"
	[ "$(sed -n 1p sums)" != "$(sed -n 3p sums)" ] || atf_fail "seeds 1 and 2 gave the same set"
}

atf_test_case model_catches_drift
model_catches_drift_head() {
	atf_set descr "a grammar that drifts from the validator makes the comparison fail (R sizes stop being hex)"
}
model_catches_drift_body() {
	mkdir g
	cp "$G"/grammar.py "$G"/sentgen.py "$G"/dcfg-sequence.ebnf g/
	sed 's/^r-line          = %s"R " 1\*16HEXDIG/r-line          = %s"R " 1*16DIGIT/' "$G/tfile.abnf" > g/tfile.abnf
	cmp -s g/tfile.abnf "$G/tfile.abnf" && atf_fail "could not make a drifted grammar"
	G=$PWD/g
	status=0
	verdicts tfile > log 2>&1 || status=$?
	[ $status -eq 1 ] || { cat log; atf_fail "a drifted grammar did not make the verdicts differ (status $status)"; }
}

atf_test_case xray_ebnf_ksy
xray_ebnf_ksy_head() {
	atf_set descr "every record of xray-fdr.ebnf is a record type of xray.ksy of the size the EBNF gives, and every ksy record type is in the EBNF"
}
xray_ebnf_ksy_body() {
	python3 "$G/xray_crosscheck.py" "$G/xray-fdr.ebnf" "$G/xray.ksy" > log 2>&1 || { cat log; atf_fail "xray-fdr.ebnf and xray.ksy disagree"; }
	# A record missing from the ksy is caught.
	sed 's/TSCWrap/TscWrapp/' "$G/xray-fdr.ebnf" > drift.ebnf
	if python3 "$G/xray_crosscheck.py" drift.ebnf "$G/xray.ksy" > log 2>&1; then
		atf_fail "a drifted EBNF passed the cross-check"
	fi
}

atf_init_test_cases() {
	atf_add_test_case tfile_sentences
	atf_add_test_case dcfg_trace_sentences
	atf_add_test_case reproducible
	atf_add_test_case model_catches_drift
	atf_add_test_case xray_ebnf_ksy
}
