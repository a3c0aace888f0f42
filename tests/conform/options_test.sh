#! /usr/bin/env atf-sh
# tracelint-conform's command line: every malformed option is a usage error
# (exit 2, the option named), the sidecar options of corpus cases (.args:
# --pair, --endian, --format, --instr-map) reach tracelint when it is the
# oracle, and the corpus defaults to ./corpus/FMT.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"

atf_test_case usage_errors
usage_errors_head() { atf_set descr "each malformed option gives exit 2 and names the option and the value"; }
usage_errors_body() {
	mkdir -p corpus/valid
	printf 'x' > corpus/valid/a.xray
	while read -r opt want; do
		atf_check -s exit:2 -o empty -e match:"$want" "$KIT" --format=xray --reader='true {}' "$opt" corpus
	done <<'LIST'
--output=yaml bad --output \(md or json\): yaml
--oracle=label bad --oracle \(corpus or tracelint\): label
--mutate=many bad --mutate \(a count\): many
--seed=-1 bad --seed \(an unsigned integer\): -1
--keep=x bad --keep: x
--minimize-budget=1e9 bad --minimize-budget: 1e9
--progress=0 bad --progress \(mutants, > 0\): 0
--timeout=0 bad --timeout \(seconds, > 0\): 0
--shard=0/1 bad --shard \(K/N, 1 <= K <= N\): 0/1
--accept-rc=256 bad --accept-rc .*: 256
--no-such-option unknown option: --no-such-option
LIST
	atf_check -s exit:2 -e match:'--format' "$KIT" --reader='true {}' corpus
	atf_check -s exit:2 -e match:'--reader' "$KIT" --format=xray corpus
	atf_check -s exit:0 -o match:'^tracelint-conform [0-9]+\.[0-9]+' "$KIT" --version
}

atf_test_case unusable_inputs
unusable_inputs_head() { atf_set descr "an empty corpus, an unwritable report and a missing explanation file are errors, not verdicts"; }
unusable_inputs_body() {
	mkdir -p empty corpus/valid
	printf 'x' > corpus/valid/a.xray
	atf_check -s exit:2 -e match:'no case in empty' "$KIT" --format=xray --reader='true {}' empty
	atf_check -s exit:2 -e match:'no-such-dir/r.md' "$KIT" --format=xray --reader='true {}' \
		--report=no-such-dir/r.md corpus
	atf_check -s exit:2 -e match:'missing.txt' "$KIT" --format=xray --reader='true {}' \
		--explain=missing.txt corpus
}

atf_test_case default_corpus
default_corpus_head() { atf_set descr "without a CORPUS argument the kit reads ./corpus/FMT"; }
default_corpus_body() {
	mkdir -p corpus/xray/valid
	printf 'x' > corpus/xray/valid/a.xray
	atf_check -s exit:0 -o save:r.json -e ignore "$KIT" --format=xray --reader='true {}' --output=json
	atf_check_equal "$(jq -r .cases r.json)" 1
}

atf_test_case tracelint_oracle_reads_sidecars
tracelint_oracle_reads_sidecars_head() {
	atf_set descr "with --oracle=tracelint the .args of each case (--pair, --endian, --format) reach tracelint"
	atf_set timeout 300
}
tracelint_oracle_reads_sidecars_body() {
	# A reader that accepts every file agrees exactly on the cases tracelint accepts:
	# if a --pair or --endian sidecar were dropped, valid paired and big-endian
	# cases would be rejected by the oracle and counted lenient.
	# The labels (the default oracle) are tracelint's verdicts with those options
	# (the corpus tests check that), so both oracles must count alike.
	for fmt in dcfg-trace tfile; do
		corpus="$SRCDIR/corpus/$fmt"
		for oracle in corpus tracelint; do
			atf_check -s not-exit:2 -o save:$oracle.json -e ignore "$KIT" --format=$fmt \
				--oracle=$oracle --reader='true {}' --output=json "$corpus"
		done
		atf_check_equal "$(jq -c .counts tracelint.json)" "$(jq -c .counts corpus.json)"
		[ "$(jq -r .counts.agree tracelint.json)" -gt 0 ] || atf_fail "$fmt: no case accepted"
		[ "$(jq -r .counts.lenient tracelint.json)" -gt 0 ] || atf_fail "$fmt: no case rejected"
	done
	# A sidecar tracelint cannot apply is said on stderr; the case keeps its label.
	mkdir -p bad/valid
	cp "$SRCDIR"/corpus/xray/valid/gen-fdr-v3-le.xray bad/valid/a.xray
	printf -- '--format=nonesuch\n' > bad/valid/a.xray.args
	atf_check -s exit:0 -o match:'Agree: 1\.' -e match:'unknown format in .args: nonesuch' "$KIT" \
		--format=xray --oracle=tracelint --reader='true {}' bad
}

atf_init_test_cases() {
	atf_add_test_case usage_errors
	atf_add_test_case unusable_inputs
	atf_add_test_case default_corpus
	atf_add_test_case tracelint_oracle_reads_sidecars
}
