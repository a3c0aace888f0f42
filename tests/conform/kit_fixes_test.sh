#! /usr/bin/env atf-sh
# tracelint-conform as a reader's author meets it: a broken reader command is
# said to be broken before any disagreement is counted; explained
# disagreements do not fail the run; cases can be chosen (--only, --exclude,
# --skip-compressed); report rows give tracelint's location and message;
# kept mutants list every diagnostic; the explanation files are installed.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"
XRAY="$SRCDIR/corpus/xray"

make_reader() {
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

# Real cases: three valid FDR traces, one invalid with its .expected.
real_corpus() {
	mkdir -p corpus/valid corpus/invalid
	for v in gen-fdr-v3-le gen-fdr-v4-le gen-fdr-v5-le; do
		cp "$XRAY/valid/$v.xray" corpus/valid/
	done
	cp "$XRAY/invalid/extents-eof.xray" "$XRAY/invalid/extents-eof.xray.expected" corpus/invalid/
}

atf_test_case broken_command
broken_command_head() { atf_set descr "a reader that rejects every valid case is reported as a broken command (exit 2), not as strict disagreements"; }
broken_command_body() {
	real_corpus
	# what a quoting mistake does: the reader is handed a path that does not exist
	make_reader reader 'test -f "$1" || { echo "No such file: $1" >&2; exit 1; }; exit 0'
	atf_check -s exit:2 -o save:r.md -e match:'reader command looks broken: the reader rejected all 3 valid cases' \
		"$KIT" --format=xray --reader='./reader {}.nope' corpus
	atf_check -o match:'^## The reader command looks broken' -o match:'No such file' cat r.md
	atf_check -s exit:1 -o empty grep -F 'strict' r.md
	atf_check -s exit:2 -o save:r.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}.nope' corpus
	atf_check -o match:'rejected all 3 valid cases' jq -r .broken_command r.json
	# The same reader run right: no longer broken, and it agrees everywhere but the invalid case.
	atf_check -s exit:1 -o save:ok.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}' corpus
	atf_check -o inline:'null\n' jq .broken_command ok.json
	atf_check -o inline:'3\n' jq .counts.agree ok.json
	# Two valid cases rejected: that may be a strict reader, counted as strict.
	rm corpus/valid/gen-fdr-v5-le.xray
	atf_check -s exit:1 -o save:two.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}.nope' corpus
	atf_check -o inline:'2\n' jq .counts.strict two.json
}

atf_test_case explained_exit
explained_exit_head() { atf_set descr "exit 0 when every disagreement is explained, 1 when one is not; the JSON counts the unexplained ones"; }
explained_exit_body() {
	real_corpus
	make_reader reader 'exit 0'
	printf 'lenient:XRAY-FDR-EXTENTS-* this reader reads what the buffers hold\n' > why.txt
	atf_check -s exit:0 -o save:r.json -e ignore "$KIT" --format=xray --output=json --explain=why.txt \
		--reader='./reader {}' corpus
	atf_check -o inline:'1 0\n' jq -r '"\(.disagreements) \(.unexplained)"' r.json
	printf 'strict:* nothing of the kind\n' > other.txt
	atf_check -s exit:1 -o save:r2.json -e ignore "$KIT" --format=xray --output=json --explain=other.txt \
		--reader='./reader {}' corpus
	atf_check -o inline:'1 1\n' jq -r '"\(.disagreements) \(.unexplained)"' r2.json
	# Without --explain every disagreement is unexplained.
	atf_check -s exit:1 -o save:r3.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}' corpus
	atf_check -o inline:'1\n' jq .unexplained r3.json
}

atf_test_case select_cases
select_cases_head() { atf_set descr "--only and --exclude choose cases by name; --skip-compressed leaves out gzip, bzip2 and zstd files by content"; }
select_cases_body() {
	real_corpus
	zstd -q -c "$XRAY/valid/gen-fdr-v5-le.xray" > corpus/valid/packed.xray
	make_reader reader 'exit 0'
	run() {
		"$KIT" --format=xray --output=json --reader='./reader {}' "$@" corpus > s.json 2> s.err
		jq -r '[.results[].case] | join(" ")' s.json
	}
	atf_check_equal "$(run --only='valid/gen-fdr-v4*')" "valid/gen-fdr-v4-le.xray"
	atf_check -o match:'4 cases left out' cat s.err
	atf_check_equal "$(run --only='*v3*' --only='extents-eof.xray')" "valid/gen-fdr-v3-le.xray invalid/extents-eof.xray"
	atf_check_equal "$(run --exclude='invalid/*' --exclude='packed.xray')" \
		"valid/gen-fdr-v3-le.xray valid/gen-fdr-v4-le.xray valid/gen-fdr-v5-le.xray"
	atf_check_equal "$(run --skip-compressed --only='valid/*')" \
		"valid/gen-fdr-v3-le.xray valid/gen-fdr-v4-le.xray valid/gen-fdr-v5-le.xray"
	atf_check_equal "$(run --only='valid/packed*')" "valid/packed.xray"
	atf_check -s exit:2 -e match:'no case in corpus' "$KIT" --format=xray --reader='./reader {}' --only=nothing corpus
}

atf_test_case row_location
row_location_head() { atf_set descr "a report row gives tracelint's location and message of the error it cites"; }
row_location_body() {
	real_corpus
	make_reader reader 'exit 0'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}' corpus
	want_at=$(awk '$2 == "error" { print $1; exit }' corpus/invalid/extents-eof.xray.expected)
	atf_check -o inline:"$want_at\n" jq -r '.results[] | select(.class == "lenient") | .at' r.json
	msg=$(jq -r '.results[] | select(.class == "lenient") | .tracelint_message' r.json)
	atf_check -s exit:1 -o match:"$msg" "$BUILDDIR/tracelint" corpus/invalid/extents-eof.xray
	atf_check -s exit:1 -o save:r.md -e ignore "$KIT" --format=xray --reader='./reader {}' corpus
	atf_check -o match:"^[|] invalid/extents-eof.xray [|] lenient [|] XRAY-FDR-EXTENTS-EOF [|] $want_at [|] expected " cat r.md
}

atf_test_case mutant_notes
mutant_notes_head() { atf_set descr "each kept mutant's note lists every diagnostic tracelint reports on it"; atf_set timeout 300; }
mutant_notes_body() {
	mkdir -p corpus/valid
	cp "$XRAY/valid/gen-fdr-v5-le.xray" corpus/valid/
	make_reader reader 'exit 0'
	atf_check -s exit:1 -o ignore -e ignore "$KIT" --format=xray --reader='./reader {}' --mutate=40 --seed=7 \
		--keep=2 --minimize-budget=20 --out=out corpus
	n=0
	several=0
	for note in out/*.txt; do
		[ -f "$note" ] || continue
		mutant=${note%.txt}.xray
		grep -q '^rule: XRAY-' "$note" || continue
		n=$((n + 1))
		sed -n '/^tracelint.s diagnostics/,$p' "$note" | tail -n +2 | awk '{ print $1, $2, $3 }' > listed
		"$BUILDDIR/tracelint" --format=xray --output=json "$mutant" > v.json
		jq -r '.files[0].diagnostics[] | "\(.offset) \(.severity) \(.rule)"' v.json > want
		cmp -s listed want || atf_fail "$note lists other diagnostics than tracelint reports: $(diff want listed)"
		[ "$(wc -l < want)" -gt 1 ] && several=$((several + 1))
	done
	[ "$n" -gt 0 ] || atf_fail "no mutant kept"
	[ "$several" -gt 0 ] || atf_fail "no kept mutant with more than one diagnostic among $n"
}

atf_test_case installed_explanations
installed_explanations_head() { atf_set descr "make install-conform installs the explanation files, the gdb reader and the content adapters"; atf_set timeout 300; }
installed_explanations_body() {
	make -s -C "$SRCDIR" O="$BUILDDIR" DESTDIR="$PWD/root" PREFIX=/usr install-conform > /dev/null 2>&1 ||
		atf_fail "make install-conform failed"
	for f in explain/llvm-xray.txt explain/gdb-tfile.txt readers/gdb-tfile.sh readers/llvm-xray-content.py \
		content-diff.py; do
		cmp -s "root/usr/share/tracelint/$f" "$SRCDIR/$(case $f in explain/*) echo reports/conformance/$f ;;
			content-diff.py) echo validators/conform/$f ;; *) echo validators/conform/$f ;; esac)" ||
			atf_fail "$f not installed as in the source tree"
	done
	# the installed explanations are usable as they are
	make_reader reader 'exit 0'
	real_corpus
	atf_check -s exit:0 -o save:r.json -e ignore "$KIT" --format=xray --output=json --reader='./reader {}' \
		--explain=root/usr/share/tracelint/explain/llvm-xray.txt corpus
	atf_check -o match:'^[1-9]' jq -r '[.results[] | select(.explanation)] | length' r.json
}

atf_init_test_cases() {
	atf_add_test_case broken_command
	atf_add_test_case explained_exit
	atf_add_test_case select_cases
	atf_add_test_case row_location
	atf_add_test_case mutant_notes
	atf_add_test_case installed_explanations
}
