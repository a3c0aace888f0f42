#! /usr/bin/env atf-sh
# validators/conform/matrix.py: the conformance matrix from kit reports, each
# case with its intent and each reader's outcome (content differences too).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"
XRAY="$SRCDIR/corpus/xray"

make_reader() {
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

atf_test_case cases_by_readers
cases_by_readers_head() { atf_set descr "two readers over a corpus: intents, outcomes, content differences and diagnostics in the JSON and the HTML"; }
cases_by_readers_body() {
	mkdir -p corpus/valid corpus/invalid
	for v in gen-fdr-v5-le warn-event-empty; do
		cp "$XRAY/valid/$v.xray" "$XRAY/valid/$v.xray.content.expected" "$XRAY/valid/$v.xray.expected" corpus/valid/
	done
	cp "$XRAY/invalid/extents-eof.xray" "$XRAY/invalid/extents-eof.xray.expected" corpus/invalid/
	# accepts all, prints content with one function id wrong in gen-fdr-v5-le
	make_reader lax 'test -f "$1.content.expected" && sed "s/\"func-id\":3,/\"func-id\":9,/" "$1.content.expected"; exit 0'
	# rejects what tracelint warns about, otherwise right
	make_reader picky 'case "$1" in *warn-*|*invalid*) echo "refused" >&2; exit 1 ;; esac; cat "$1.content.expected"'
	"$KIT" --format=xray --output=json --content --reader='./lax {}' corpus > lax.json 2> /dev/null
	"$KIT" --format=xray --output=json --content --reader='./picky {}' corpus > picky.json 2> /dev/null
	atf_check python3 "$SRCDIR/validators/conform/matrix.py" --html=m.html --json=m.json lax=lax.json picky=picky.json
	cell() { jq -r --arg c "$1" --arg r "$2" '.cases[] | select(.case == $c) | .readers[$r].outcome' m.json; }
	intent() { jq -r --arg c "$1" '.cases[] | select(.case == $c) | .intent' m.json; }
	atf_check_equal "$(intent valid/gen-fdr-v5-le.xray)" "must accept"
	atf_check_equal "$(intent valid/warn-event-empty.xray)" "either"
	atf_check_equal "$(intent invalid/extents-eof.xray)" "must reject"
	atf_check_equal "$(cell valid/gen-fdr-v5-le.xray lax)" "content differs"
	atf_check_equal "$(cell invalid/extents-eof.xray lax)" "lenient"
	atf_check_equal "$(cell valid/gen-fdr-v5-le.xray picky)" "agree"
	atf_check_equal "$(cell valid/warn-event-empty.xray picky)" "refused (either)"
	atf_check_equal "$(cell invalid/extents-eof.xray picky)" "agree"
	atf_check -o match:'^XRAY-FDR-EXTENTS-EOF [0-9]+ expected ' \
		jq -r '.cases[] | select(.case == "invalid/extents-eof.xray") | "\(.rule) \(.at) \(.tracelint_message)"' m.json
	atf_check -o match:'<summary>content differs</summary>' -o match:'func-id' -o match:'refused' \
		-o match:'href="corpus/valid/gen-fdr-v5-le.xray"' cat m.html
	atf_check -s exit:2 -e ignore python3 "$SRCDIR/validators/conform/matrix.py" --html=m.html lax.json
}

atf_test_case intent_from_sidecar
intent_from_sidecar_head() { atf_set descr "the intent is what the case's sidecar states, not derived from the verdict; a refused 'either' case is explained by its reason, exit 0"; }
intent_from_sidecar_body() {
	mkdir -p corpus/valid corpus/invalid
	# a valid case with no warning, declared "either" by its sidecar
	cp "$XRAY/valid/gen-fdr-v5-le.xray" corpus/valid/odd.xray
	printf '# intent: either readers differ on this one for a test\n' > corpus/valid/odd.xray.expected
	cp "$XRAY/valid/gen-fdr-v4-le.xray" "$XRAY/valid/gen-fdr-v4-le.xray.expected" corpus/valid/
	cp "$XRAY/invalid/extents-eof.xray" "$XRAY/invalid/extents-eof.xray.expected" corpus/invalid/
	make_reader picky 'case "$1" in *odd*|*invalid*) echo "refused" >&2; exit 1 ;; esac; exit 0'
	atf_check -s exit:0 -o save:picky.json -e ignore "$KIT" --format=xray --output=json --reader='./picky {}' corpus
	atf_check -o inline:'must-accept either must-reject\n' \
		jq -r '[.results[] | .intent] | join(" ")' picky.json
	atf_check -o inline:'1 0\n' jq -r '"\(.disagreements) \(.unexplained)"' picky.json
	atf_check -o inline:'strict readers differ on this one for a test\n' \
		jq -r '.results[] | select(.case == "valid/odd.xray") | "\(.class) \(.explanation)"' picky.json
	atf_check python3 "$SRCDIR/validators/conform/matrix.py" --html=m.html --json=m.json picky=picky.json
	atf_check -o inline:'either refused (either) readers differ on this one for a test\n' \
		jq -r '.cases[] | select(.case == "valid/odd.xray") | "\(.intent) \(.readers.picky.outcome) \(.intent_why)"' m.json
	atf_check -o match:'title="readers differ on this one for a test"' cat m.html
	# without an intent line the case is "unstated", and a refusal is strict and unexplained
	grep -v '^# intent:' "$XRAY/valid/gen-fdr-v4-le.xray.expected" > corpus/valid/odd.xray.expected || :
	atf_check -s exit:1 -o save:p2.json -e ignore "$KIT" --format=xray --output=json --reader='./picky {}' corpus
	atf_check -o inline:'1 1\n' jq -r '"\(.disagreements) \(.unexplained)"' p2.json
	atf_check python3 "$SRCDIR/validators/conform/matrix.py" --html=m.html --json=m.json picky=p2.json
	atf_check -o inline:'unstated strict\n' \
		jq -r '.cases[] | select(.case == "valid/odd.xray") | "\(.intent) \(.readers.picky.outcome)"' m.json
}

atf_test_case committed_matrix
committed_matrix_head() {
	atf_set descr "the committed matrix (make conformance-matrix) has a column for every reader installable here, a cell for every case of its format, and each case's intent as its sidecar states it"
	atf_set require.progs "jq python3"
}
committed_matrix_body() {
	m="$SRCDIR/reports/conformance/matrix.json"
	atf_check -o inline:'Kaitai Python (tfile.ksy)
Kaitai Python (umtrace/*.ksy)
Kaitai Python (xray.ksy)
gdb target tfile
llvm-xray convert
llvm-xray fdr-dump --verify
' sh -c "jq -r '.readers[].name' '$m' | LC_ALL=C sort"
	# every reader has a cell in every row of its format
	atf_check -o inline:'0\n' jq '[.readers[] as $r | .cases[] | select(.format == $r.format and (.readers[$r.name] | not))] | length' "$m"
	atf_check -o match:'^[1-9][0-9]+$' jq '[.cases[] | select(.format == "umtrace")] | length' "$m"
	# each row names a case of the corpus, with the intent of its sidecar
	jq -r '.cases[] | "\(.format)/\(.case)\t\(.intent)"' "$m" | while IFS="$(printf '\t')" read -r c intent; do
		side="$SRCDIR/corpus/$c.expected"
		[ -e "$SRCDIR/corpus/$c" ] || { echo "$c: not in the corpus"; continue; }
		want=$(sed -n 's/^# intent: \([a-z-]*\).*/\1/p' "$side" 2>/dev/null | tr - ' ')
		[ "$want" = "$intent" ] || echo "$c: matrix says $intent, sidecar ${want:-nothing}"
	done > stale
	[ ! -s stale ] || atf_fail "the committed matrix is stale (make conformance-matrix): $(head -3 stale | tr '\n' ';')"
	for r in 'llvm-xray convert' 'gdb target tfile' 'Kaitai Python (umtrace/*.ksy)'; do
		grep -qF "<b>$r</b>" "$SRCDIR/reports/conformance/matrix.html" || atf_fail "matrix.html has no column $r"
	done
}

atf_init_test_cases() {
	atf_add_test_case committed_matrix
	atf_add_test_case cases_by_readers
	atf_add_test_case intent_from_sidecar
}
