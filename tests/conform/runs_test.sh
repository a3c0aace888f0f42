#! /usr/bin/env atf-sh
# tracelint-conform at its edges: option values just out of range, corpus
# layouts (a single case, unlabelled directories, sidecars with comments),
# .args options reaching the tracelint oracle, every crash signal a reader
# can die of (directly or through a shell), what a reader prints, a machine
# where the reader cannot be run or the report not written, and campaigns
# that cannot start or stop at --max-time.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"
VALID="$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray"
INVALID="$SRCDIR/corpus/xray/invalid/header-version.xray"

make_reader() {
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

# seeds/valid/ with one valid XRay trace to mutate.
one_seed() {
	mkdir -p seeds/valid
	cp "$VALID" seeds/valid/
}

one_case() {
	mkdir -p corpus/valid
	printf 'x' > corpus/valid/a.xray
}

atf_test_case option_values
option_values_head() { atf_set descr "option values just outside their range are usage errors naming the value"; }
option_values_body() {
	one_case
	while read -r opt want; do
		atf_check -s exit:2 -o empty -e match:"$want" "$KIT" --format=xray --reader='true {}' "$opt" corpus
	done <<'LIST'
--mutate= bad --mutate
--mutate=100000001 bad --mutate
--mutate=5x bad --mutate
--seed=18446744073709551616x bad --seed
--keep=100001 bad --keep
--minimize-budget=x bad --minimize-budget
--progress=x bad --progress
--timeout=5x bad --timeout
--timeout=86401 bad --timeout
--timeout=nan bad --timeout
--max-time=5x bad --max-time
--accept-rc=, bad --accept-rc
--accept-rc=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 bad --accept-rc
--shard=1/0 bad --shard
--shard=1/100001 bad --shard
--shard=1/2x bad --shard
--shard=1 bad --shard
--shard=-1/2 bad --shard
--format=auto unknown format
--reader= --reader is required
--list=x bad --list
LIST
	# 16 statuses are allowed, and "markdown" is md.
	make_reader reader 'exit 15'
	atf_check -s exit:0 -o match:'Agree: 1[.]' "$KIT" --format=xray --reader='./reader {}' \
		--accept-rc=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --output=markdown corpus
	atf_check -s exit:0 -o match:'^Runs' "$KIT" -h
	atf_check -s exit:0 -o match:'^tracelint-conform ' "$KIT" -V
}

atf_test_case corpus_layouts
corpus_layouts_head() { atf_set descr "a single case, a kind directory, an unlabelled directory and several CORPUS arguments"; }
corpus_layouts_body() {
	mkdir -p c/valid c/invalid loose
	cp "$VALID" c/valid/good.xray
	cp "$INVALID" c/invalid/bad.xray
	# Comments, a line with too few fields, then the first error.
	printf '# note\n\nshort line\n0 warning XRAY-X\n4 error XRAY-HEADER-VERSION\n' > c/invalid/bad.xray.expected
	# Sidecars, dotfiles and READMEs are not cases.
	for f in .hidden README.md good.xray.md run.sh gen.py; do printf 'x' > "c/valid/$f"; done
	cp "$VALID" loose/plain.xray
	cp "$VALID" bare.xray
	make_reader reader 'exit 0'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json \
		--list=all c/valid/ c/invalid/bad.xray loose "$PWD/c/valid/good.xray" bare.xray
	atf_check_equal "$(jq -r '.cases' r.json)" 5
	# A single case under valid/ or invalid/ keeps its label; other files and directories are unlabelled.
	atf_check -o inline:'valid/good.xray\nbad.xray\nplain.xray\ngood.xray\nbare.xray\n' \
		jq -r '.results[].case' r.json
	atf_check_equal "$(jq -r '.results[] | select(.case == "bad.xray") | .rule' r.json)" XRAY-HEADER-VERSION
	atf_check_equal "$(jq -r '.counts.lenient' r.json)" 1
	atf_check_equal "$(jq -r '.counts.agree' r.json)" 4
}

atf_test_case oracle_args
oracle_args_head() { atf_set descr "each .args option the oracle understands changes tracelint's verdict as the CLI's would"; atf_set timeout 300; }
oracle_args_body() {
	mkdir -p u
	be="$SRCDIR/corpus/xray/valid/gen-fdr-v3-be.xray"
	# A big-endian file read as little-endian is rejected; as big-endian
	# (comment and blank lines around the option) it is not.
	cp "$be" u/forced-little.xray
	printf -- '--endian=little\n' > u/forced-little.xray.args
	cp "$be" u/big.xray
	printf '# the byte order\n\n  --endian=big\n--max-errors=3\n' > u/big.xray.args
	cp "$VALID" u/werror.xray
	printf -- '--werror\n' > u/werror.xray.args
	cp "$VALID" u/only-comments.xray
	printf '# nothing\n\n' > u/only-comments.xray.args
	# --format= in .args, and an unknown one: the case cannot be judged and, unlabelled, is left out.
	cp "$VALID" u/named.xray
	printf -- '--format=xray\n' > u/named.xray.args
	cp "$VALID" u/unknown.xray
	printf -- '--format=nonesuch\n' > u/unknown.xray.args
	make_reader reader 'echo "args=$TRACELINT_CONFORM_ARGS"; exit 0'
	atf_check -s exit:1 -o save:r.json -e match:'unknown format in .args: nonesuch' "$KIT" --format=xray \
		--reader='./reader {}' --oracle=tracelint --output=json --list=all u
	atf_check_equal "$(jq -r '.cases' r.json)" 5
	atf_check -o inline:'big.xray\nforced-little.xray\nnamed.xray\nonly-comments.xray\nwerror.xray\n' \
		jq -r '.results[].case' r.json
	atf_check_equal "$(jq -r '.counts.agree' r.json)" 4
	atf_check_equal "$(jq -r '.results[] | select(.class == "lenient") | .case' r.json)" forced-little.xray
	atf_check_equal "$(jq -r '.results[] | select(.case == "big.xray") | .message' r.json)" \
		"args=--endian=big --max-errors=3"
	# --pair and --instr-map relative to the case, and absolute.
	mkdir -p d/p
	cp "$SRCDIR/corpus/dcfg-trace/valid/hello_paired.trace.json" d/t.json
	cp "$SRCDIR/corpus/dcfg/valid/hello.dcfg.json" d/p/pair.json
	printf -- '--pair=p/pair.json\n' > d/t.json.args
	cp d/t.json d/abs.json
	printf -- '--pair=%s/d/p/pair.json\n' "$PWD" > d/abs.json.args
	cp d/t.json d/missing.json
	printf -- '--pair=nonesuch.json\n' > d/missing.json.args
	atf_check -s exit:0 -o save:r3.json -e match:'missing.json: tracelint could not validate it' "$KIT" \
		--format=dcfg-trace --reader='true {}' --oracle=tracelint --output=json d
	atf_check_equal "$(jq -r '.counts.agree' r3.json)" 2
	# --instr-map relative to the case's directory.
	atf_check -s exit:0 -o match:'Agree: 1[.]' "$KIT" --format=xray --reader='true {}' --oracle=tracelint \
		"$SRCDIR/corpus/xray/valid/real-fdr-v5-mapped.xray"
}

atf_test_case reader_signals
reader_signals_head() { atf_set descr "every crash signal, directly or as a shell's 128+N, is a crash named by its signal; others are not"; atf_set timeout 120; }
reader_signals_body() {
	one_case
	for sig in SEGV BUS ABRT ILL FPE SYS TRAP; do
		make_reader reader "kill -$sig \$\$"
		atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
		atf_check_equal "$(jq -r '.results[0].outcome' r.json)" crashed
		n=$(jq -r '.results[0].signal' r.json)
		atf_check_equal "$(kill -l "$n")" "$sig"
		make_reader reader "exit \$((128 + $n))"
		atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
		atf_check_equal "$(jq -r '.results[0].outcome' r.json)" crashed
		atf_check_equal "$(jq -r '.results[0].signal' r.json)" "$n"
	done
	# 130 (SIGINT through a shell) is a rejection: the reader was asked to stop.
	make_reader reader 'exit 130'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
	atf_check_equal "$(jq -r '.results[0].outcome' r.json)" rejected
	atf_check_equal "$(jq -r '.results[0].exit' r.json)" 130
	# Markdown names the signal too.
	# A reader the shell runs with exec dies of any signal itself: a crash too.
	make_reader reader 'kill -TERM $$'
	atf_check -s exit:1 -o match:'crashed \(signal 15\)' "$KIT" --format=xray --reader='exec ./reader {}' corpus
}

atf_test_case campaign_groups
campaign_groups_head() { atf_set descr "campaign crash groups are named by signal, or its number when it has no name"; atf_set timeout 300; }
campaign_groups_body() {
	one_seed
	make_reader reader 's=$(cksum < "$1" | cut -d" " -f1)
case $((s % 8)) in
0) kill -BUS $$ ;; 1) kill -ILL $$ ;; 2) kill -FPE $$ ;; 3) kill -USR1 $$ ;;
4) kill -KILL $$ ;; 5) kill -TERM $$ ;; 6) kill -TRAP $$ ;; 7) kill -SYS $$ ;;
esac'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='exec ./reader {}' --mutate=40 \
		--seed=5 --out=out --keep=1 --minimize-budget=2 --no-corpus --output=json seeds
	atf_check_equal "$(jq -r '.campaign.counts.crash' r.json)" 40
	jq -r '.campaign.groups[].key' r.json | sort > keys
	atf_check -s exit:1 -o empty grep -v -x -e SIGBUS -e SIGILL -e SIGFPE -e 'signal 10' -e SIGKILL -e SIGTERM -e SIGTRAP \
		-e SIGSYS keys
	[ "$(wc -l < keys)" -ge 5 ] || atf_fail "too few signals among 40 mutants: $(cat keys)"
	# Each kept crash says its signal in its note.
	for f in out/crash-*.txt; do
		atf_check -o match:'^reader: crashed \(signal [0-9]+\)$' cat "$f"
	done
}

atf_test_case reader_output
reader_output_head() { atf_set descr "the message is the first non-blank line, trimmed and made printable; a sanitizer line on stdout counts"; }
reader_output_body() {
	one_case
	make_reader reader 'printf "\n  \r\n \t first\tline \r\nsecond\n" >&2; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
	atf_check_equal "$(jq -r '.results[0].message' r.json)" "first?line"
	# Nothing on stderr: stdout's first line, with binary bytes replaced.
	make_reader reader 'printf "\001bin\377ary\n"; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
	atf_check_equal "$(jq -r '.results[0].message' r.json)" "?bin?ary"
	make_reader reader 'echo "==1==ERROR: LeakSanitizer: detected memory leaks"; exit 0'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
	atf_check_equal "$(jq -r '.results[0].outcome' r.json)" sanitizer
	# A long line is cut, and without {} the path is appended.
	make_reader reader 'printf "%0500d\n" 0 >&2; printf "%s" "$1" > got; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader' --output=json corpus
	[ "$(jq -r '.results[0].message | length' r.json)" -lt 500 ] || atf_fail "message not cut"
	atf_check -o inline:'corpus/valid/a.xray' cat got
}

atf_test_case hostile_machine
hostile_machine_head() { atf_set descr "no temporary directory or an unwritable report is exit 2, not a verdict"; }
hostile_machine_body() {
	one_case
	atf_check -s exit:2 -e match:'cannot run the reader' env TMPDIR=/nonexistent "$KIT" --format=xray \
		--reader='true {}' corpus
	atf_check -s exit:2 -e match:'cannot write the report' "$KIT" --format=xray --reader='true {}' \
		--report=/dev/full corpus
	one_seed
	atf_check -s exit:2 -e match:'cannot create a work directory' env TMPDIR=/nonexistent "$KIT" --format=xray \
		--reader='true {}' --mutate=2 --no-corpus seeds
	printf 'x' > file
	atf_check -s exit:2 -e match:'file/out: cannot create' "$KIT" --format=xray --reader='true {}' --mutate=2 \
		--out=file/out --no-corpus seeds
	atf_check -s exit:2 -e match:'file/out/deeper: cannot create' "$KIT" --format=xray --reader='true {}' \
		--mutate=2 --out=file/out/deeper --no-corpus seeds
}

atf_test_case campaign_limits
campaign_limits_head() { atf_set descr "a campaign with no valid file to mutate is refused; --max-time stops it and says so"; atf_set timeout 120; }
campaign_limits_body() {
	mkdir -p none/invalid gz/valid
	cp "$INVALID" none/invalid/
	atf_check -s exit:2 -e match:'no valid case' "$KIT" --format=xray --reader='true {}' --mutate=2 --no-corpus none
	# Compressed seeds are not mutated.
	gzip -c "$VALID" > gz/valid/a.xray.gz
	atf_check -s exit:2 -e match:'no valid case' "$KIT" --format=xray --reader='true {}' --mutate=2 --no-corpus gz
	one_seed
	make_reader reader 'sleep 0.2; exit 0'
	atf_check -s not-exit:2 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --mutate=100000 \
		--max-time=1 --no-corpus --minimize-budget=1 --output=json seeds
	atf_check_equal "$(jq -r '.campaign.time_limited' r.json)" true
	[ "$(jq -r '.campaign.mutants' r.json)" -lt 100000 ] || atf_fail "--max-time did not stop the campaign"
	atf_check -s not-exit:2 -o match:'stopped at --max-time' -e ignore "$KIT" --format=xray --reader='./reader {}' \
		--mutate=100000 --max-time=1 --no-corpus --minimize-budget=1 seeds
}

atf_test_case corpus_next_to_program
corpus_next_to_program_head() { atf_set descr "without ./corpus/FMT the kit reads the corpus next to its program's directory, else says where it looked"; }
corpus_next_to_program_body() {
	mkdir -p tree/bin tree/corpus/xray/valid elsewhere
	cp "$KIT" tree/bin/
	cp "$VALID" tree/corpus/xray/valid/
	cd elsewhere
	atf_check -s exit:0 -o save:r.json -e ignore ../tree/bin/tracelint-conform --format=xray --reader='true {}' \
		--output=json
	atf_check_equal "$(jq -r '.cases' r.json)" 1
	atf_check -o match:'tree/bin/../corpus/xray' jq -r .corpus r.json
	atf_check -s exit:2 -e match:'corpus/tfile.*give a CORPUS directory' ../tree/bin/tracelint-conform --format=tfile \
		--reader='true {}'
	cd ..
}

atf_test_case explanation_files
explanation_files_head() { atf_set descr "explanation lines: indented, tab-separated, trailing blanks, a last line without a line break, class prefixes"; }
explanation_files_body() {
	mkdir -p corpus/valid corpus/invalid
	cp "$VALID" corpus/valid/good.xray
	cp "$INVALID" corpus/invalid/bad.xray
	printf '0 error XRAY-HEADER-VERSION\n' > corpus/invalid/bad.xray.expected
	make_reader reader 'case "$1" in *good*) exit 1 ;; esac; exit 0'
	# crash: and hang: keys never match a lenient or strict case; x: is no class.
	printf '\n   # indented comment\n\tcrash:* never\nhang:valid/* never\nx:y not a class \nstrict:valid/good.xray\t\tthe reader wants more  \t\nlenient:XRAY-HEADER-* no header check' > why.txt
	atf_check -s exit:0 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json \
		--explain=why.txt corpus
	atf_check_equal "$(jq -r '.results[] | select(.class == "strict") | .explanation' r.json)" "the reader wants more"
	atf_check_equal "$(jq -r '.results[] | select(.class == "lenient") | .explanation' r.json)" "no header check"
}

atf_test_case report_escapes
report_escapes_head() { atf_set descr "case names and messages with tabs, backquotes, pipes and backslashes stay one cell and valid JSON; a reader command with them survives --merge"; atf_set timeout 120; }
report_escapes_body() {
	mkdir -p corpus/valid
	cp "$VALID" "$(printf 'corpus/valid/tab\there.xray')"
	make_reader reader 'echo "a \`quoted\` | piped \\ back" >&2; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --output=json corpus
	atf_check_equal "$(jq -r '.results[0].case' r.json)" "$(printf 'valid/tab\there.xray')"
	atf_check_equal "$(jq -r '.results[0].message' r.json)" 'a `quoted` | piped \ back'
	atf_check -s exit:1 -o match:'^[|] valid/tab.here.xray [|] strict [|]' -o match:"a 'quoted' \\\\[|] piped \\\\ back [|]" \
		"$KIT" --format=xray --reader='./reader {}' corpus
	# A tab and a backslash in the reader command, two accepted statuses: the shard files keep them.
	cmd=$(printf './reader {}\t# \\\\ tab')
	for k in 1 2; do
		"$KIT" --format=xray --reader="$cmd" --accept-rc=0,3 --mutate=4 --seed=1 --keep=1 --minimize-budget=1 \
			--out=out --shard=$k/2 --report=s$k.txt corpus
		[ $? -eq 1 ] || atf_fail "shard $k"
	done
	atf_check -s exit:1 -o save:m.json "$KIT" --merge --out=out --output=json s1.txt s2.txt
	atf_check_equal "$(jq -r '.reader' m.json)" "$cmd"
	atf_check_equal "$(jq -c '.accept_rc' m.json)" '[0,3]'
}

atf_test_case campaign_messages
campaign_messages_head() { atf_set descr "strict groups mask hex numbers and the mutant's path; a long complaint is cut; braces that are not {} stay"; atf_set timeout 120; }
campaign_messages_body() {
	one_seed
	make_reader reader 'echo "{x} bad 0x1F at 0xZZ 0 in $2: $(printf "%0200d" 0)" >&2; exit 1'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {x} {}' --mutate=3 --seed=2 \
		--out=out --keep=1 --minimize-budget=2 --no-corpus --output=json seeds
	key=$(jq -r '[.campaign.groups[] | select(.class == "strict") | .key][0]' r.json)
	case "$key" in
	"(tracelint accepts) {x} bad N at NxZZ N in {}: N"*) ;;
	*) atf_fail "group key: $key" ;;
	esac
	[ "${#key}" -lt 100 ] || atf_fail "group key not cut: $key"
}

atf_test_case campaign_hangs
campaign_hangs_head() { atf_set descr "a hanging mutant is minimised with at most 10 reader runs and noted as a timeout"; atf_set timeout 120; }
campaign_hangs_body() {
	one_seed
	make_reader reader 'sleep 5'
	atf_check -s exit:1 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --mutate=1 --seed=2 \
		--out=out --keep=1 --minimize-budget=50 --timeout=0.2 --no-corpus --output=json seeds
	atf_check_equal "$(jq -r '.campaign.counts.hang' r.json)" 1
	# 12 runs of 0.2 s at most (the mutant, 10 candidates, the kept file); 50 would take 10 s.
	jq -e '.campaign.seconds < 8' r.json > /dev/null || atf_fail "minimising a hang took $(jq .campaign.seconds r.json) s"
	atf_check -o match:'^reader: timeout$' cat out/hang-000000.txt
}

atf_test_case oracle_unusable
oracle_unusable_head() { atf_set descr "when tracelint rejects none of the invalid cases, the campaign says it could not judge and counts no lenient or strict"; atf_set timeout 120; }
oracle_unusable_body() {
	mkdir -p c/valid c/invalid
	cp "$VALID" c/valid/
	# An "invalid" case tracelint accepts: tracelint cannot be the oracle here.
	cp "$VALID" c/invalid/not-really.xray
	make_reader reader 'exit 1'
	atf_check -s exit:0 -o save:r.json -e ignore "$KIT" --format=xray --reader='./reader {}' --mutate=3 --seed=2 \
		--out=out --keep=1 --minimize-budget=2 --no-corpus --output=json c
	atf_check_equal "$(jq -r '.campaign.counts.strict + .campaign.counts.lenient' r.json)" 0
	atf_check -s exit:0 -o match:'rejects none of the 1 invalid xray cases' -e ignore "$KIT" --format=xray \
		--reader='./reader {}' --mutate=3 --seed=2 --out=out --keep=1 --minimize-budget=2 --no-corpus c
}

atf_init_test_cases() {
	atf_add_test_case option_values
	atf_add_test_case corpus_layouts
	atf_add_test_case oracle_args
	atf_add_test_case reader_signals
	atf_add_test_case campaign_groups
	atf_add_test_case reader_output
	atf_add_test_case hostile_machine
	atf_add_test_case campaign_limits
	atf_add_test_case corpus_next_to_program
	atf_add_test_case explanation_files
	atf_add_test_case report_escapes
	atf_add_test_case campaign_messages
	atf_add_test_case campaign_hangs
	atf_add_test_case oracle_unusable
}
