#! /usr/bin/env atf-sh
# The command-line contract of README.md: options, exit status, the three
# output styles. Inputs come from the labelled corpus, so these tests hold for
# whichever formats are built.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# First corpus case of a kind (valid|invalid) with no .args sidecar; $2 filters
# on its .expected content (a grep pattern), $3 is the minimum count of lines
# whose severity is error.
find_case() {
	kind=$1 pattern=${2:-} min_errors=${3:-0}
	for p in "$SRCDIR"/corpus/*/"$kind"/*; do
		case "$p" in *.expected | *.args | *.md | *.sh | *.py) continue ;; esac
		[ -f "$p" ] || continue
		[ -f "$p.args" ] && continue
		if [ -n "$pattern" ]; then
			[ -f "$p.expected" ] && grep -q -e "$pattern" "$p.expected" || continue
		fi
		if [ "$min_errors" -gt 0 ]; then
			n=$(awk '$2 == "error"' "$p.expected" 2>/dev/null | wc -l)
			[ "${n:-0}" -ge "$min_errors" ] || continue
		fi
		echo "$p"
		return 0
	done
	return 1
}


atf_test_case help_and_version
help_and_version_head() { atf_set descr "--help and --version exit 0"; }
help_and_version_body() {
	atf_check -o match:'^usage: tracelint \[OPTIONS\] PATH' -o match:'--pair=DCFG' -o match:'--instr-map=BINARY' "$TL" --help
	atf_check -o match:'^usage: tracelint' "$TL" -h
	atf_check -o match:'^tracelint [0-9]+\.[0-9]+\.[0-9]+$' "$TL" --version
	atf_check -o match:'^tracelint [0-9]' "$TL" -V
}

atf_test_case usage_errors
usage_errors_head() { atf_set descr "bad options exit 2 with a message on stderr"; }
usage_errors_body() {
	atf_check -s exit:2 -e match:'no PATH given' "$TL"
	atf_check -s exit:2 -e match:"unknown option '--bogus'" "$TL" --bogus x
	atf_check -s exit:2 -e match:"unknown format 'elf'" "$TL" --format=elf x
	atf_check -s exit:2 -e match:"--output: unknown value 'xml' \\(text, json, sarif\\)" "$TL" -o xml x
	atf_check -s exit:2 -e match:'--max-errors needs a whole number' "$TL" --max-errors=-1 x
	atf_check -s exit:2 -e match:'--max-errors needs a whole number' "$TL" --max-errors=1x x
	atf_check -s exit:2 -e match:"--endian: unknown value 'middle' \\(auto, little, big\\)" "$TL" --endian=middle x
	atf_check -s exit:2 -e match:"option '--format' needs a value" "$TL" --format
}

atf_test_case unreadable_path
unreadable_path_head() { atf_set descr "a missing PATH exits 2 and says why"; }
unreadable_path_body() {
	atf_check -s exit:2 -o match:'^no-such-file: error: cannot open no-such-file: No such file' \
		"$TL" no-such-file
}

atf_test_case unknown_format
unknown_format_head() { atf_set descr "content no format recognises exits 2 and lists what was tried"; }
unknown_format_body() {
	printf 'just some text\n' > plain.txt
	atf_check -s exit:2 -o match:'format not recognised; tried ' \
		-o match:'tfile \(' -o match:'xray \(' -o match:'dcfg \(' -o match:'umtrace \(' \
		"$TL" plain.txt
	: > empty
	atf_check -s exit:2 -o match:'empty: error: the input is empty \(0 bytes\): no format to recognise' "$TL" empty
}

atf_test_case list_rules
list_rules_head() { atf_set descr "--list-rules prints the catalog, all formats or one"; }
list_rules_body() {
	"$TL" --list-rules > all || atf_fail "--list-rules failed"
	grep -q '^TL-MAX-ERRORS ' all || atf_fail "core rule missing from --list-rules"
	for f in tfile xray dcfg dcfg-trace umtrace; do
		"$TL" --list-rules --format=$f > one || atf_fail "--list-rules --format=$f failed"
		# Only this format's rules (plus core, plus JSON for the JSON formats).
		awk -v f=$f '$3 != f && $3 != "core" && !($3 == "json" && f ~ /^dcfg/) {bad=1} END {exit bad}' one ||
			atf_fail "--list-rules --format=$f lists another format's rules"
		[ "$(wc -l < one)" -le "$(wc -l < all)" ] || atf_fail "a format lists more than all"
	done
}

atf_test_case valid_and_invalid_exit_status
valid_and_invalid_exit_status_head() { atf_set descr "exit 0 when every PATH is valid, 1 when one is invalid, 2 when one is unreadable"; }
valid_and_invalid_exit_status_body() {
	valid=$(find_case valid) || atf_skip "no corpus case: valid"
	invalid=$(find_case invalid) || atf_skip "no corpus case: invalid"
	atf_check -s exit:0 -o match:': valid \(' "$TL" -q "$valid"
	atf_check -s exit:1 -o match:': invalid \(' "$TL" -q "$invalid"
	atf_check -s exit:1 -o ignore "$TL" -q "$valid" "$invalid"
	atf_check -s exit:2 -o ignore "$TL" -q "$valid" "$invalid" no-such-file
	atf_check -s exit:0 -o match:'^-: valid' "$TL" -q - < "$valid"
}

atf_test_case quiet_prints_one_line_per_path
quiet_prints_one_line_per_path_head() { atf_set descr "-q prints exactly one verdict line per PATH"; }
quiet_prints_one_line_per_path_body() {
	valid=$(find_case valid) || atf_skip "no corpus case: valid"
	invalid=$(find_case invalid) || atf_skip "no corpus case: invalid"
	"$TL" -q "$valid" "$invalid" > out
	atf_check -o inline:'2\n' sh -c 'wc -l < out | tr -d " "'
	"$TL" "$invalid" > full
	[ "$(wc -l < full)" -gt 1 ] || atf_fail "without -q the diagnostics are printed too"
}

atf_test_case text_diagnostics_format
text_diagnostics_format_head() { atf_set descr "text lines follow PATH:LOCATION: severity: message [RULE], LOCATION being LINE:COLUMN or offset N"; }
text_diagnostics_format_body() {
	invalid=$(find_case invalid) || atf_skip "no corpus case: invalid"
	"$TL" "$invalid" > out
	grep -v ': invalid (' out > diags
	[ -s diags ] || atf_fail "no diagnostic printed for an invalid file"
	awk -v p="$invalid" '
		index($0, p) != 1 { print "bad path: " $0; bad = 1; next }
		$0 !~ /^[^ ]*:([0-9]+:[0-9]+|offset [0-9]+( \(record [0-9]+\))?): (error|warning|note): .* \[[A-Z][A-Z0-9]*(-[A-Z0-9]+)+\]$/ {
			print "bad line: " $0; bad = 1 }
		END { exit bad }' diags || atf_fail "a diagnostic line breaks the text convention"
}

atf_test_case json_output
json_output_head() { atf_set descr "--output=json is one document with the per-path fields"; atf_set require.progs jq; }
json_output_body() {
	valid=$(find_case valid) || atf_skip "no corpus case: valid"
	invalid=$(find_case invalid) || atf_skip "no corpus case: invalid"
	"$TL" -o json "$valid" "$invalid" > out.json
	atf_check -o inline:'2\n' jq '.files | length' out.json
	atf_check -o inline:'true\nfalse\n' jq '.files[].valid' out.json
	atf_check -o inline:'"tracelint"\n' jq '.tool.name' out.json
	atf_check -o match:'^true$' jq '.files[1] | has("path") and has("format") and has("errors") and has("warnings") and has("diagnostics")' out.json
	atf_check -o match:'^true$' jq '[.files[1].diagnostics[] | has("severity") and has("rule") and has("message") and has("offset")] | all' out.json
	atf_check -o match:'^true$' jq '.files[1].errors >= ([.files[1].diagnostics[] | select(.severity == "error")] | length)' out.json
}

atf_test_case sarif_output
sarif_output_head() { atf_set descr "--output=sarif is SARIF 2.1.0 with the catalog and one result per diagnostic"; atf_set require.progs jq; }
sarif_output_body() {
	invalid=$(find_case invalid) || atf_skip "no corpus case: invalid"
	"$TL" -o sarif "$invalid" > out.sarif
	"$TL" -o json "$invalid" > out.json
	atf_check -o inline:'"2.1.0"\n' jq '.version' out.sarif
	n_rules=$("$TL" --list-rules | wc -l)
	atf_check -o inline:"$n_rules\n" jq '.runs[0].tool.driver.rules | length' out.sarif
	n_json=$(jq '.files[0].diagnostics | length' out.json)
	atf_check -o inline:"$n_json\n" jq '.runs[0].results | length' out.sarif
	atf_check -o match:'^true$' jq '[.runs[0].results[] | (.ruleId | type == "string") and (.level | test("^(error|warning|note)$")) and (.message.text | length > 0) and (.locations[0].physicalLocation.region | has("byteOffset") or has("startLine"))] | all' out.sarif
	atf_check -o match:'^true$' jq '. as $r | [.runs[0].results[] | .ruleId == $r.runs[0].tool.driver.rules[.ruleIndex].id] | all' out.sarif
}

atf_test_case styles_agree
styles_agree_head() { atf_set descr "text, JSON and SARIF report the same diagnostics for every invalid corpus case"; atf_set require.progs jq; }
styles_agree_body() {
	# one run per style over every case, each diagnostic as "PATH RULE"
	here=$PWD
	cd "$SRCDIR" || atf_fail "no source tree"
	for p in corpus/*/invalid/*; do
		case "$p" in *.expected | *.args | *.md | *.sh | *.py) continue ;; esac
		[ -f "$p.args" ] && continue
		[ -f "$p" ] || continue
		echo "$p"
	done > "$here/cases"
	[ -s "$here/cases" ] || atf_skip "no invalid corpus case"
	xargs "$TL" < "$here/cases" | sed -n 's/^\([^:]*\):.* \[\([A-Z0-9-]*\)\]$/\1 \2/p' > "$here/text.rules"
	xargs "$TL" -o json < "$here/cases" | jq -r '.files[] | .path as $p | .diagnostics[] | "\($p) \(.rule)"' > "$here/json.rules"
	xargs "$TL" -o sarif < "$here/cases" |
		jq -r '.runs[0].results[] | "\(.locations[0].physicalLocation.artifactLocation.uri) \(.ruleId)"' > "$here/sarif.rules"
	cd "$here"
	[ "$(cut -d' ' -f1 json.rules | sort -u | wc -l)" -eq "$(wc -l < cases)" ] ||
		atf_fail "not every invalid case has a diagnostic in JSON"
	diff text.rules json.rules || atf_fail "text and JSON differ (diff above)"
	diff json.rules sarif.rules || atf_fail "JSON and SARIF differ (diff above)"
	echo "$(wc -l < cases) cases compared"
}

atf_test_case werror
werror_head() { atf_set descr "-W makes a valid file with warnings invalid"; }
werror_body() {
	warned=$(find_case valid ' warning ') || atf_skip "no corpus case: valid  warning "
	atf_check -s exit:0 -o match:': valid' -o match:'warning' "$TL" "$warned"
	atf_check -s exit:1 -o match:': invalid' "$TL" -W "$warned"
	atf_check -s exit:1 -o match:': invalid' "$TL" --werror "$warned"
}

atf_test_case max_errors
max_errors_head() { atf_set descr "--max-errors=1 reports one error and a TL-MAX-ERRORS note"; atf_set require.progs jq; }
max_errors_body() {
	many=$(find_case invalid '' 2) || atf_skip "no corpus case: invalid  2"
	"$TL" -o json --max-errors=1 "$many" > out.json
	atf_check -o inline:'1\n' jq '[.files[0].diagnostics[] | select(.severity == "error")] | length' out.json
	atf_check -o inline:'"TL-MAX-ERRORS"\n' jq '.files[0].diagnostics[-1].rule' out.json
	atf_check -o inline:'true\n' jq '.files[0].truncated' out.json
	atf_check -o match:'^true$' jq '.files[0].errors >= 1' out.json
	"$TL" -o json --max-errors=0 "$many" > all.json
	atf_check -o match:'^true$' jq '[.files[0].diagnostics[] | select(.severity == "error")] | length >= 2' all.json
}

atf_test_case pair_needs_a_trace
pair_needs_a_trace_head() { atf_set descr "--pair on a file that is not a DCFG-trace is a usage error"; }
pair_needs_a_trace_body() {
	valid=
	for p in "$SRCDIR"/corpus/*/valid/*; do
		case "$p" in */dcfg-trace/* | *.expected | *.args | *.md | *.sh | *.py) continue ;; esac
		[ -f "$p" ] && [ ! -f "$p.args" ] && { valid=$p; break; }
	done
	[ -n "$valid" ] || atf_skip "no valid case of a format other than DCFG-trace"
	atf_check -s exit:2 -o match:'--pair applies to DCFG-trace files only' "$TL" --pair=x "$valid"
}

atf_test_case instr_map
instr_map_head() { atf_set descr "--instr-map: a usable binary checks ids; an unusable one is a usage error naming it"; }
instr_map_body() {
	"$TL" --list-rules --format=xray | grep -q '^XRAY-' || atf_skip "the XRay validator is not built"
	trace=$SRCDIR/corpus/xray/valid/real-fdr-v5-mapped.xray
	bin=$SRCDIR/corpus/xray/binaries/mapped.elf.zst
	atf_check -s exit:0 -o match:'valid \(xray: 0 errors' "$TL" --instr-map="$bin" "$trace"
	# Another program's trace names ids this binary lacks.
	atf_check -s exit:1 -o match:'expected a function id 1\.\.3 from .*mapped\.elf\.zst, found 5 \[XRAY-FUNCTION-ID-UNDEFINED\]' \
		"$TL" --instr-map="$bin" "$SRCDIR/corpus/xray/valid/real-fdr-v5.xray"
	atf_check -s exit:2 -o match:'--instr-map=nothing-here: cannot open' "$TL" --instr-map=nothing-here "$trace"
	atf_check -s exit:2 -o match:"--instr-map=$trace: not an ELF file" "$TL" --instr-map="$trace" "$trace"
	# A binary whose xray_instr_map section is empty (found by the xray_instr_map fuzzer).
	atf_check -s exit:2 -o match:'found an empty section \(no instrumented function\)' \
		"$TL" --instr-map="$SRCDIR/corpus/xray/binaries/empty-instr-map-section.elf.zst" "$trace"
	# An ELF without sleds (tracelint itself) and one cut short.
	atf_check -s exit:2 -o match:'no xray_instr_map section' "$TL" --instr-map="$TL" "$trace"
	head -c 200 "$TL" > cut.elf
	atf_check -s exit:2 -o match:'--instr-map=cut.elf: the section header table .* lies outside the 200-byte file' \
		"$TL" --instr-map=cut.elf "$trace"
	: > empty.elf
	atf_check -s exit:2 -o match:'--instr-map=empty.elf: not an ELF file' "$TL" --instr-map=empty.elf "$trace"
	atf_check -s exit:2 -o match:'is a directory' "$TL" --instr-map=. "$trace"
	# A trace of another format.
	other=
	for p in "$SRCDIR"/corpus/*/valid/*; do
		case "$p" in */xray/* | *.expected | *.args | *.md | *.sh | *.py) continue ;; esac
		[ -f "$p" ] && [ ! -f "$p.args" ] && { other=$p; break; }
	done
	[ -z "$other" ] ||
		atf_check -s exit:2 -o match:'--instr-map applies to XRay traces only' "$TL" --instr-map="$bin" "$other"
	atf_check -s exit:2 -e match:"option '--instr-map' needs a value" "$TL" --instr-map
}

atf_test_case forced_format
forced_format_head() { atf_set descr "--format forces a validator; a wrong one rejects the file"; }
forced_format_body() {
	for p in "$SRCDIR"/corpus/*/valid/*; do
		case "$p" in *.expected | *.args | *.md | *.sh | *.py) continue ;; esac
		[ -f "$p" ] && [ ! -f "$p.args" ] || continue
		fmt=$(basename "$(dirname "$(dirname "$p")")")
		atf_check -s exit:0 -o match:"\\($fmt:" "$TL" -q --format="$fmt" "$p"
		# Another format whose validator is built (it has a rule catalog).
		for other in tfile xray dcfg umtrace ''; do
			[ "$other" != "$fmt" ] && [ -n "$other" ] || continue
			"$TL" --list-rules --format="$other" | grep -qv '^TL-' && break
		done
		[ -n "$other" ] || atf_skip "only the $fmt validator is built"
		atf_check -s not-exit:0 -o ignore "$TL" -q --format="$other" "$p"
		return 0
	done
	atf_skip "no valid case"
}

atf_test_case json_detail_for_every_format
json_detail_for_every_format_head() { atf_set "descr" "every validated file of every format has a detail in JSON"; }
json_detail_for_every_format_body() {
	"$TL" -o json "$SRCDIR/corpus" > all.json 2> /dev/null
	atf_check -o inline:"dcfg\ndcfg-trace\ntfile\numtrace\nxray\n" \
		jq -r '[.files[] | select(.error == null) | .format] | unique | .[]' all.json
	atf_check -o inline:"[]\n" jq -c '[.files[] | select(.error == null and (.detail == null or .detail == "")) | .path]' all.json
	atf_check -s exit:0 -o match:'umtrace: 0 errors, 0 warnings; 64-bit, 49 exec record\(s\), 3 thread\(s\), 2 module\(s\), 3 syscall\(s\)' \
		"$TL" "$SRCDIR/corpus/umtrace/valid/trace64"
}

atf_init_test_cases() {
	atf_add_test_case json_detail_for_every_format
	atf_add_test_case help_and_version
	atf_add_test_case usage_errors
	atf_add_test_case unreadable_path
	atf_add_test_case unknown_format
	atf_add_test_case list_rules
	atf_add_test_case valid_and_invalid_exit_status
	atf_add_test_case quiet_prints_one_line_per_path
	atf_add_test_case text_diagnostics_format
	atf_add_test_case json_output
	atf_add_test_case sarif_output
	atf_add_test_case styles_agree
	atf_add_test_case werror
	atf_add_test_case max_errors
	atf_add_test_case pair_needs_a_trace
	atf_add_test_case instr_map
	atf_add_test_case forced_format
}
