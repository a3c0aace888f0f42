#! /usr/bin/env atf-sh
# Option values at their edges: --stdin-limit with each size suffix, zero
# (no limit) and too large; --jobs, --threads and --max-errors out of range; an
# unknown short option; --color=auto on a terminal with NO_COLOR and
# TERM=dumb; paths spelled "./x", ".//x" and "dir//" in baselines.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
VALID="$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray"
INVALID="$SRCDIR/corpus/xray/invalid/header-version.xray"

atf_test_case stdin_limit_sizes
stdin_limit_sizes_head() { atf_set descr "--stdin-limit: K, M, G, T in either case, 0 for none; bad sizes are usage errors"; }
stdin_limit_sizes_body() {
	head -c 1025 /dev/zero > z
	for k in 1k 1K; do
		atf_check -s exit:2 -o match:'expected at most 1024 bytes' "$TL" -f xray --stdin-limit=$k - < z
	done
	# Larger limits and none at all let the same input through to a verdict.
	for size in 1m 1M 1g 1G 1t 1T 0 2000; do
		atf_check -s exit:1 -o not-match:'expected at most' "$TL" -f xray --stdin-limit=$size - < z
	done
	for bad in x 5x 1P 16777216T 99999999999999999999 -1 ''; do
		atf_check -s exit:2 -o empty -e match:'--stdin-limit needs a size' "$TL" -f xray --stdin-limit="$bad" - < z
	done
}

atf_test_case numbers_out_of_range
numbers_out_of_range_head() { atf_set descr "--jobs outside 1..1024, --threads outside 1..64 and --max-errors beyond 32 bits are usage errors"; }
numbers_out_of_range_body() {
	for j in 0 1025 x 4294967296; do
		atf_check -s exit:2 -o empty -e match:"--jobs needs a number of files from 1 to 1024, not '$j'" \
			"$TL" -j "$j" "$VALID"
	done
	atf_check -s exit:0 -o ignore "$TL" --jobs=1024 "$VALID"
	for m in 4294967296 1x; do
		atf_check -s exit:2 -o empty -e match:"--max-errors needs a whole number, not '$m'" "$TL" --max-errors="$m" "$VALID"
	done
	# An unknown short option is named as given; a long one whole.
	atf_check -s exit:2 -e match:"unknown option '-Z'" "$TL" -Z "$VALID"
	atf_check -s exit:2 -e match:"unknown option '--nonesuch'" "$TL" --nonesuch "$VALID"
	atf_check -s exit:2 -e match:"option '-j' needs a value" "$TL" "$VALID" -j
	# An unknown option first in a cluster is named alone.
	atf_check -s exit:2 -e match:"unknown option '-z'" "$TL" -zq "$VALID"
	for t in x 0 65; do
		atf_check -s exit:2 -o empty -e match:"--threads needs a number of threads from 1 to 64, not '$t'" \
			"$TL" --threads "$t" "$VALID"
	done
	atf_check -s exit:0 -o match:'valid' "$TL" --threads=64 "$VALID"
}

# Runs tracelint on a pseudo-terminal (script(1)), so --color=auto sees one.
on_tty() {
	script -qec "$*" /dev/null < /dev/null
}

atf_test_case color_auto
color_auto_head() { atf_set descr "--color=auto colours on a terminal, not with NO_COLOR set or TERM=dumb"; }
color_auto_body() {
	command -v script > /dev/null || atf_skip "no script(1) to make a terminal"
	esc=$(printf '\033')
	env -u NO_COLOR TERM=xterm script -qec "$TL -f xray --color=auto $INVALID" /dev/null < /dev/null > tty.out
	grep -q "$esc\[" tty.out || atf_fail "no colour on a terminal: $(cat tty.out)"
	NO_COLOR=1 TERM=xterm script -qec "$TL -f xray --color=auto $INVALID" /dev/null < /dev/null > tty.out
	grep -q "$esc\[" tty.out && atf_fail "colour with NO_COLOR set"
	# An empty NO_COLOR does not count (no-color.org).
	NO_COLOR= TERM=xterm script -qec "$TL -f xray --color=auto $INVALID" /dev/null < /dev/null > tty.out
	grep -q "$esc\[" tty.out || atf_fail "no colour with an empty NO_COLOR"
	env -u NO_COLOR TERM=dumb script -qec "$TL -f xray --color=auto $INVALID" /dev/null < /dev/null > tty.out
	grep -q "$esc\[" tty.out && atf_fail "colour on a dumb terminal"
	grep -q 'XRAY-HEADER-VERSION' tty.out || atf_fail "no diagnostic: $(cat tty.out)"
}

atf_test_case dotted_paths
dotted_paths_head() { atf_set descr "a baseline written for ./d/x matches d/x, .//d/x and d// on the next run"; }
dotted_paths_body() {
	mkdir d
	cp "$INVALID" d/x.xray
	atf_check -s exit:1 -o ignore "$TL" -f xray --write-baseline=b.json ./d/x.xray
	for p in d/x.xray .//d/x.xray ././d/x.xray d// ./d/; do
		atf_check -s exit:0 -o ignore -e ignore "$TL" -f xray --baseline=b.json "$p"
	done
	# A new file in the same directory is new.
	cp "$INVALID" d/y.xray
	atf_check -s exit:1 -o match:'d//*y.xray:offset 0: error' -o match:'d//*x.xray: valid' -e ignore "$TL" -f xray --baseline=b.json d//
}

atf_test_case config_values
config_values_head() { atf_set descr "config values out of range, an empty [path] glob and an overlong line name the line and column"; }
config_values_body() {
	cp "$VALID" v.xray
	while IFS='|' read -r text want; do
		printf "$text" > c.ini
		atf_check -s exit:2 -o empty -e match:"$want" "$TL" --config c.ini v.xray
	done <<'LIST'
[tracelint]\nmax-errors = x\n|c.ini:2:14: max-errors: expected a whole number, found 'x'
[tracelint]\nmax-errors = 5x\n|c.ini:2:14: max-errors: expected a whole number
[tracelint]\nmax-errors = 4294967296\n|c.ini:2:14: max-errors: expected a whole number
[tracelint]\nmax-errors = 99999999999999999999\n|c.ini:2:14: max-errors: expected a whole number
[tracelint]\nformat = nonesuch\n|c.ini:2:10: format: unknown format 'nonesuch'
[path ""]\nwerror = true\n|expected a section \[tracelint\] or \[path
[path "x]\nwerror = true\n|expected a section \[tracelint\] or \[path
LIST
	# A line longer than the reader takes is refused, not cut.
	{ printf '[tracelint]\nexclude = '; head -c 5000 /dev/zero | tr '\0' 'x'; printf '\n'; } > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini: expected lines of at most [0-9]+ characters' "$TL" --config c.ini v.xray
	# The first error is the one reported.
	printf '[tracelint]\nmax-errors = x\nformat = nonesuch\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:2:' "$TL" --config c.ini v.xray
	# In range: the largest max-errors, several excludes.
	printf '[tracelint]\nmax-errors = 4294967295\nexclude = a*, b* c*\n' > c.ini
	atf_check -s exit:0 -o ignore "$TL" --config c.ini v.xray
}

atf_test_case walks_and_lists
walks_and_lists_head() { atf_set descr "walks name FIFOs without reading them and go as deep as the tree; --files-from takes blank lines, a last line without a break and NUL separators; skipping unknown formats never touches standard input"; }
walks_and_lists_body() {
	mkdir -p w
	cp "$INVALID" w/a.xray
	mkfifo w/pipe
	# A FIFO inside a walk is not read (that would block), but named as skipped.
	atf_check -e match:'1 skipped' -s exit:1 -o match:'w/a.xray:offset 0: error' \
		-o match:'^w/pipe: skipped: not a regular file' timeout 20 "$TL" -f xray w
	# 80 levels: no depth drops a file.
	d=deep
	for i in $(seq 80); do d=$d/d; done
	mkdir -p "$d"
	cp "$INVALID" "$d/x.xray"
	atf_check -s exit:1 -o match:'/x.xray: invalid' -e match:'1 file: 0 valid, 1 invalid' "$TL" -f xray -q deep
	atf_check -e ignore -s exit:1 -o match:'x.xray' "$TL" -f xray "$d"
	# Lists: a blank line, no final line break; NUL-separated with a final NUL.
	printf 'w/a.xray\n\nw/a.xray' > list
	atf_check -e ignore -s exit:1 -o match:'w/a.xray: invalid' "$TL" -f xray --files-from=list
	printf 'w/a.xray\0w/a.xray\0' > list0
	atf_check -e ignore -s exit:1 -o match:'w/a.xray: invalid' "$TL" -f xray -0 --files-from=list0
	atf_check -e ignore -s exit:1 -o match:'w/a.xray: invalid' "$TL" -f xray --files-from=- < list
	atf_check -s exit:2 -e match:'nonesuch' "$TL" -f xray --files-from=nonesuch
	# Standard input is validated even when unknown formats are skipped, serially and in parallel.
	printf 'not a trace' > junk
	for j in 1 2; do
		atf_check -e ignore -s exit:2 -o match:'format not recognised' "$TL" -j $j --unknown-format=skip - < junk
		atf_check -s exit:0 -o match:'^junk: skipped: format not recognised' -e match:'1 skipped' \
			"$TL" -j $j --unknown-format=skip junk
	done
}

atf_test_case sarif_settings
sarif_settings_head() { atf_set descr "--sarif-root that does not exist is a usage error; --sarif-help-base sets each rule's help link"; }
sarif_settings_body() {
	atf_check -s exit:2 -o empty -e match:'nonesuch' "$TL" -f xray -o sarif --sarif-root=nonesuch "$INVALID"
	atf_check -s exit:1 -o save:r.sarif "$TL" -f xray -o sarif --sarif-root=/ --sarif-help-base=https://example.org/rules/ \
		"$INVALID"
	atf_check -o match:'https://example.org/rules/XRAY-HEADER-VERSION.md' jq -r '.runs[0].tool.driver.rules[].helpUri' r.sarif
}

atf_test_case explain_several
explain_several_head() { atf_set descr "--explain with several rules in text separates them; an unknown rule is a usage error"; }
explain_several_body() {
	atf_check -s exit:0 -o save:e.txt "$TL" --explain XRAY-HEADER-VERSION TFILE-HEADER-MAGIC
	atf_check -o match:'^XRAY-HEADER-VERSION' -o match:'^TFILE-HEADER-MAGIC' cat e.txt
	atf_check -s exit:2 -e match:'NOPE-NOPE' "$TL" --explain NOPE-NOPE
	atf_check -s exit:2 -e ignore sh -c '"$1" --explain XRAY-HEADER-VERSION > /dev/full' sh "$TL"
}

atf_test_case gate_edges
gate_edges_head() { atf_set descr "--werror over warnings, notes past --max-errors, a baseline of files not validated this run, a member given twice, a file path with a trailing slash"; }
gate_edges_body() {
	cp "$INVALID" a.xray
	cp "$INVALID" b.xray
	# A warning alone is valid; with --werror it is not.
	atf_check -s exit:0 -o match:'warning' "$TL" -f xray --severity XRAY-HEADER-VERSION=warning a.xray
	atf_check -s exit:1 -o match:'warning' "$TL" -f xray -W --severity XRAY-HEADER-VERSION=warning a.xray
	# --max-errors=0 is no limit.
	atf_check -s exit:1 -o match:'XRAY-HEADER-VERSION' "$TL" -f xray --max-errors=0 b.xray
	# Notes do not count against --max-errors.
	atf_check -s exit:0 -o match:'note' "$TL" -f xray --max-errors=1 --severity XRAY-HEADER-VERSION=note a.xray
	# b.xray is in the baseline but not validated now: not said to be gone.
	atf_check -s exit:1 -o ignore -e ignore "$TL" -f xray --write-baseline=base.json a.xray b.xray
	cp "$VALID" a.xray
	atf_check -s exit:0 -o ignore -e save:gone.txt "$TL" -f xray --baseline=base.json a.xray
	atf_check -o match:'a.xray: XRAY-HEADER-VERSION' -o not-match:'b.xray' cat gone.txt
	# A hidden directory is not "./".
	mkdir .d
	cp "$INVALID" .d/x.xray
	atf_check -s exit:1 -o match:'^.d/x.xray:offset 0: error' -e ignore "$TL" -f xray --baseline=base.json .d/x.xray
	# Two members of one trace directory stand for the trace, validated once.
	cp -R "$SRCDIR/corpus/umtrace/valid/aborted-not-last" t
	atf_check -s exit:0 -o save:t.out -e ignore "$TL" t/exec.vtable t/ins.itable
	atf_check_equal "$(grep -c '^t: valid' t.out)" 1
	atf_check -s exit:2 -o match:'Not a directory' -e ignore "$TL" -f xray a.xray/
	# Without TERM, --color=auto on a terminal still colours.
	if command -v script > /dev/null; then
		env -u NO_COLOR -u TERM script -qec "$TL -f xray --color=auto b.xray" /dev/null < /dev/null > tty.out
		grep -q "$(printf '\033')\[" tty.out || atf_fail "no colour without TERM"
	fi
	printf '[tracelint]\nmax-errors = -1\n' > c.ini
	atf_check -s exit:2 -e match:'c.ini:2:14: max-errors' "$TL" --config c.ini b.xray
}

atf_test_case baseline_files
baseline_files_head() { atf_set descr "a baseline of another version or shape, or with an entry lacking a path, rule or 16-hex-digit fingerprint, is exit 2 naming what is wrong"; }
baseline_files_body() {
	cp "$INVALID" a.xray
	fp=0123456789abcdef
	while IFS='|' read -r doc want; do
		printf '%s\n' "$doc" > b.json
		atf_check -s exit:2 -o empty -e match:"$want" "$TL" -f xray --baseline=b.json a.xray
	done <<LIST
[]|b.json: expected a tracelint baseline
{"diagnostics": []}|b.json: expected a tracelint baseline
{"baseline": 3, "diagnostics": []}|b.json: expected a tracelint baseline
{"baseline": "1", "diagnostics": []}|b.json: expected a tracelint baseline
{"baseline": 10, "diagnostics": []}|b.json: expected a tracelint baseline
{"baseline": 1}|b.json: expected a tracelint baseline
{"baseline": 1, "diagnostics": {}}|b.json: expected a tracelint baseline
{"baseline": 1, "diagnostics": [1]}|b.json: diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"rule": "R", "fingerprint": "$fp"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "fingerprint": "$fp"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R", "fingerprint": "abc"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R", "fingerprint": "0123456789ABCDEF"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R", "fingerprint": "0123456789abcdeg"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R", "fingerprint": "0123456789abcde-"}]}|diagnostics\\[0\\]: expected
{"baseline": 1, "diagnostics": [{"path": "a", "rule": "R", "fingerprint": "$fp"}, {"path": 1}]}|diagnostics\\[1\\]: expected
LIST
	# The message is optional; an entry of another file changes nothing here.
	printf '{"baseline": 1, "diagnostics": [{"path": "z", "rule": "R", "fingerprint": "%s"}]}\n' $fp > b.json
	atf_check -s exit:1 -o match:'a.xray:offset 0: error' -e ignore "$TL" -f xray --baseline=b.json a.xray
	# A directory is no baseline.
	mkdir dir.json
	atf_check -s exit:2 -o empty -e match:'cannot read the baseline dir.json' "$TL" -f xray --baseline=dir.json a.xray
}

atf_test_case report_paths
report_paths_head() { atf_set descr "SARIF artifact URIs for ./paths, absolute paths in and out of --sarif-root and standard input; JSON reports of file names with control characters"; }
report_paths_body() {
	mkdir d
	cp "$INVALID" d/x.xray
	uri='.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri'
	atf_check -s exit:1 -o save:r1.sarif "$TL" -f xray -o sarif --sarif-root="$PWD" ./d/x.xray
	atf_check_equal "$(jq -r "$uri" r1.sarif)" d/x.xray
	atf_check -s exit:1 -o save:r2.sarif "$TL" -f xray -o sarif --sarif-root="$PWD/" "$PWD/d/x.xray"
	atf_check_equal "$(jq -r "$uri" r2.sarif)" d/x.xray
	# Outside the root: an absolute file URI.
	atf_check -s exit:1 -o save:r3.sarif "$TL" -f xray -o sarif --sarif-root="$PWD/d" "$INVALID"
	atf_check -o match:'^file:///' jq -r "$uri" r3.sarif
	atf_check -s exit:1 -o save:r4.sarif "$TL" -f xray -o sarif --sarif-root="$PWD" - < d/x.xray
	atf_check -o match:'XRAY-HEADER-VERSION' jq -r '.runs[0].results[0].ruleId' r4.sarif
	# Control characters in a file name stay one JSON string.
	for c in '\b' '\f' '\r' '\t' '\001'; do
		name=$(printf "n${c}x.xray")
		cp "$INVALID" "$name"
		atf_check -s exit:1 -o save:r.json "$TL" -f xray -o json "$name"
		atf_check_equal "$(jq -r '.files[0].path' r.json)" "$name"
	done
}

atf_init_test_cases() {
	atf_add_test_case stdin_limit_sizes
	atf_add_test_case numbers_out_of_range
	atf_add_test_case color_auto
	atf_add_test_case dotted_paths
	atf_add_test_case config_values
	atf_add_test_case walks_and_lists
	atf_add_test_case sarif_settings
	atf_add_test_case explain_several
	atf_add_test_case gate_edges
	atf_add_test_case baseline_files
	atf_add_test_case report_paths
}
