#! /usr/bin/env atf-sh
# The streamed reports are the documents a tree gave: over the whole corpus,
# each JSON and SARIF report is byte for byte its own content laid out as
# json-c's pretty printer lays a tree out (validators/core/json_out.c: two
# spaces a level, "key":value, empty containers on two lines), and -j 3
# prints text, JSON and SARIF byte for byte as -j 1 does.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

. "$SRCDIR/corpus/cases.sh"

# The json-c layout of a document, from its content.
relayout() {
	python3 -c '
import json, sys
def s(v):
    out = []
    for ch in v:
        c = ord(ch)
        if ch in "\b\n\r\t\f\"\\":
            out.append({"\b": "\\b", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\f": "\\f", "\"": "\\\"", "\\": "\\\\"}[ch])
        elif c < 0x20:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    return "\"" + "".join(out) + "\""
def d(v, level):
    pad = "  " * (level + 1)
    if isinstance(v, dict):
        body = ",\n".join(pad + s(k) + ":" + d(x, level + 1) for k, x in v.items())
        return "{\n" + body + ("\n" if v else "") + "  " * level + "}"
    if isinstance(v, list):
        body = ",\n".join(pad + d(x, level + 1) for x in v)
        return "[\n" + body + ("\n" if v else "") + "  " * level + "]"
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, str):
        return s(v)
    return str(v)
doc = json.load(open(sys.argv[1], encoding="utf-8", errors="surrogateescape"))
sys.stdout.write(d(doc, 0) + "\n")' "$1"
}

same_layout() {
	relayout "$1" > relaid || atf_fail "$2: not JSON"
	cmp -s "$1" relaid || { diff "$1" relaid | head -20; atf_fail "$2: not laid out as a tree is"; }
}

corpus_paths() {
	for path in "$SRCDIR"/corpus/*/valid/* "$SRCDIR"/corpus/*/invalid/* "$SRCDIR"/corpus/*/regressions/*; do
		is_case "$path" && [ ! -f "$path.args" ] && [ ! -f "$path.env" ] && echo "$path"
	done
}

atf_test_case json_and_sarif_as_trees
json_and_sarif_as_trees_head() { atf_set descr "every corpus case's JSON and SARIF report, and the reports of an unreadable path, an empty walk, --sarif-root and a baseline, as json-c lays them out"; atf_set require.progs python3; atf_set timeout 1200; }
json_and_sarif_as_trees_body() {
	corpus_paths > cases
	for style in json sarif; do
		"$TL" -o $style $(cat cases) > all.$style 2> /dev/null
		same_layout all.$style "the corpus in $style"
		"$TL" -o $style --max-errors=1 $(cat cases) > limited.$style 2> /dev/null
		same_layout limited.$style "the corpus in $style with --max-errors=1"
		mkdir -p empty
		"$TL" -o $style empty > empty.$style 2> /dev/null
		same_layout empty.$style "an empty walk in $style"
		"$TL" -o $style nonexistent.xray "$SRCDIR/corpus/xray/invalid/call-argument-order.xray" > bad.$style 2> /dev/null
		same_layout bad.$style "an unreadable path in $style"
		"$TL" -o $style --max-errors=1 --write-baseline base.json "$SRCDIR/corpus/dcfg/invalid" > /dev/null 2>&1
		"$TL" -o $style --max-errors=1 --baseline base.json "$SRCDIR/corpus/dcfg/invalid" > known.$style 2> /dev/null
		same_layout known.$style "a baseline in $style"
	done
	(cd "$SRCDIR" && "$TL" -o sarif --sarif-root . corpus/dcfg/invalid) > rooted.sarif 2> /dev/null
	same_layout rooted.sarif "--sarif-root"
}

atf_test_case jobs_print_as_one
jobs_print_as_one_head() { atf_set descr "-j 3 prints the corpus byte for byte as -j 1, in text, JSON and SARIF"; atf_set timeout 1200; }
jobs_print_as_one_body() {
	corpus_paths > cases
	for style in text json sarif; do
		"$TL" -j 1 --no-context -o $style $(cat cases) > one.$style 2> /dev/null
		"$TL" -j 3 --no-context -o $style $(cat cases) > three.$style 2> /dev/null
		cmp -s one.$style three.$style || { diff one.$style three.$style | head -20; atf_fail "-j 3 prints $style otherwise"; }
	done
}

atf_init_test_cases() {
	atf_add_test_case json_and_sarif_as_trees
	atf_add_test_case jobs_print_as_one
}
