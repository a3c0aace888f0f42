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

# A repository with the two traces under traces/ and the plain hook installed.
make_repository() {
	export HOME="$PWD/home" GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$HOME" repo/traces/sub
	git config --global user.name tracelint-test
	git config --global user.email test@example.invalid
	git -C repo init -q
	cp "$C/dcfg/invalid/dcfg_id_duplicate.dcfg.json" repo/traces/dup.dcfg.json
	cp "$C/xray/invalid/call-argument-order.xray" repo/traces/order.xray
}

atf_test_case paths_from_anywhere
paths_from_anywhere_head() {
	atf_set "descr" "a baseline written in one working directory matches from three others, with relative or absolute paths, and from the plain git hook"
	atf_set "require.progs" "git bash jq"
}
paths_from_anywhere_body() {
	make_repository
	top=$PWD/repo
	(cd repo && atf_check -s exit:1 -o ignore -e ignore "$TL" --write-baseline traces/base.json traces/order.xray ./traces//dup.dcfg.json)
	atf_check -o inline:"traces/dup.dcfg.json\ntraces/order.xray\n" -x "jq -r '.diagnostics[].path' repo/traces/base.json | sort -u"
	known='4 known diagnostics not reported, 0 no longer found'
	# inside traces/, relative
	(cd repo/traces && atf_check -s exit:0 -o ignore -e match:"$known" "$TL" --baseline base.json order.xray dup.dcfg.json)
	# from /, absolute
	(cd / && atf_check -s exit:0 -o ignore -e match:"$known" "$TL" --baseline "$top/traces/base.json" "$top/traces/order.xray" "$top/traces/dup.dcfg.json")
	# from a directory below, through ".." and with -j
	(cd repo/traces/sub && atf_check -s exit:0 -o ignore -e match:"$known" "$TL" -j 2 --baseline ../base.json ../order.xray ../../traces/dup.dcfg.json)
	# outside the repository, relative
	atf_check -s exit:0 -o ignore -e match:"$known" "$TL" --baseline repo/traces/base.json repo/traces/order.xray repo/traces/dup.dcfg.json
	# the plain hook validates in a temporary checkout: it brings the baseline along
	cp "$SRCDIR/validators/hooks/pre-commit" repo/.git/hooks/pre-commit
	export TRACELINT="$TL"
	cd repo
	git add traces/base.json
	atf_check -o ignore -e ignore git commit -q -m baseline
	git add traces
	TRACELINT_OPTIONS="--baseline traces/base.json" atf_check -o ignore -e match:"$known" git commit -q -m 'known defects'
	# a new defect still fails the commit
	sed 's/\[2, "EXIT"\]/[1, "EXIT"]/' traces/dup.dcfg.json > edited && mv edited traces/dup.dcfg.json
	git add traces/dup.dcfg.json
	TRACELINT_OPTIONS="--baseline=traces/base.json" atf_check -s exit:1 -o ignore -e match:'DCFG-ID-DUPLICATE' git commit -q -m 'new defect'
}

atf_test_case outside_a_repository
outside_a_repository_head() { atf_set "descr" "outside a repository, paths are relative to the baseline's directory"; atf_set "require.progs" "jq"; }
outside_a_repository_body() {
	mkdir -p data/run out
	cp "$C/xray/invalid/call-argument-order.xray" data/run/order.xray
	(cd data && atf_check -s exit:1 -o ignore "$TL" --write-baseline ../out/base.json run/order.xray)
	atf_check -o inline:"../data/run/order.xray\n" -x "jq -r '.diagnostics[0].path' out/base.json"
	(cd data/run && atf_check -s exit:0 -o ignore -e match:'2 known' "$TL" --baseline ../../out/base.json order.xray)
	atf_check -s exit:0 -o ignore -e match:'2 known' "$TL" --baseline "$PWD/out/base.json" "$PWD/data/run/order.xray"
}

atf_test_case version_1_baselines
version_1_baselines_head() { atf_set "descr" "a baseline of version 1 (paths as given) still matches, and is written again as version 2"; atf_set "require.progs" "jq"; }
version_1_baselines_body() {
	setup_files
	# version 1 fingerprints are SARIF's partialFingerprints: the path as given
	atf_check -s exit:1 -o save:out.sarif -e ignore "$TL" -o sarif dup.dcfg.json order.xray
	jq '{tool: "tracelint", baseline: 1, diagnostics: [.runs[0].results[] | {path: .locations[0].physicalLocation.artifactLocation.uri, rule: .ruleId, fingerprint: .partialFingerprints["tracelintLocation/v1"], message: .message.text}]}' out.sarif > base.json
	atf_check -s exit:0 -o ignore -e match:'4 known diagnostics not reported, 0 no longer found' \
		"$TL" --baseline base.json --write-baseline base.json dup.dcfg.json order.xray
	atf_check -o inline:"2\n4\n" jq '.baseline, (.diagnostics | length)' base.json
	mkdir sub
	(cd sub && atf_check -s exit:0 -o ignore -e match:'4 known' "$TL" --baseline ../base.json ../dup.dcfg.json ../order.xray)
}

atf_test_case safe_writes
safe_writes_head() { atf_set "descr" "a baseline is written beside its target and renamed: symbolic links and devices refused, concurrent writers leave whole documents, SIGTERM leaves no temporary file"; atf_set "require.progs" "jq python3"; }
safe_writes_body() {
	setup_files
	# a symbolic link at the target is not written through
	echo precious > victim
	ln -s victim base.json
	atf_check -s exit:2 -o empty -e match:'cannot write the baseline base.json: it is a symbolic link' \
		"$TL" --write-baseline base.json order.xray
	atf_check -o inline:"precious\n" cat victim
	# unless asked: then the file it names is replaced, the link stays
	atf_check -s exit:1 -o ignore "$TL" --write-baseline base.json --write-through-symlink order.xray
	test -L base.json || atf_fail "the link was replaced"
	atf_check -o inline:"2\n" jq '.diagnostics | length' victim
	rm base.json
	# nor a device, a FIFO or a directory
	mkfifo fifo
	for t in /dev/full /dev/null fifo .; do
		atf_check -s exit:2 -o empty -e match:'cannot write the baseline.*(not a regular file|directory)' \
			timeout 20 "$TL" --write-baseline "$t" order.xray
	done
	test -c /dev/full || atf_fail "/dev/full was replaced"
	# a directory that does not exist fails before the run: no report
	atf_check -s exit:2 -o empty -e match:'cannot write the baseline nodir/b.json' "$TL" --write-baseline nodir/b.json order.xray
	# six writers at once: each leaves a whole document, none a temporary file
	for i in 1 2 3 4 5 6; do
		"$TL" -q --write-baseline base.json dup.dcfg.json order.xray > /dev/null 2>&1 &
	done
	wait
	atf_check -o inline:"4\n" jq '.diagnostics | length' base.json
	atf_check -s exit:1 -o empty ls -A | grep '^\.base\.json\.'
	# ended by SIGTERM while the baseline is being written: nothing left but what was there
	python3 -c 'import gzip,sys; sys.stdout.buffer.write(gzip.compress(("{\"MAJOR_VERSION\": 1, \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"]," + ",".join(["[1, \"a\"]"] * 300000) + "]}").encode()))' > big.dcfg.json.gz
	"$TL" -q --max-errors=0 --write-baseline base.json big.dcfg.json.gz > /dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do
		ls -A | grep -q '^\.base\.json\.' && break
		sleep 0.1
	done
	kill -TERM $pid
	wait $pid
	atf_check -s exit:1 -o empty ls -A | grep '^\.base\.json\.'
	atf_check -o inline:"4\n" jq '.diagnostics | length' base.json
}

atf_test_case baseline_inputs_refused
baseline_inputs_refused_head() { atf_set "descr" "--baseline of a device or a FIFO is a usage error at once, not a read without end"; }
baseline_inputs_refused_body() {
	setup_files
	mkfifo fifo
	for b in /dev/zero fifo /dev/null .; do
		atf_check -s exit:2 -o empty -e match:'cannot read the baseline.*(not a regular file)' \
			timeout 20 "$TL" --baseline "$b" order.xray
	done
}

atf_test_case gone_list_escaped
gone_list_escaped_head() { atf_set "descr" "the paths, rules and messages a baseline holds reach the terminal escaped"; }
gone_list_escaped_body() {
	setup_files
	printf '{"baseline": 2, "diagnostics": [{"path": "order.xray", "rule": "R\\u001b[31m", "fingerprint": "0123456789abcdef", "message": "\\u001b[2J\\norder.xray:1:1: error: forged [X]"}]}\n' > base.json
	atf_check -s exit:1 -o ignore -e save:err "$TL" --baseline base.json order.xray
	atf_check -o match:'order.xray: R\\x1b\[31m: \\x1b\[2J\\x0aorder.xray:1:1: error: forged' cat err
	atf_check -s exit:1 -o inline:"0\n" grep -c "$(printf '\033')" err
	atf_check -o inline:"3\n" -x "wc -l < err"
	# a config's key echoed in its error
	printf '[tracelint]\n\033[2Jkey = 1\n' > .tracelint.ini
	atf_check -s exit:2 -o empty -e match:"unknown key '\\\\x1b\\[2Jkey'" "$TL" order.xray
	atf_check -s exit:1 -o inline:"0\n" -x "'$TL' order.xray 2>&1 | grep -c \"\$(printf '\\033')\""
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
	atf_add_test_case paths_from_anywhere
	atf_add_test_case outside_a_repository
	atf_add_test_case version_1_baselines
	atf_add_test_case safe_writes
	atf_add_test_case baseline_inputs_refused
	atf_add_test_case gone_list_escaped
}
