#! /usr/bin/env atf-sh
# tracelint-conform --shard=K/N and --merge: four shards of a campaign merged
# give the report (Markdown and JSON) and the kept mutants of one run of the
# same campaign; shard files that do not make up one campaign are refused.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"

# A small labelled corpus from the source tree: valid seeds to mutate and a
# few invalid cases, so the corpus part of the report has rows of its own.
make_corpus() {
	mkdir -p corpus/valid corpus/invalid
	n=0
	for f in "$SRCDIR"/corpus/xray/valid/gen-fdr-v3-le.xray "$SRCDIR"/corpus/xray/valid/fdr-log-version-3.xray \
		"$SRCDIR"/corpus/xray/valid/gen-basic-v3-le.xray; do
		[ -f "$f" ] || continue
		cp "$f" corpus/valid/
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || atf_skip "no xray corpus in $SRCDIR"
	for f in "$SRCDIR"/corpus/xray/invalid/header-*.xray; do
		cp "$f" "$f.expected" corpus/invalid/ 2>/dev/null
	done
}

# A reader whose verdict is a function of the bytes only (so shards and the
# single run see the same behaviour) and that disagrees in every class:
# accepts some, rejects some with one of two messages, crashes on others.
make_reader() {
	cat > reader <<'EOF'
#!/bin/sh
s=$(cksum < "$1" | cut -d' ' -f1)
case $((s % 6)) in
0) kill -SEGV $$ ;;
1) echo "bad record at offset $((s % 1000))" >&2; exit 1 ;;
2) echo "truncated file" >&2; exit 1 ;;
*) exit 0 ;;
esac
EOF
	chmod +x reader
}

CAMPAIGN="--format=xray --reader=./reader\ {} --mutate=80 --seed=7 --keep=2 --minimize-budget=6"

run_kit() {
	eval "\"$KIT\" $CAMPAIGN \"\$@\" corpus"
}

atf_test_case four_shards
four_shards_head() {
	atf_set descr "4 shards merged give the report and kept mutants of one run"
	atf_set timeout 600
}
four_shards_body() {
	make_corpus
	make_reader
	run_kit --out=out --output=json --report=one.json
	atf_check_equal "$?" 1
	mv out out-json
	run_kit --out=out-md --report=one.md
	for k in 1 2 3 4; do
		run_kit --out=out --shard=$k/4 --report=shard-$k.txt
		atf_check_equal "$?" 1
		mv out "out-$k"
	done
	# Each shard ran its own slice: 20 of the 80 mutants, the corpus only in shard 1.
	atf_check -o inline:"20\n20\n20\n20\n" sh -c 'grep -h "^campaign" shard-?.txt | cut -f4'
	atf_check -o match:'^[1-9]' sh -c 'grep -c "^row" shard-1.txt'
	atf_check -o inline:"0\n" -s exit:1 grep -c "^row" shard-2.txt
	# The kept mutants of every shard in one directory, as a CI job collects them.
	mkdir out
	cp out-?/* out/
	[ "$(ls out | wc -l)" -gt "$(ls out-json | wc -l)" ] || atf_fail "the shards kept no surplus mutant"
	atf_check diff -r out-json out-md
	atf_check -s exit:1 "$KIT" --merge --out=out --output=json --report=merged.json shard-4.txt shard-2.txt shard-3.txt shard-1.txt
	atf_check -s exit:1 "$KIT" --merge --out=out --report=merged.md shard-1.txt shard-2.txt shard-3.txt shard-4.txt
	# Identical but for the time taken: tracelint's location and message of
	# each disagreement (corpus rows and kept mutants) and each case's intent
	# included.
	atf_check -o save:a.txt jq -S 'del(.campaign.seconds)' one.json
	atf_check -o save:b.txt jq -S 'del(.campaign.seconds)' merged.json
	atf_check cmp a.txt b.txt
	jq -e '[.results[] | select(.class != "agree" and .tracelint == "rejects" and .at != "" and .tracelint_message != "")] | length > 0' \
		merged.json > /dev/null || atf_fail "no disagreement on a rejected case with tracelint's location and message"
	jq -e '[.campaign.kept[] | select(.rule != "" and .at != "" and .tracelint_message != "")] | length > 0' \
		merged.json > /dev/null || atf_fail "no kept mutant with tracelint's location and message"
	jq -e '[.results[] | select(.intent == "must-reject")] | length > 0' merged.json > /dev/null ||
		atf_fail "the merged rows lost the cases' intent"
	jq -e '.campaign.groups | length > 2' one.json > /dev/null || atf_fail "too few groups to compare"
	jq -e '[.campaign.groups[] | select(.mutants > .kept)] | length > 0' one.json > /dev/null ||
		atf_fail "no group with more mutants than kept: the merge's choice is not exercised"
	sed 's/; [0-9.]* s ([0-9.]* mutants\/s)/; T/' one.md | sed 's/out-md/out/' > a.md
	sed 's/; [0-9.]* s ([0-9.]* mutants\/s)/; T/' merged.md > b.md
	atf_check cmp a.md b.md
	atf_check -o match:'^[|] invalid/header-[^|]* [|] [a-z]+ [|] XRAY-HEADER-[A-Z-]+ [|] [0-9]+ [|] [^-|][^|]* [|]' cat merged.md
	# The merge removed the surplus kept mutants: the directory matches one run's.
	atf_check diff -r out-md out
}

atf_test_case refused
refused_head() {
	atf_set descr "--merge refuses shard files that are not the N shards of one campaign"
	atf_set timeout 300
}
refused_body() {
	make_corpus
	make_reader
	for k in 1 2; do
		run_kit --out=out --no-corpus --shard=$k/2 --report=s$k.txt
	done
	eval "\"$KIT\" --format=xray --reader=./reader\ {} --mutate=80 --seed=8 --out=out --shard=2/2 --report=other.txt corpus"
	atf_check -s exit:2 -e match:'one of 2 shards, 1 given' "$KIT" --merge s1.txt
	atf_check -s exit:2 -e match:'both shard 1' "$KIT" --merge s1.txt s1.txt
	atf_check -s exit:2 -e match:'not shards of the same campaign' "$KIT" --merge s1.txt other.txt
	head -n 5 s1.txt > cut.txt
	atf_check -s exit:2 -e match:'incomplete shard file' "$KIT" --merge cut.txt s2.txt
	atf_check -s exit:2 -e match:'not a shard file' "$KIT" --merge "$SRCDIR/README.md" s2.txt
	atf_check -s exit:2 -e match:'cannot read' "$KIT" --merge /nonexistent s2.txt
	atf_check -s exit:2 -e match:'bad --shard' "$KIT" --format=xray --reader=true --mutate=4 --shard=3/2 corpus
	atf_check -s exit:2 -e match:'bad --shard' "$KIT" --format=xray --reader=true --mutate=4 --shard=0/2 corpus
	atf_check -s exit:2 -e match:'--shard needs --mutate' "$KIT" --format=xray --reader=true --shard=1/2 corpus
	atf_check -s exit:2 -e match:'--merge takes only' "$KIT" --merge --format=xray s1.txt s2.txt
	atf_check -s exit:2 -e match:'--merge needs the shard files' "$KIT" --merge
}

atf_init_test_cases() {
	atf_add_test_case four_shards
	atf_add_test_case refused
}
