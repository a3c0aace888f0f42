#! /usr/bin/env atf-sh
# The JSON Schemas of grammars/ accept every valid corpus file (checked with
# python3-jsonschema, a real draft 2020-12 validator) and are themselves valid.

atf_test_case valid_corpus_matches_schemas
valid_corpus_matches_schemas_head() {
	atf_set "descr" "grammars/dcfg*.schema.json accept every valid DCFG and DCFG-trace corpus file"
}
valid_corpus_matches_schemas_body() {
	# Debian's python3-jsonschema (make deps) lives with Debian's interpreter,
	# which another python3 earlier on PATH (pyenv, a venv) does not see.
	py=
	for candidate in /usr/bin/python3 python3; do
		"$candidate" -c 'import jsonschema' 2>/dev/null && { py=$candidate; break; }
	done
	[ -n "$py" ] || atf_skip "python3-jsonschema is not installed"
	cd "@SRCDIR@" || atf_fail "no source directory"
	atf_check -s exit:0 -o ignore "$py" - <<'PY'
import glob, json, sys
import jsonschema
bad = 0
for fmt, schema in (("dcfg", "grammars/dcfg.schema.json"), ("dcfg-trace", "grammars/dcfg-trace.schema.json")):
    s = json.load(open(schema))
    jsonschema.Draft202012Validator.check_schema(s)
    v = jsonschema.Draft202012Validator(s)
    files = sorted(glob.glob("corpus/%s/valid/*.json" % fmt))
    if not files:
        sys.exit("no valid %s corpus files" % fmt)
    for f in files:
        for e in v.iter_errors(json.load(open(f))):
            print(f, e.message, file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY
}

atf_init_test_cases() {
	atf_add_test_case valid_corpus_matches_schemas
}
