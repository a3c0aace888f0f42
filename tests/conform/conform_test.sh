#! /usr/bin/env atf-sh
# tracelint-conform: how each kind of reader run is classified (fake readers
# that accept, reject, crash, hang, print a sanitizer report), the reports,
# and the mutation mode's determinism. The corpus cases are made here, so
# the classification tests hold whichever validators are built.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"

# A tiny labelled xray corpus: one valid case, one invalid case whose
# .expected names the rule, one regression case that expects no error.
make_corpus() {
	mkdir -p corpus/valid corpus/invalid corpus/regressions
	printf 'valid bytes' > corpus/valid/good.xray
	printf 'invalid bytes' > corpus/invalid/bad.xray
	printf '# comment\n0 warning XRAY-SOME-WARNING\n4 error XRAY-HEADER-VERSION\n' > corpus/invalid/bad.xray.expected
	printf 'regression bytes' > corpus/regressions/old.xray
	printf '0 warning XRAY-SOME-WARNING\n' > corpus/regressions/old.xray.expected
}

# A fake reader script named $1 whose body is $2.
make_reader() {
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

# Runs the kit with JSON output; $1 is the expected exit status.
run_json() {
	status=$1
	shift
	atf_check -s exit:"$status" -o save:report.json -e ignore "$KIT" --format=xray --output=json "$@"
}

# Value of a jq expression over report.json.
jqr() {
	jq -r "$1" report.json
}

atf_test_case accept_all
accept_all_head() { atf_set descr "a reader that accepts everything is lenient on each case we reject"; }
accept_all_body() {
	make_corpus
	make_reader reader 'echo "read $1"; exit 0'
	run_json 1 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .cases)" 3
	atf_check_equal "$(jqr .counts.lenient)" 1
	atf_check_equal "$(jqr .counts.agree)" 2
	atf_check_equal "$(jqr '.matrix.rejects.accepted')" 1
	atf_check_equal "$(jqr '.results[] | select(.class == "lenient") | .case')" invalid/bad.xray
	# The rule is the first error of the sidecar, not its first line.
	atf_check_equal "$(jqr '.results[] | select(.class == "lenient") | .rule')" XRAY-HEADER-VERSION
	atf_check_equal "$(jqr '.results[] | select(.class == "lenient") | .message')" "read corpus/invalid/bad.xray"
}

atf_test_case reject_all
reject_all_head() { atf_set descr "a reader that rejects everything is strict on each case we accept"; }
reject_all_body() {
	make_corpus
	make_reader reader 'echo "cannot parse header" >&2; echo "some stdout"; exit 3'
	run_json 1 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .counts.strict)" 2
	atf_check_equal "$(jqr .counts.agree)" 1
	atf_check_equal "$(jqr '[.results[] | select(.class == "strict") | .case] | join(" ")')" \
		"valid/good.xray regressions/old.xray"
	# stderr's first line is the message, and the exit status is kept.
	atf_check_equal "$(jqr '.results[0].message')" "cannot parse header"
	atf_check_equal "$(jqr '.results[0].exit')" 3
	# The same exit status declared as acceptance turns the reader lenient instead.
	run_json 1 --reader='./reader {}' --accept-rc=0,3 corpus
	atf_check_equal "$(jqr .counts.lenient)" 1
	atf_check_equal "$(jqr .counts.strict)" 0
}

atf_test_case agree
agree_head() { atf_set descr "a reader that agrees everywhere gives exit status 0"; }
agree_body() {
	make_corpus
	make_reader reader 'case "$1" in *invalid*) exit 1 ;; esac; exit 0'
	run_json 0 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .counts.agree)" 3
}

atf_test_case crash
crash_head() { atf_set descr "a reader killed by SIGSEGV is a crash, whatever our verdict"; }
crash_body() {
	make_corpus
	make_reader reader 'echo "about to fault" >&2; kill -SEGV $$'
	run_json 1 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .counts.crash)" 3
	atf_check_equal "$(jqr '[.results[] | .outcome] | unique | join(" ")')" crashed
	atf_check_equal "$(jqr '.results[0].signal')" 11
	# Through an extra shell, which reports the death as status 139.
	run_json 1 --reader='sh -c "./reader {}; exit \$?"' corpus
	atf_check_equal "$(jqr .counts.crash)" 3
	atf_check_equal "$(jqr '.results[0].signal')" 11
}

atf_test_case hang
hang_head() {
	atf_set descr "a reader still running at --timeout is a hang; its whole process group is killed"
	atf_set timeout 60
}
hang_body() {
	make_corpus
	# The reader leaves a child behind that would outlive a kill of the reader alone.
	make_reader reader 'sleep 300 & echo $! >> "$PWD/children"; sleep 300'
	run_json 1 --reader='./reader {}' --timeout=1 corpus
	atf_check_equal "$(jqr .counts.hang)" 3
	atf_check_equal "$(jqr '[.results[] | .outcome] | unique | join(" ")')" timeout
	atf_check_equal "$(wc -l < children | tr -d ' ')" 3
	sleep 1
	# A killed child whose parent is gone may stay a zombie until init reaps it.
	while read -r pid; do
		state=$(ps -o stat= -p "$pid" 2> /dev/null || true)
		if [ -n "$state" ] && [ "${state#Z}" = "$state" ]; then
			kill "$pid"
			atf_fail "child $pid of the reader survived the timeout"
		fi
	done < children
}

atf_test_case sanitizer
sanitizer_head() { atf_set descr "an AddressSanitizer report in the output is a crash even with exit status 1"; }
sanitizer_body() {
	make_corpus
	make_reader reader 'echo "=================================================================" >&2
echo "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc 0x1" >&2
echo "READ of size 1 at 0x602000000011 thread T0" >&2
exit 1'
	run_json 1 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .counts.crash)" 3
	atf_check_equal "$(jqr '[.results[] | .outcome] | unique | join(" ")')" sanitizer
	atf_check_equal "$(jqr '.results[0].message')" \
		"==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc 0x1"
	# UBSan's runtime errors too.
	make_reader reader 'echo "x.c:3:5: runtime error: signed integer overflow" >&2; exit 0'
	run_json 1 --reader='./reader {}' corpus
	atf_check_equal "$(jqr .counts.crash)" 3
}

atf_test_case markdown
markdown_head() { atf_set descr "the Markdown report: summary matrix and one line per disagreement"; }
markdown_body() {
	make_corpus
	make_reader reader 'echo "ok | fine"; exit 0'
	atf_check -s exit:1 -o save:report.md "$KIT" --format=xray --reader='./reader {}' corpus
	atf_check -o match:'^\| tracelint \\ reader \| accepted \| rejected \| crashed \| sanitizer \| timeout \|$' cat report.md
	atf_check -o match:'^\| accepts \| 2 \| 0 \| 0 \| 0 \| 0 \|$' cat report.md
	atf_check -o match:'^\| rejects \| 1 \| 0 \| 0 \| 0 \| 0 \|$' cat report.md
	atf_check -o match:'^\| invalid/bad.xray \| lenient \| XRAY-HEADER-VERSION \| [^|]* \| [^|]* \| accepted \(exit 0\) \| ok \\\| fine \|$' cat report.md
	# --report writes the same to a file.
	atf_check -s exit:1 "$KIT" --format=xray --reader='./reader {}' --report=file.md corpus
	atf_check cmp report.md file.md
}

atf_test_case paths
paths_head() { atf_set descr "inputs with spaces and quotes reach the reader intact; .args reach it in the environment"; }
paths_body() {
	mkdir -p "c/valid"
	printf x > "c/valid/it's a case.xray"
	printf -- '--endian=big\n' > "c/valid/it's a case.xray.args"
	make_reader reader '[ -f "$1" ] || exit 9; echo "args=$TRACELINT_CONFORM_ARGS" >&2; exit 0'
	run_json 0 --reader='./reader {}' c
	atf_check_equal "$(jqr '.results[0].message')" "args=--endian=big"
}

atf_test_case usage
usage_head() { atf_set descr "bad options exit 2 with a message"; }
usage_body() {
	atf_check -s exit:2 -e match:'--format is required' "$KIT" --reader=true corpus
	atf_check -s exit:2 -e match:'--reader is required' "$KIT" --format=xray corpus
	atf_check -s exit:2 -e match:'unknown format' "$KIT" --format=nope --reader=true corpus
	atf_check -s exit:2 -e match:'bad --accept-rc' "$KIT" --format=xray --reader=true --accept-rc=x corpus
	atf_check -s exit:2 -e match:'bad --timeout' "$KIT" --format=xray --reader=true --timeout=0 corpus
	atf_check -s exit:2 -e match:'bad --max-time' "$KIT" --format=xray --reader=true --mutate=1 --max-time=-1 corpus
	atf_check -s exit:2 -e match:'--no-corpus needs --mutate' "$KIT" --format=xray --reader=true --no-corpus corpus
	atf_check -s exit:2 -e match:'cannot open' "$KIT" --format=xray --reader=true /nonexistent
	atf_check -o match:'^usage: tracelint-conform' "$KIT" --help
}

# Two valid xray seeds from the source corpus, little- and big-endian when there.
seed_corpus() {
	mkdir -p seeds/valid
	n=0
	for f in "$SRCDIR"/corpus/xray/valid/*.xray; do
		[ -f "$f" ] || continue
		cp "$f" seeds/valid/
		[ ! -f "$f.args" ] || cp "$f.args" seeds/valid/
		n=$((n + 1))
		[ "$n" -lt 3 ] || break
	done
	[ "$n" -gt 0 ] || atf_skip "no xray corpus in $SRCDIR"
}

atf_test_case mutate_deterministic
mutate_deterministic_head() {
	atf_set descr "--mutate: the same seed gives the same mutants and findings, byte for byte"
	atf_set timeout 300
}
mutate_deterministic_body() {
	seed_corpus
	make_reader reader 'exit 0'
	for run in a b; do
		"$KIT" --format=xray --reader='./reader {}' --mutate=40 --seed=12345 --out=out-$run \
			--keep-all --keep=1 --minimize-budget=20 --no-corpus --output=json seeds > report-$run.json
		atf_check_equal "$?" 1
	done
	atf_check_equal "$(ls out-a/all | wc -l | tr -d ' ')" 40
	atf_check diff -r out-a out-b
	# Only the timing differs between the two reports.
	atf_check -o save:a.txt jq -S 'del(.campaign.seconds, .campaign.out, .campaign.kept[].file)' report-a.json
	atf_check -o save:b.txt jq -S 'del(.campaign.seconds, .campaign.out, .campaign.kept[].file)' report-b.json
	atf_check cmp a.txt b.txt
	# Another seed, other mutants.
	"$KIT" --format=xray --reader='./reader {}' --mutate=40 --seed=54321 --out=out-c \
		--keep-all --keep=1 --minimize-budget=20 --no-corpus seeds > /dev/null
	atf_check -s exit:1 -o ignore diff -r out-a/all out-c/all
	# --progress: one line on stderr per 10 mutants.
	atf_check -s exit:1 -o ignore -e save:progress.txt "$KIT" --format=xray --reader='./reader {}' \
		--mutate=20 --seed=12345 --out=out-p --keep=1 --minimize-budget=5 --no-corpus --progress=10 seeds
	atf_check -o inline:"2\n" grep -c -E '^tracelint-conform: (10|20) of 20 mutants, [0-9]+ disagree, [0-9]+ s$' progress.txt
}

atf_test_case mutate_findings
mutate_findings_head() {
	atf_set descr "--mutate keeps minimised lenient mutants with the rule tracelint cites, and crashes"
	atf_set timeout 300
}
mutate_findings_body() {
	seed_corpus
	make_reader reader 'exit 0'
	atf_check -s exit:1 -o save:report.json "$KIT" --format=xray --reader='./reader {}' --mutate=30 --seed=3 \
		--out=out --keep=1 --minimize-budget=40 --no-corpus --output=json seeds
	jq -e '.campaign.tracelint_failed == 0' report.json > /dev/null || atf_skip "no xray validator in this build"
	lenient=$(jq -r '.campaign.counts.lenient' report.json)
	rejected=$(jq -r '.campaign.tracelint_rejected' report.json)
	atf_check_equal "$lenient" "$rejected"
	[ "$lenient" -gt 0 ] || atf_fail "30 mutants and tracelint rejected none"
	# Each kept file is no larger than its mutant, and tracelint still cites the rule.
	jq -r '.campaign.kept[] | "\(.file) \(.rule) \(.size) \(.original_size)"' report.json > kept
	while read -r file rule size orig; do
		[ "$size" -le "$orig" ] || atf_fail "$file: $size bytes, larger than $orig"
		atf_check_equal "$(wc -c < "out/$file" | tr -d ' ')" "$size"
		atf_check -s exit:1 -o match:"$rule" "$BUILDDIR/tracelint" --format=xray "out/$file"
		atf_check -o match:"^rule: $rule\$" cat "out/${file%.xray}.txt"
	done < kept
	# A reader that crashes on everything: every mutant is a crash.
	make_reader crasher 'kill -ABRT $$'
	atf_check -s exit:1 -o save:crash.json "$KIT" --format=xray --reader='./crasher {}' --mutate=5 --seed=3 \
		--out=out2 --keep=1 --minimize-budget=10 --no-corpus --output=json seeds
	atf_check_equal "$(jq -r '.campaign.counts.crash' crash.json)" 5
	atf_check_equal "$(jq -r '.campaign.groups[0].key' crash.json)" SIGABRT
}

atf_test_case mutate_strict_groups
mutate_strict_groups_head() { atf_set descr "strict mutants are grouped by the reader's complaint with its numbers and the mutant's path masked"; }
mutate_strict_groups_body() {
	seed_corpus
	# Rejects everything, naming a different offset and hex address each time.
	make_reader reader 'n=$(wc -c < "$1"); echo "bad record at offset $n in $1 (0x$n)" >&2; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --mutate=40 \
		--seed=7 --out=out --keep=1 --minimize-budget=5 --no-corpus --output=json seeds
	strict=$(jq -r '.campaign.counts.strict' r.json)
	[ "$strict" -gt 1 ] || atf_fail "expected several strict mutants, got $strict"
	# The mutant's path (a temporary name that differs between runs) reads as {}.
	atf_check -o inline:"(tracelint accepts) bad record at offset N in {} (N)\n" \
		jq -r '[.campaign.groups[] | select(.class == "strict") | .key] | unique | join("|")' r.json
	atf_check_equal "$(jq -r '[.campaign.groups[] | select(.class == "strict")][0].mutants' r.json)" "$strict"
}

atf_test_case explain
explain_head() { atf_set descr "--explain attaches the first matching reason to each disagreement, by case or by rule and class"; }
explain_body() {
	make_corpus
	make_reader reader 'echo "read $1"; exit 0'
	cat > why.txt <<'WHY'
# a comment, then a key that matches nothing, a class that does not apply,
# and the rule glob that does
valid/nothing.xray never used
strict:XRAY-HEADER-* wrong class, never used
lenient:XRAY-HEADER-* the reader never looks at the header
invalid/* too late: the line above matched first
WHY
	# every disagreement explained: exit 0, and none counted unexplained
	run_json 0 --reader='./reader {}' --explain=why.txt corpus
	atf_check_equal "$(jqr '.results[] | select(.class == "lenient") | .explanation')" \
		"the reader never looks at the header"
	atf_check_equal "$(jqr '.disagreements')" 1
	atf_check_equal "$(jqr '.unexplained')" 0
	# Agreeing cases carry no explanation.
	atf_check_equal "$(jqr '[.results[] | select(.explanation)] | length')" 1
	# Markdown: a why column, the count of explained disagreements.
	atf_check -s exit:0 -o save:report.md -e ignore "$KIT" --format=xray --reader='./reader {}' \
		--explain=why.txt corpus
	atf_check -o match:'^Explained: 1 of 1 disagreements[.]$' cat report.md
	atf_check -o match:'^[|] invalid/bad.xray [|] lenient [|] XRAY-HEADER-VERSION [|] .* [|] the reader never looks at the header [|]$' cat report.md
	# A disagreement no line explains is marked.
	printf 'valid/* only the valid ones\n' > some.txt
	atf_check -s exit:1 -o save:report2.md -e ignore "$KIT" --format=xray --reader='./reader {}' \
		--explain=some.txt corpus
	atf_check -o match:'^Explained: 0 of 1 disagreements' -o match:'[*][*]unexplained[*][*] [|]$' cat report2.md
	run_json 1 --reader='./reader {}' --explain=some.txt corpus
	atf_check_equal "$(jqr '.unexplained')" 1
	# A key without a reason is a usage error that names the line.
	printf '# c\nlenient:XRAY-*\n' > bad.txt
	atf_check -s exit:2 -e match:'bad.txt:2: a key without an explanation' "$KIT" --format=xray \
		--reader='./reader {}' --explain=bad.txt corpus
	atf_check -s exit:2 -e match:'cannot read' "$KIT" --format=xray --reader='./reader {}' \
		--explain=missing.txt corpus
}

atf_test_case list_all
list_all_head() { atf_set descr "--list=all lists agreeing cases too; the default lists disagreements only"; }
list_all_body() {
	make_corpus
	make_reader reader 'case "$1" in *invalid*) exit 1 ;; esac; exit 0'
	atf_check -s exit:0 -o save:default.md -e ignore "$KIT" --format=xray --reader='./reader {}' corpus
	atf_check -s exit:1 -o empty -e ignore grep -F 'valid/good.xray' default.md
	atf_check -s exit:0 -o save:all.md -e ignore "$KIT" --format=xray --reader='./reader {}' --list=all corpus
	atf_check -o match:'^[|] valid/good.xray [|] agree [|] - [|] - [|] - [|] accepted' cat all.md
	atf_check -o match:'^[|] invalid/bad.xray [|] agree [|] XRAY-HEADER-VERSION [|] [^|]* [|] [^|]* [|] rejected' cat all.md
	atf_check -s exit:2 -e match:'bad --list' "$KIT" --format=xray --reader='./reader {}' --list=some corpus
}

atf_init_test_cases() {
	atf_add_test_case accept_all
	atf_add_test_case reject_all
	atf_add_test_case agree
	atf_add_test_case crash
	atf_add_test_case hang
	atf_add_test_case sanitizer
	atf_add_test_case markdown
	atf_add_test_case paths
	atf_add_test_case usage
	atf_add_test_case mutate_deterministic
	atf_add_test_case mutate_findings
	atf_add_test_case mutate_strict_groups
	atf_add_test_case explain
	atf_add_test_case list_all
}
