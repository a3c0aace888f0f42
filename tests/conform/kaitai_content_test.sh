#! /usr/bin/env atf-sh
# The Kaitai content adapter (validators/conform/readers/kaitai-content.py):
# the Python parsers the Kaitai compiler generates from grammars/xray.ksy,
# grammars/tfile.ksy and grammars/umtrace/*.ksy, run by Debian's
# python3-kaitaistruct, read every valid XRay, tfile and UMTracer case to the
# content tracelint dump expects, through the kit's --content comparison;
# every other disagreement is explained.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"
ADAPTER="$SRCDIR/validators/conform/readers/kaitai-content.py"
PY=/usr/bin/python3

# Skips only when the toolchain is truly absent; `make deps` installs it.
need_toolchain() {
	command -v node >/dev/null 2>&1 || atf_skip "node is not installed (make deps installs it)"
	[ -d "$SRCDIR/grammars/node_modules/kaitai-struct-compiler" ] ||
		atf_skip "grammars/node_modules lacks kaitai-struct-compiler (run make deps)"
	"$PY" -c 'import kaitaistruct' 2>/dev/null ||
		atf_skip "$PY cannot import kaitaistruct (Debian python3-kaitaistruct; make deps installs it)"
	# the parsers are generated here, never into the source tree
	node "$SRCDIR/grammars/ksy-check.js" compile-python parsers "$SRCDIR/grammars/xray.ksy" \
		"$SRCDIR/grammars/tfile.ksy" "$SRCDIR"/grammars/umtrace/*.ksy > compile.log 2>&1 || { cat compile.log; atf_fail "compiling the grammars to Python failed or warned"; }
}

# check_format FMT: the kit over the whole corpus of FMT with the adapter.
check_format() {
	need_toolchain
	"$KIT" --format="$1" --output=json --content --explain="$SRCDIR/reports/conformance/explain/kaitai.txt" \
		--reader="$PY $ADAPTER --parsers=$PWD/parsers --format=$1 {}" "$SRCDIR/corpus/$1" > r.json 2> r.err
	rc=$?
	jq -r '.results[] | select(.content == "differs" or (.kind == "valid" and .outcome != "accepted")) |
		"\(.case): \(.outcome) \(.content) \(.content_diff // "") \(.message)"' r.json
	want=$(ls "$SRCDIR/corpus/$1"/valid/*.content.expected | wc -l)
	atf_check_equal "$(jq .content.compared r.json)" "$want"
	atf_check_equal "$(jq .content.differ r.json)" 0
	atf_check_equal "$(jq '[.results[] | select(.kind == "valid" and .outcome != "accepted")] | length' r.json)" 0
	atf_check_equal "$(jq .unexplained r.json)" 0
	atf_check_equal "$rc" 0
}

atf_test_case xray_content
xray_content_head() { atf_set descr "every valid XRay case (compressed included): the generated parser's content is the expected content"; atf_set timeout 600; }
xray_content_body() { check_format xray; }

atf_test_case tfile_content
tfile_content_head() { atf_set descr "every valid tfile case: the generated parser's frames and blocks are the expected content"; atf_set timeout 600; }
tfile_content_body() { check_format tfile; }

atf_test_case umtrace_content
umtrace_content_head() { atf_set descr "every valid UMTracer trace: threads, modules, records and syscalls the generated parsers read are the expected content; what they accept breaks only rules outside umtrace.rules"; atf_set timeout 900; }
umtrace_content_body() {
	check_format umtrace
	# A lenient verdict is a rule the grammars leave to the validator, never
	# one umtrace.rules gives the member file tracelint points at.
	jq -r '.results[] | select(.class == "lenient") | "\(.at | split(":")[0]) \(.rule)"' r.json | sort -u > lenient
	[ -s lenient ] || atf_fail "no lenient verdict: the invalid cases were not run"
	grep -v '^#' "$SRCDIR/grammars/umtrace/umtrace.rules" | grep -Fx -f lenient > in_grammar
	[ ! -s in_grammar ] || atf_fail "accepted files breaking a grammar's own rule: $(tr '\n' ';' < in_grammar)"
	atf_check_equal "$(jq '[.results[] | select(.class == "agree" and .kind == "invalid")] | length > 50' r.json)" true
}

atf_test_case differences_are_caught
differences_are_caught_head() { atf_set descr "an expected content with one function id or one memory byte changed: the kit reports the line, exit 1"; }
differences_are_caught_body() {
	need_toolchain
	mkdir -p x/valid t/valid
	cp "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray" x/valid/
	sed '0,/"func-id":2,/s//"func-id":7,/' "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray.content.expected" \
		> x/valid/gen-fdr-v5-le.xray.content.expected
	atf_check -s exit:1 -o save:x.json -e ignore "$KIT" --format=xray --output=json --content \
		--reader="$PY $ADAPTER --parsers=$PWD/parsers {}" x
	atf_check -o match:'^line 3: expected .*"func-id":7.*, found .*"func-id":2' jq -r '.results[0].content_diff' x.json
	cp "$SRCDIR/corpus/tfile/valid/gdb-memory.tf" t/valid/
	awk '!done && /"kind":"memory"/ { sub(/"data":"./, "\"data\":\"x"); done = 1 } { print }' \
		"$SRCDIR/corpus/tfile/valid/gdb-memory.tf.content.expected" > t/valid/gdb-memory.tf.content.expected
	atf_check -s exit:1 -o save:t.json -e ignore "$KIT" --format=tfile --output=json --content \
		--reader="$PY $ADAPTER --parsers=$PWD/parsers {}" t
	atf_check -o match:'^line 3: expected .*"data":"x.*"kind":"memory".*, found .*"data":"7' jq -r '.results[0].content_diff' t.json
	mkdir -p u/valid
	cp -r "$SRCDIR/corpus/umtrace/valid/trace64" u/valid/
	sed 's/"kind":"record","eid":4,"thread":1,/"kind":"record","eid":4,"thread":2,/' \
		"$SRCDIR/corpus/umtrace/valid/trace64.content.expected" > u/valid/trace64.content.expected
	atf_check -s exit:1 -o save:u.json -e ignore "$KIT" --format=umtrace --output=json --content \
		--reader="$PY $ADAPTER --parsers=$PWD/parsers --format=umtrace {}" u
	atf_check -o match:'expected .*"eid":4,.*"thread":2.*, found .*"eid":4,.*"thread":1' jq -r '.results[0].content_diff' u.json
}

atf_test_case rejects_and_runtime
rejects_and_runtime_head() { atf_set descr "a file the grammar rejects: exit 1 and why; a parser that needs what the runtime lacks: exit 1, named"; }
rejects_and_runtime_body() {
	need_toolchain
	atf_check -s exit:1 -o ignore -e match:'kaitai-content: .*extents-eof.xray: ' \
		"$PY" "$ADAPTER" --parsers="$PWD/parsers" "$SRCDIR/corpus/xray/invalid/extents-eof.xray"
	cp -r parsers newer
	echo '# self._io.read_bits_int_future(3)' >> newer/xray.py
	atf_check -s not-exit:0 -e match:'lacks KaitaiStream.read_bits_int_future' \
		"$PY" "$ADAPTER" --parsers="$PWD/newer" "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray"
	atf_check -s exit:2 -e match:'Usage' "$PY" "$ADAPTER" --parsers="$PWD/parsers"
	atf_check -s exit:2 -e match:'Usage' "$PY" "$ADAPTER" --parsers="$PWD/parsers" --format=pdf x
	# a UMTracer trace whose thread.itable header gives another row size
	atf_check -s exit:1 -o ignore -e match:'kaitai-content: .*thread-row-size: Validation' \
		"$PY" "$ADAPTER" --parsers="$PWD/parsers" "$SRCDIR/corpus/umtrace/invalid/thread-row-size"
}

atf_init_test_cases() {
	atf_add_test_case xray_content
	atf_add_test_case tfile_content
	atf_add_test_case umtrace_content
	atf_add_test_case differences_are_caught
	atf_add_test_case rejects_and_runtime
}
