#! /usr/bin/env atf-sh
# tracelint-conform --content: a reader adapter prints what it decoded in the
# schema of tracelint dump, and the kit compares it with each valid case's
# .content.expected, reporting the first line that differs.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"
XRAY="$SRCDIR/corpus/xray"

make_reader() {
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

# Three valid XRay cases with their expected content, one invalid case.
content_corpus() {
	mkdir -p corpus/valid corpus/invalid
	for v in gen-fdr-v3-le gen-fdr-v5-le real-fdr-v5-events; do
		cp "$XRAY/valid/$v.xray" "$XRAY/valid/$v.xray.content.expected" corpus/valid/
	done
	cp "$XRAY/invalid/extents-eof.xray" "$XRAY/invalid/extents-eof.xray.expected" corpus/invalid/
}

kit() {
	"$KIT" --format=xray --output=json --reader='./reader {}' "$@" corpus > r.json 2> r.err
}

atf_test_case same_content
same_content_head() { atf_set descr "a reader printing the expected content, or a subset of its keys, agrees"; }
same_content_body() {
	content_corpus
	make_reader reader 'test -f "$1.content.expected" || exit 1; cat "$1.content.expected"'
	kit --content
	atf_check_equal "$?" 0
	atf_check -o inline:'3 0\n' jq -r '"\(.content.compared) \(.content.differ)"' r.json
	atf_check -o inline:'same\nsame\nsame\n' jq -r '.results[] | select(.content) | .content' r.json
	# no byte offsets: the kit compares the keys the reader prints
	make_reader reader 'test -f "$1.content.expected" || exit 1; sed "s/,\"offset\":[0-9]*//" "$1.content.expected"'
	kit --content
	atf_check_equal "$?" 0
	atf_check -o inline:'0\n' jq .content.differ r.json
}

atf_test_case first_difference
first_difference_head() { atf_set descr "a reader that decodes one record wrongly: the first differing line is reported, exit 1 unless explained"; }
first_difference_body() {
	content_corpus
	# function 3 read as 7 in one case only
	make_reader reader 'test -f "$1.content.expected" || exit 1
case "$1" in *gen-fdr-v5-le*) sed "s/\"func-id\":3,/\"func-id\":7,/" "$1.content.expected" ;; *) cat "$1.content.expected" ;; esac'
	kit --content
	atf_check_equal "$?" 1
	atf_check -o inline:'1 1\n' jq -r '"\(.content.differ) \(.unexplained)"' r.json
	line=$(grep -n '"func-id":3,' "$XRAY/valid/gen-fdr-v5-le.xray.content.expected" | head -1 | cut -d: -f1)
	atf_check -o match:"^line $line: expected .*\"func-id\":3.*, found .*\"func-id\":7" \
		jq -r '.results[] | select(.content == "differs") | .content_diff' r.json
	atf_check -o inline:'valid/gen-fdr-v5-le.xray\n' jq -r '.results[] | select(.content == "differs") | .case' r.json
	# Markdown: a Content section with the case and its first difference
	"$KIT" --format=xray --reader='./reader {}' --content corpus > r.md 2> /dev/null
	atf_check -o match:'^## Content' -o match:"^[|] valid/gen-fdr-v5-le.xray [|] line $line: expected" cat r.md
	# explained: exit 0
	printf 'content:valid/gen-fdr-v5-le.xray this reader numbers functions its own way\nlenient:* never mind\n' > why.txt
	kit --content --explain=why.txt
	atf_check_equal "$?" 0
	atf_check -o inline:'this reader numbers functions its own way\n' \
		jq -r '.results[] | select(.content == "differs") | .content_explanation' r.json
	# content that is not JSON Lines is a difference too
	make_reader reader 'echo "not json"'
	kit --content --only='valid/*'
	atf_check_equal "$?" 1
	atf_check -o inline:'3\n' jq .content.differ r.json
}

atf_test_case sorted_records
sorted_records_head() { atf_set descr "--content-sort compares records sorted by TSC, for readers that reorder them"; }
sorted_records_body() {
	content_corpus
	# the header first, then the records in reverse
	make_reader reader 'test -f "$1.content.expected" || exit 1; head -1 "$1.content.expected"; tail -n +2 "$1.content.expected" | tac'
	kit --content --only='valid/*'
	atf_check_equal "$?" 1
	atf_check -o inline:'3\n' jq .content.differ r.json
	kit --content-sort --only='valid/*'
	atf_check_equal "$?" 0
	atf_check -o inline:'0\n' jq .content.differ r.json
}

atf_test_case llvm_xray_adapter
llvm_xray_adapter_head() { atf_set descr "llvm-xray convert through its content adapter on the XRay corpus: every content difference explained"; atf_set timeout 600; }
llvm_xray_adapter_body() {
	command -v llvm-xray > /dev/null || atf_skip "llvm-xray not installed (Debian package llvm)"
	python3 -c 'import yaml' 2> /dev/null || atf_skip "python3-yaml not installed"
	"$KIT" --format=xray --output=json --content-sort --skip-compressed \
		--explain="$SRCDIR/reports/conformance/explain/llvm-xray.txt" \
		--reader="python3 $SRCDIR/validators/conform/readers/llvm-xray-content.py {}" "$XRAY" > r.json 2> r.err
	rc=$?
	jq -r '.results[] | select(.content == "differs" and (.content_explanation | not)) | "\(.case): \(.content_diff)"' r.json
	atf_check_equal "$rc" 0
	atf_check -o match:'^[0-9]+ [0-9]+$' jq -r '"\(.content.compared) \(.content.differ)"' r.json
	[ "$(jq .content.compared r.json)" -ge 25 ] || atf_fail "only $(jq .content.compared r.json) cases compared"
}

atf_test_case declared_kinds
declared_kinds_head() { atf_set descr "a reader that lists the kinds it covers in its header cannot lose a kind unnoticed; one that does not is judged on the kinds it prints"; }
declared_kinds_body() {
	content_corpus
	# no event lines, no "kinds": judged on what it prints, agrees
	make_reader reader 'test -f "$1.content.expected" || exit 1; grep -v -e custom-event -e typed-event "$1.content.expected"'
	kit --content --only='valid/gen-fdr-v5-le.xray'
	atf_check_equal "$?" 0
	# the same, declaring events among its kinds: the missing events are a difference
	make_reader reader 'test -f "$1.content.expected" || exit 1
head -1 "$1.content.expected" | sed "s/{\"kind\":\"header\",/{\"kind\":\"header\",\"kinds\":[\"function-enter\",\"function-exit\",\"function-tail-exit\",\"function-enter-arg\",\"custom-event\",\"typed-event\"],/"
tail -n +2 "$1.content.expected" | grep -v -e custom-event -e typed-event'
	kit --content --only='valid/gen-fdr-v5-le.xray'
	atf_check_equal "$?" 1
	atf_check -o match:'expected .*"kind":"custom-event"' jq -r '.results[0].content_diff' r.json
}

atf_test_case gdb_adapter
gdb_adapter_head() { atf_set descr "gdb's target tfile through its content adapter reads the frames of tfile cases as expected, and a wrong expectation shows"; atf_set timeout 600; }
gdb_adapter_body() {
	command -v gdb > /dev/null || atf_skip "gdb not installed"
	T="$SRCDIR/corpus/tfile/valid"
	mkdir -p corpus/valid
	for c in block-m-addr32.tf gdb-regs.tf; do
		cp "$T/$c" "$T/$c.content.expected" corpus/valid/
		[ ! -f "$T/$c.args" ] || cp "$T/$c.args" corpus/valid/
	done
	reader="sh $SRCDIR/validators/conform/readers/gdb-tfile-content.sh {}"
	"$KIT" --format=tfile --output=json --timeout=60 --content --reader="$reader" corpus > r.json 2> r.err
	atf_check_equal "$?" 0
	atf_check -o inline:'2 0\n' jq -r '"\(.content.compared) \(.content.differ)"' r.json
	# the expected content names another tracepoint for the second frame of one case
	sed '0,/"kind":"frame","index":1,"tracepoint":1/s//"kind":"frame","index":1,"tracepoint":2/' \
		"$T/block-m-addr32.tf.content.expected" > corpus/valid/block-m-addr32.tf.content.expected
	"$KIT" --format=tfile --output=json --timeout=60 --content --reader="$reader" corpus > r.json 2> r.err
	atf_check_equal "$?" 1
	atf_check -o match:'expected .*"index":1.*"tracepoint":2.*found .*"index":1.*"tracepoint":1' \
		jq -r '.results[] | select(.content == "differs") | .content_diff' r.json
}

atf_test_case usage
usage_head() { atf_set descr "--content does not combine with --shard or --no-corpus"; }
usage_body() {
	atf_check -s exit:2 -e match:'not with --shard' "$KIT" --format=xray --reader='x {}' --content --mutate=2 --shard=1/2 corpus
	atf_check -s exit:2 -e match:'not with --shard or --no-corpus' "$KIT" --format=xray --reader='x {}' --content --mutate=2 --no-corpus corpus
}

atf_init_test_cases() {
	atf_add_test_case same_content
	atf_add_test_case first_difference
	atf_add_test_case sorted_records
	atf_add_test_case llvm_xray_adapter
	atf_add_test_case gdb_adapter
	atf_add_test_case declared_kinds
	atf_add_test_case usage
}
