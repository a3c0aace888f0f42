#! /usr/bin/env atf-sh
# Locations that tools read correctly: LINE:COL for JSON and text, "offset N"
# for binary data, which gcc problem matchers do not take for a line number;
# the matcher regex of the man page reads every form.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# The regex the man page documents, with its roff escapes undone.
man_regex() {
	sed -n '/^\.SH DIAGNOSTIC FORMAT/,/^\.SH /p' "$SRCDIR/validators/tracelint.1" |
		grep '^\^(' | sed 's/\\\\/\\/g; s/\\-/-/g'
}

# One diagnostic of each form: binary with a record, a UMTracer member, JSON.
diagnostics() {
	"$TL" --no-context "$C/xray/invalid/metadata-kind.xray" "$C/umtrace/invalid/after-thread-end" \
		"$C/dcfg/invalid/dcfg_id_duplicate.dcfg.json" 2>/dev/null | grep -E ': (error|warning|note): '
}

atf_test_case binary_form
binary_form_head() { atf_set "descr" "binary locations are PATH:offset N, member paths included"; }
binary_form_body() {
	diagnostics > out
	atf_check -o match:'metadata-kind\.xray:offset 112 \(record 5\): error: .* \[XRAY-FDR-METADATA-KIND\]$' cat out
	atf_check -o match:'after-thread-end/exec\.prev_next\.column:offset [0-9]+: error: ' cat out
	atf_check -o match:'dcfg_id_duplicate\.dcfg\.json:7:6: error: ' cat out
}

atf_test_case gcc_matchers_do_not_misread
gcc_matchers_do_not_misread_head() { atf_set "descr" "GitHub's and VS Code's gcc matchers take no binary offset for a line"; }
gcc_matchers_do_not_misread_body() {
	diagnostics > out
	cat > check.py <<'PY'
import re, sys
github = re.compile(r'^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$')
vscode = re.compile(r'^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$')
for line in open('out'):
    line = line.rstrip('\n')
    binary = ':offset ' in line
    for name, m in (('github', github.match(line)), ('vscode', vscode.match(line))):
        if binary and m:
            sys.exit('%s misreads %r as line %s' % (name, line, m.group(2)))
        if not binary and not m:
            sys.exit('%s does not read %r' % (name, line))
print('ok')
PY
	atf_check -o inline:'ok\n' python3 check.py
}

atf_test_case documented_matcher
documented_matcher_head() { atf_set "descr" "the man page's matcher reads file, line, column or offset, severity, message and rule of every form"; }
documented_matcher_body() {
	diagnostics > out
	man_regex > regex
	atf_check -o match:'^\^\(' cat regex
	cat > check.py <<'PY'
import re, sys
rx = re.compile(open('regex').read().strip())
lines = [l.rstrip('\n') for l in open('out')]
for line in lines:
    m = rx.match(line)
    if not m:
        sys.exit('no match: %r' % line)
    if m.group(1).endswith(':'):
        sys.exit('file group swallowed a colon: %r' % line)
    print(m.group(1).rsplit('/', 1)[-1], m.group(2) or '-', m.group(3) or '-', m.group(4) or '-',
          m.group(6), m.group(8))
PY
	atf_check -o save:groups python3 check.py
	atf_check -o match:'^metadata-kind\.xray - - 112 error XRAY-FDR-METADATA-KIND$' cat groups
	atf_check -o match:'^exec\.prev_next\.column - - 544 error UMT-' cat groups
	atf_check -o match:'^dcfg_id_duplicate\.dcfg\.json 7 6 - error DCFG-ID-DUPLICATE$' cat groups
}

atf_test_case machine_outputs_keep_the_offset
machine_outputs_keep_the_offset_head() { atf_set "descr" "JSON keeps the byte offset as a number"; }
machine_outputs_keep_the_offset_body() {
	atf_check -s exit:1 -o match:'"offset": ?112' "$TL" -o json "$C/xray/invalid/metadata-kind.xray"
}

atf_init_test_cases() {
	atf_add_test_case binary_form
	atf_add_test_case gcc_matchers_do_not_misread
	atf_add_test_case documented_matcher
	atf_add_test_case machine_outputs_keep_the_offset
}
