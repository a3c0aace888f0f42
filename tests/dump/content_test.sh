#! /usr/bin/env atf-sh
# tracelint dump: every valid corpus case dumps exactly to its
# <case>.content.expected sidecar (regenerate with `make corpus-content`),
# and the command behaves on damaged input, limits and bad usage.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TRACELINT="$BUILDDIR/tracelint"
# The formats whose valid cases all carry expected content.
DUMPED='xray tfile dcfg dcfg-trace umtrace'

. "$SRCDIR/corpus/cases.sh"

define_format() {
	fmt=$1
	name=$(echo "$fmt" | tr - _)_content
	eval "${name}_head() { atf_set descr 'every valid $fmt case dumps to its .content.expected, exit 0'; }"
	eval "${name}_body() { check_format $fmt; }"
	atf_add_test_case "$name"
}

check_format() {
	: > failures
	n=0
	for path in "$SRCDIR/corpus/$1"/valid/*; do
		is_case "$path" || continue
		n=$((n + 1))
		case_run "$TRACELINT" "$path" dump > actual 2> stderr
		rc=$?
		if [ ! -f "$path.content.expected" ]; then
			echo "${path#$SRCDIR/}: no .content.expected sidecar" >> failures
		elif [ $rc -ne 0 ]; then
			echo "${path#$SRCDIR/}: exit $rc: $(head -3 stderr)" >> failures
		elif ! cmp -s actual "$path.content.expected"; then
			echo "${path#$SRCDIR/}: content differs:" >> failures
			diff "$path.content.expected" actual | head -6 >> failures
		fi
	done
	[ "$n" -gt 0 ] || atf_fail "no valid $1 case found"
	if [ -s failures ]; then
		cat failures
		atf_fail "$(grep -c '^corpus/' failures) of $n $1 cases: see the output"
	fi
}

atf_test_case damaged_dumps_what_it_can
damaged_dumps_what_it_can_head() {
	atf_set descr "a damaged XRay file: the records before the damage, the diagnostics on stderr, exit 1"
}
damaged_dumps_what_it_can_body() {
	good="$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray"
	# cut inside the third buffer's records: its BufferExtents counts bytes that are not there
	head -c 300 "$good" > cut.xray
	atf_check -s exit:1 -o save:out -e save:err "$TRACELINT" dump cut.xray
	atf_check -o inline:"XRAY-FDR-EXTENTS-EOF\n" sh -c "grep -o 'XRAY-FDR-EXTENTS-EOF' err | sort -u"
	# the records of the first buffer and those of the second before the cut
	head -n "$(wc -l < out)" "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray.content.expected" > want
	atf_check -o file:want cat out
	[ "$(wc -l < out)" -gt 10 ] || atf_fail "only $(wc -l < out) lines dumped"
	# a record cut in the middle: framing is lost, the dump says where it stopped
	head -c 262 "$good" > cut2.xray
	atf_check -s exit:1 -o save:out2 -e match:"cannot be framed" "$TRACELINT" dump cut2.xray
}

atf_test_case damaged_other_formats
damaged_other_formats_head() {
	atf_set descr "damaged tfile, DCFG and UMTracer inputs: what decodes is dumped, the rest said on stderr, exit 1"
}
damaged_other_formats_body() {
	tf="$SRCDIR/corpus/tfile/valid/block-m-addr32.tf"
	head -c $(($(wc -c < "$tf") - 20)) "$tf" > cut.tf
	atf_check -s exit:1 -o save:out -e match:'TFILE-FRAME-SIZE' -e match:'frame 1 at offset [0-9]+ does not fit' \
		"$TRACELINT" dump cut.tf
	head -n "$(wc -l < out)" "$tf.content.expected" > want
	atf_check -o file:want cat out
	atf_check -o match:'"kind":"memory"' tail -1 out
	printf '{"MAJOR_VERSION": 1, "PROCESSES": [' > bad.dcfg.json
	atf_check -s exit:1 -o empty -e match:'JSON-SYNTAX' -e match:'does not parse' "$TRACELINT" dump -f dcfg bad.dcfg.json
	cp -R "$SRCDIR/corpus/umtrace/valid/aborted-not-last" trace
	rm trace/thread.itable
	atf_check -s exit:1 -o save:umt -e match:'UMT-FILE-MISSING' -e match:'thread.itable is missing' "$TRACELINT" dump trace
	atf_check -o inline:'0\n' sh -c 'grep -c "\"kind\":\"thread\"" umt || true'
	grep -v '"kind":"thread"' "$SRCDIR/corpus/umtrace/valid/aborted-not-last.content.expected" | tail -n +2 > want
	atf_check -o file:want tail -n +2 umt
}

atf_test_case hostile_corpus
hostile_corpus_head() {
	atf_set descr "every invalid and regression case dumps without a crash: exit 0, 1 or 2, JSON Lines with the header first"
	atf_set timeout 900
}
hostile_corpus_body() {
	: > failures
	n=0
	for p in "$SRCDIR"/corpus/*/invalid/* "$SRCDIR"/corpus/*/regressions/*; do
		is_case "$p" || continue
		n=$((n + 1))
		case_run "$TRACELINT" "$p" dump > out 2> err
		rc=$?
		if [ $rc -gt 2 ] || grep -q -e 'Sanitizer' -e 'runtime error' err; then
			echo "${p#$SRCDIR/}: exit $rc: $(grep -m1 -e Sanitizer -e 'runtime error' err)" >> failures
		elif [ -s out ] && ! jq -e -s 'all(.[]; type == "object" and (.kind | type == "string")) and .[0].kind == "header"' \
			out > /dev/null 2>&1; then
			echo "${p#$SRCDIR/}: not JSON Lines with a header first" >> failures
		fi
	done
	[ "$n" -gt 300 ] || atf_fail "only $n invalid and regression cases"
	[ ! -s failures ] || atf_fail "$(cat failures)"
}

atf_test_case limit
limit_head() {
	atf_set descr "--limit=N writes the header and N records and says it stopped"
}
limit_body() {
	atf_check -o save:out -e match:"limit of 3 records" "$TRACELINT" dump --limit=3 \
		"$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray"
	head -n 4 "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray.content.expected" > want
	atf_check -o file:want cat out
}

atf_test_case usage
usage_head() {
	atf_set descr "bad usage and unreadable files exit 2 with a message"
}
usage_body() {
	atf_check -s exit:2 -e match:"no FILE given" "$TRACELINT" dump
	atf_check -s exit:2 -e match:"unknown format 'nope'" "$TRACELINT" dump -f nope x
	atf_check -s exit:2 -e match:"expected a count" "$TRACELINT" dump --limit=x x
	atf_check -s exit:2 -e match:"cannot open absent" "$TRACELINT" dump absent
	atf_check -s exit:0 -o match:"Usage: tracelint dump" "$TRACELINT" dump --help
}

atf_test_case lines_are_json
lines_are_json_head() {
	atf_set descr "every line of every sidecar is one JSON object with a kind, the first a header"
}
lines_are_json_body() {
	for fmt in $DUMPED; do
		for s in "$SRCDIR/corpus/$fmt"/valid/*.content.expected; do
			jq -e -s 'all(.[]; type == "object" and (.kind | type == "string")) and .[0].kind == "header"' \
				"$s" > /dev/null || echo "$s"
		done
	done > bad
	[ ! -s bad ] || atf_fail "not JSON Lines with a header first: $(cat bad)"
}

# write_schema_check: ./schema_check.py ROOT checks that every kind of line
# in ROOT's expected content, and every key of those lines (but DCFG cells,
# keyed by their column names as a rule), is named in bold in ROOT's man
# page under DUMP, in its format's subsection or the section's
# introduction; it prints what is missing, exit 1.
write_schema_check() {
	cat > schema_check.py <<'PY'
import glob, json, re, shlex, sys
src = sys.argv[1]
man = open(src + "/validators/tracelint.1", encoding="utf-8").read()
m = re.search(r"^\.SH DUMP\n(.*?)^\.SH ", man, re.S | re.M)
section = m.group(1).replace("\\-", "-")
parts = re.split(r"^\.SS ", section, flags=re.M)
intro = parts[0]
docs = {}
for p in parts[1:]:
    title = p.split("\n", 1)[0].strip('"')
    docs[title] = p
fmt_doc = {"xray": "XRay", "tfile": "tfile", "dcfg": "DCFG and DCFG-trace", "dcfg-trace": "DCFG and DCFG-trace",
           "umtrace": "UMTracer"}
bad = []
for fmt, title in fmt_doc.items():
    text = docs.get(title)
    if text is None:
        bad.append("no subsection %r under DUMP" % title)
        continue
    text = intro + text
    bold = set(re.findall(r"\\fB([^\\]+)\\f[RP]", text)) | set(re.findall(r"^\.B (\S+)", text, re.M))
    for line in re.findall(r"^\.BR (.*)$", text, re.M):
        bold |= set(shlex.split(line)[0::2])
    # DCFG cells are keyed by their column names, which the page describes as a rule
    check_keys = fmt not in ("dcfg", "dcfg-trace")
    seen = set()
    for path in glob.glob(src + "/corpus/%s/valid/*.content.expected" % fmt):
        for line in open(path, encoding="utf-8"):
            o = json.loads(line)
            kind = o["kind"]
            if (fmt, kind) not in seen and kind not in bold:
                bad.append("%s: kind %s (%s) is not in the man page" % (fmt, kind, path.rsplit("/", 1)[1]))
            seen.add((fmt, kind))
            for key in o:
                if (fmt, kind, key) in seen:
                    continue
                seen.add((fmt, kind, key))
                if check_keys and key != "kind" and key not in bold:
                    bad.append("%s: key %s of %s lines is not in the man page" % (fmt, key, kind))
    if not seen:
        bad.append("%s: no content sidecar read" % fmt)
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
}

atf_test_case schema_in_man_page
schema_in_man_page_head() {
	atf_set descr "every kind of line and key the dump writes for each format is documented in tracelint(1) under DUMP"
	atf_set require.progs python3
}
schema_in_man_page_body() {
	write_schema_check
	atf_check -o empty python3 schema_check.py "$SRCDIR"
	# the check sees a kind and a key the page leaves out
	mkdir -p tree/validators
	ln -s "$SRCDIR/corpus" tree/corpus
	sed -e 's/^\.B syscall$/.B sys/' -e 's/\\fBfunc\\-id\\fR, //' "$SRCDIR/validators/tracelint.1" > tree/validators/tracelint.1
	atf_check -s exit:1 -o match:'umtrace: kind syscall' -o match:'xray: key func-id of function-[a-z]+ lines' \
		python3 schema_check.py tree
}

atf_init_test_cases() {
	atf_add_test_case schema_in_man_page
	for fmt in $DUMPED; do
		define_format "$fmt"
	done
	atf_add_test_case damaged_dumps_what_it_can
	atf_add_test_case damaged_other_formats
	atf_add_test_case hostile_corpus
	atf_add_test_case limit
	atf_add_test_case usage
	atf_add_test_case lines_are_json
}
