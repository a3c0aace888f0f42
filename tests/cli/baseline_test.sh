#! /usr/bin/env atf-sh
# Baselines: --write-baseline records today's diagnostics, --baseline
# reports only new ones, says how many known ones it kept quiet and which
# recorded ones are gone; matching survives unrelated edits of the file.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# dup.dcfg.json: DCFG-ID-DUPLICATE at /FILE_NAMES/2/0 and DCFG-FILE-NAME-REF.
setup_files() {
	cp "$C/dcfg/invalid/dcfg_id_duplicate.dcfg.json" dup.dcfg.json
	cp "$C/xray/invalid/call-argument-order.xray" order.xray
}

atf_test_case round_trip
round_trip_head() { atf_set "descr" "what the baseline recorded is not reported again; the counts stay, the verdict counts new diagnostics only"; }
round_trip_body() {
	setup_files
	atf_check -s exit:1 -o save:before -e ignore "$TL" --write-baseline base.json dup.dcfg.json order.xray
	atf_check -o inline:"4\n" jq '.diagnostics | length' base.json
	atf_check -o inline:"DCFG-ID-DUPLICATE\nDCFG-FILE-NAME-REF\nXRAY-FDR-CALL-ARGUMENT-ORDER\nXRAY-FDR-CALL-ARGUMENT-ORDER\n" jq -r '.diagnostics[].rule' base.json
	atf_check -o inline:"4\n" grep -c 'error:' before
	atf_check -s exit:0 -o save:after -e save:err "$TL" --baseline base.json dup.dcfg.json order.xray
	atf_check -o not-match:'error:' cat after
	atf_check -o match:'dup.dcfg.json: valid \(dcfg: 2 errors, 0 warnings; .*; 2 in the baseline\)' cat after
	atf_check -o match:'baseline base.json: 4 known diagnostics not reported, 0 no longer found' cat err
}

atf_test_case unrelated_edit
unrelated_edit_head() { atf_set "descr" "lines moved and re-indented: still known; a new defect of the same rule is new"; }
unrelated_edit_body() {
	setup_files
	atf_check -s exit:1 -o ignore "$TL" --write-baseline base.json dup.dcfg.json
	# three lines and some indentation earlier in the file: every line and offset moves
	{ printf '\n\n\n'; sed 's/^  /      /' dup.dcfg.json; } > moved.json
	mv moved.json dup.dcfg.json
	atf_check -s exit:0 -o match:'valid' -e match:'2 known diagnostics not reported' "$TL" --baseline base.json dup.dcfg.json
	# a second duplicate ID elsewhere is reported (with the reference it
	# breaks), the known one is not
	sed 's/\[2, "EXIT"\]/[1, "EXIT"]/' dup.dcfg.json > edited.json
	mv edited.json dup.dcfg.json
	atf_check -s exit:1 -o save:out -e ignore "$TL" --baseline base.json dup.dcfg.json
	atf_check -o inline:"1\n" grep -c 'DCFG-ID-DUPLICATE' out
	atf_check -o match:'at /EDGE_TYPES/2/0 \[DCFG-ID-DUPLICATE\]' cat out
	atf_check -o not-match:'FILE_NAMES' cat out
}

atf_test_case gone_ones_listed
gone_ones_listed_head() { atf_set "descr" "recorded diagnostics no longer found are listed, for files this run validated only"; }
gone_ones_listed_body() {
	setup_files
	atf_check -s exit:1 -o ignore -e ignore "$TL" --write-baseline base.json dup.dcfg.json order.xray
	cp "$C/xray/valid/real-fdr-v5.xray" order.xray
	atf_check -s exit:0 -o ignore -e save:err "$TL" --baseline base.json order.xray
	atf_check -o match:'order.xray: XRAY-FDR-CALL-ARGUMENT-ORDER: expected CallArgument' cat err
	atf_check -o not-match:'dup.dcfg.json' cat err
	atf_check -o match:'0 known diagnostics not reported, 2 no longer found' cat err
}

atf_test_case counted_duplicates
counted_duplicates_head() { atf_set "descr" "a fingerprint recorded n times matches n diagnostics, not more"; }
counted_duplicates_body() {
	setup_files
	atf_check -s exit:1 -o ignore "$TL" --write-baseline base.json order.xray
	# keep one of the two (identical but for the record) entries
	jq '.diagnostics |= .[:1]' base.json > one.json
	atf_check -s exit:1 -o save:out -e match:'1 known diagnostic not reported' "$TL" --baseline one.json order.xray
	atf_check -o inline:"1\n" grep -c 'error:' out
}

atf_test_case sarif_baseline_state
sarif_baseline_state_head() { atf_set "descr" "SARIF marks results new, and known ones unchanged with an external suppression"; }
sarif_baseline_state_body() {
	setup_files
	atf_check -s exit:1 -o ignore "$TL" --write-baseline base.json dup.dcfg.json
	sed 's/\[2, "EXIT"\]/[1, "EXIT"]/' dup.dcfg.json > edited.json && mv edited.json dup.dcfg.json
	atf_check -s exit:1 -o save:out.sarif -e ignore "$TL" -o sarif --baseline base.json dup.dcfg.json
	jq -r '.runs[0].results[].baselineState' out.sarif | sort > states
	atf_check -o inline:"new\nnew\nunchanged\nunchanged\n" cat states
	atf_check -o inline:"external\n" jq -r '[.runs[0].results[] | select(.baselineState == "unchanged") | .suppressions[0].kind] | unique | .[]' out.sarif
	# without a baseline there is no baselineState
	atf_check -s exit:1 -o save:plain.sarif "$TL" -o sarif dup.dcfg.json
	atf_check -o inline:"0\n" jq '[.runs[0].results[] | select(has("baselineState"))] | length' plain.sarif
}

atf_test_case limit_counts_known_ones
limit_counts_known_ones_head() { atf_set "descr" "--max-errors stops where it stops without a baseline; a new error past it still fails the run"; }
limit_counts_known_ones_body() {
	setup_files
	atf_check -s exit:1 -o ignore "$TL" --write-baseline base.json order.xray
	jq '.diagnostics |= .[:1]' base.json > first.json
	jq '.diagnostics |= .[1:]' base.json > second.json
	# the first error is known and shown as such only in SARIF; the second is past the limit
	atf_check -s exit:1 -o save:out -e ignore "$TL" --max-errors 1 --baseline first.json order.xray
	atf_check -s exit:1 -o inline:"0\n" grep -c "error:" out
	atf_check -o match:'invalid \(xray: 2 errors, 0 warnings; .*; 1 in the baseline; reporting stopped at --max-errors\)' cat out
	# the new one is shown, the known one past the limit is known all the same
	atf_check -s exit:1 -o save:out2 -e match:'1 known diagnostic not reported, 0 no longer found' \
		"$TL" --max-errors 1 --baseline second.json order.xray
	atf_check -o inline:"1\n" grep -c 'error:' out2
	atf_check -o match:'reporting stopped at --max-errors' cat out2
	# SARIF says how many known ones it does not list
	atf_check -s exit:0 -o save:out.sarif -e ignore "$TL" -o sarif --max-errors 1 --baseline base.json order.xray
	atf_check -o inline:'1\n' jq '.runs[0].properties.tracelintUnchangedNotListed' out.sarif
	atf_check -o match:'1 diagnostics recorded in the baseline are not listed' \
		jq -r '.runs[0].invocations[0].toolExecutionNotifications[].message.text' out.sarif
}

atf_test_case verdicts_with_a_baseline
verdicts_with_a_baseline_head() { atf_set "descr" "with a baseline, --werror fails a file left with warnings only, and --max-errors=0 shows every new error"; }
verdicts_with_a_baseline_body() {
	setup_files
	printf '{"baseline": 1, "diagnostics": []}\n' > empty.json
	atf_check -s exit:1 -o match:'order.xray: invalid \(xray: 0 errors, 2 warnings' -e ignore \
		"$TL" -W --severity XRAY-FDR-CALL-ARGUMENT-ORDER=warning --baseline empty.json order.xray
	atf_check -s exit:0 -o match:'order.xray: valid \(xray: 0 errors, 0 warnings' -e ignore \
		"$TL" -W --ignore XRAY-FDR-CALL-ARGUMENT-ORDER --baseline empty.json order.xray
	atf_check -s exit:1 -o save:out -e ignore "$TL" --max-errors 0 --baseline empty.json order.xray
	atf_check -o inline:"2\n" grep -c 'error:' out
	atf_check -o not-match:'reporting stopped' cat out
}

atf_test_case gone_by_directory
gone_by_directory_head() { atf_set "descr" "an entry is gone when its file, or the trace directory holding it, was validated; entries elsewhere, or under a directory part past 4 KiB, are not"; }
gone_by_directory_body() {
	cp -R "$C/umtrace/valid/trace64" t
	long=$(printf 'l%.0s' $(seq 4100))
	fp=0123456789abcdef
	printf '{"baseline": 1, "diagnostics": [' > base.json
	printf '{"path": "t/exec.vtable", "rule": "R", "message": "in the trace", "fingerprint": "%s"},' $fp >> base.json
	printf '{"path": "other/x.xray", "rule": "R", "message": "elsewhere", "fingerprint": "%s"},' $fp >> base.json
	printf '{"path": "%s/x", "rule": "R", "message": "long", "fingerprint": "%s"},' "$long" $fp >> base.json
	printf '{"path": "top.xray", "rule": "R", "message": "top", "fingerprint": "%s"}]}\n' $fp >> base.json
	# the trace given with trailing slashes is the trace its entry names
	for t in t t/ t//; do
		atf_check -s exit:0 -o match:"^$t: valid" -e save:err "$TL" --baseline base.json $t
		atf_check -o inline:"tracelint: recorded in the baseline base.json but no longer found:\n  t/exec.vtable: R: in the trace\ntracelint: baseline base.json: 0 known diagnostics not reported, 1 no longer found\n" cat err
	done
	# an empty directory walked validates nothing: nothing is gone
	mkdir empty
	atf_check -s exit:0 -o empty -e inline:"tracelint: baseline base.json: 0 known diagnostics not reported, 0 no longer found\n" \
		"$TL" --baseline base.json empty
}

atf_test_case bad_baselines
bad_baselines_head() { atf_set "descr" "a missing or malformed baseline is a usage error, before any report"; }
bad_baselines_body() {
	setup_files
	atf_check -s exit:2 -o empty -e match:'cannot read the baseline nothere.json' "$TL" --baseline nothere.json order.xray
	echo '{' > broken.json
	atf_check -s exit:2 -o empty -e match:'broken.json: not JSON' "$TL" --baseline broken.json order.xray
	echo '{"baseline": 1, "diagnostics": [{"path": "x", "rule": "R", "fingerprint": "zz"}]}' > wrong.json
	atf_check -s exit:2 -o empty -e match:'diagnostics\[0\]: expected "path", "rule" and a 16-hex-digit "fingerprint"' \
		"$TL" --baseline wrong.json order.xray
	atf_check -s exit:2 -o ignore -e match:'cannot write the baseline' "$TL" --write-baseline /nonexistent/dir/b.json order.xray
}

atf_init_test_cases() {
	atf_add_test_case round_trip
	atf_add_test_case unrelated_edit
	atf_add_test_case gone_ones_listed
	atf_add_test_case counted_duplicates
	atf_add_test_case sarif_baseline_state
	atf_add_test_case limit_counts_known_ones
	atf_add_test_case bad_baselines
	atf_add_test_case verdicts_with_a_baseline
	atf_add_test_case gone_by_directory
}
