#! /usr/bin/env atf-sh
# tracelint-conform against hostile inputs: --merge deletes only kit-named
# mutants in its own --out directory, whatever a shard file names; {} is
# safe in any quoting (a corpus file name is never run); a timeout ends
# every process the reader started, also one in a session of its own; a
# merge of 50,000 groups is linear.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"

make_corpus() {
	mkdir -p corpus/valid corpus/invalid
	cp "$SRCDIR"/corpus/xray/valid/gen-fdr-v3-le.xray "$SRCDIR"/corpus/xray/valid/gen-basic-v3-le.xray corpus/valid/ ||
		atf_skip "no xray corpus in $SRCDIR"
}

# A reader whose verdict depends on the bytes only: two kinds of rejection.
make_reader() {
	cat > reader <<'EOF2'
#!/bin/sh
s=$(cksum < "$1" | cut -d' ' -f1)
case $((s % 3)) in
0) echo "bad record" >&2; exit 1 ;;
*) exit 0 ;;
esac
EOF2
	chmod +x reader
}

# Two shards of a campaign that keeps 1 mutant a group: shard files s1.txt
# s2.txt, the kept mutants of both in out/.
make_shards() {
	make_corpus
	make_reader
	for k in 1 2; do
		"$KIT" --format=xray --reader='./reader {}' --mutate=40 --seed=3 --keep=1 --minimize-budget=2 \
			--no-corpus --out=out-$k --shard=$k/2 --report=s$k.txt corpus
		[ $? -le 1 ] || atf_fail "shard $k failed"
	done
	mkdir out
	cp out-1/* out-2/* out/
	sed -i 's|\tout-[12]$|\tout|' s1.txt s2.txt
}

atf_test_case merge_deletes_only_its_own
merge_deletes_only_its_own_head() {
	atf_set descr "--merge removes surplus mutants from its --out only, never a name a shard points elsewhere"
	atf_set timeout 300
}
merge_deletes_only_its_own_body() {
	make_shards
	before=$(ls out | wc -l)
	# A hostile copy: the campaign directory and every find's file name point outside.
	mkdir victim
	echo precious > victim/keep.txt
	awk -F'\t' -v OFS='\t' -v d="$PWD/victim" '
		$1 == "campaign" { $12 = d }
		$1 == "find" { $13 = "../victim/keep.txt" }
		{ print }' s2.txt > evil2.txt
	awk -F'\t' -v OFS='\t' -v d="$PWD/victim" '
		$1 == "campaign" { $12 = d }
		$1 == "find" { $13 = "/etc/hostname" }
		{ print }' s1.txt > evil1.txt
	"$KIT" --merge --out=out --report=evil.md evil1.txt evil2.txt 2> err
	[ $? -le 1 ] || atf_fail "merge failed: $(cat err)"
	atf_check -o inline:'precious\n' cat victim/keep.txt
	grep -q 'evil[12].txt: its mutants are not in --out out: none removed' err || atf_fail "no note: $(cat err)"
	[ -f /etc/hostname ] || atf_fail "/etc/hostname is gone"
	# The real merge, from the merge's own --out: surplus mutants go, nothing else.
	"$KIT" --merge --out=out --report=m.md s1.txt s2.txt 2> err
	[ $? -le 1 ] || atf_fail "merge failed: $(cat err)"
	after=$(ls out | wc -l)
	[ "$after" -lt "$before" ] || atf_fail "no surplus mutant removed ($before files, then $after)"
	# Run from elsewhere, without --out: the shards' directory is not the merge's, nothing goes.
	cp -r out out-copy
	mkdir elsewhere
	(cd elsewhere && "$KIT" --merge --report=m.md ../s1.txt ../s2.txt 2> ../err2)
	atf_check diff -r out out-copy
	grep -q 'not in --out conform-out: none removed' err2 || atf_fail "no note: $(cat err2)"
}

atf_test_case symlinked_mutant_not_followed
symlinked_mutant_not_followed_head() {
	atf_set descr "a kept mutant replaced by a symbolic link is not followed by --merge"
	atf_set timeout 300
}
symlinked_mutant_not_followed_body() {
	make_shards
	mkdir victim
	for f in $(awk -F'\t' '$1 == "find" { print $13 }' s1.txt s2.txt); do
		echo precious > "victim/$f"
		rm -f "out/$f"
		ln -s "$PWD/victim/$f" "out/$f"
	done
	"$KIT" --merge --out=out --report=m.md s1.txt s2.txt
	for f in victim/*; do
		atf_check -o inline:'precious\n' cat "$f"
	done
}

atf_test_case braces_in_any_quoting
braces_in_any_quoting_head() {
	atf_set descr "{} bare, in double and in single quotes: the reader gets the path, no name is run"
	atf_set timeout 120
}
braces_in_any_quoting_body() {
	mkdir -p corpus/valid
	for name in 'a$(touch PWNED).xray' "b\`touch PWNED2\`.xray" "c'q\"d .xray" 'd;touch PWNED3.xray'; do
		cp "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray" "corpus/valid/$name"
	done
	cat > log_reader <<'EOF2'
#!/bin/sh
printf '%s|%s\n' "$#" "$1" >> "$LOG"
exit 0
EOF2
	chmod +x log_reader
	export LOG="$PWD/log"
	for cmd in './log_reader {}' './log_reader "{}"' "./log_reader '{}'" './log_reader'; do
		: > log
		atf_check -s exit:0 -o ignore "$KIT" --format=xray --reader="$cmd" corpus
		[ "$(wc -l < log)" = 4 ] || atf_fail "$cmd: $(cat log)"
		grep -q 'corpus/valid/a$(touch PWNED).xray$' log || atf_fail "$cmd: $(cat log)"
		grep -q "corpus/valid/c'q\"d .xray\$" log || atf_fail "$cmd: $(cat log)"
		# One argument each, the whole name.
		[ "$(cut -d'|' -f1 log | sort -u)" = 1 ] || atf_fail "$cmd split a name: $(cat log)"
	done
	for f in PWNED PWNED2 PWNED3; do
		[ ! -e "$f" ] && [ ! -e "corpus/valid/$f" ] || atf_fail "a file name was run as a command ($f)"
	done
}

atf_test_case timeout_ends_the_session
timeout_ends_the_session_head() {
	atf_set descr "a reader's child in a session of its own (setsid) is killed at the timeout"
	atf_set timeout 120
}
timeout_ends_the_session_body() {
	which setsid > /dev/null || atf_skip "no setsid"
	mkdir -p corpus/valid
	cp "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray" corpus/valid/
	cat > hang_reader <<EOF2
#!/bin/sh
setsid sh -c 'echo \$\$ > $PWD/escaped.pid; sh -c "echo \\\$\\\$ > $PWD/grandchild.pid; exec sleep 300" & exec sleep 300' &
sleep 300
EOF2
	chmod +x hang_reader
	"$KIT" --format=xray --reader='./hang_reader {}' --timeout=1 corpus > report.md
	atf_check_equal "$?" 1
	grep -q hang report.md || atf_fail "no hang reported: $(cat report.md)"
	[ -s escaped.pid ] || atf_fail "the reader's child never started"
	[ -s grandchild.pid ] || atf_fail "the reader's grandchild never started"
	sleep 1
	for pid in $(cat escaped.pid grandchild.pid); do
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid"
			atf_fail "process $pid the reader started (in its own session) outlived the timeout"
		fi
	done
}

atf_test_case merge_is_linear
merge_is_linear_head() { atf_set descr "merging shards with 50,000 groups each takes a moment"; atf_set timeout 300; }
merge_is_linear_body() {
	make_shards
	for k in 1 2; do
		awk -F'\t' -v OFS='\t' -v k=$k '
			$1 == "end" { for (i = 0; i < 50000; i++) print "group", "strict", 100000 + 2 * i + k, 1, 0, "key " k " " i }
			{ print }' s$k.txt > big$k.txt
	done
	start=$(date +%s%N)
	"$KIT" --merge --out=out --output=json --report=big.json big1.txt big2.txt
	[ $? -le 1 ] || atf_fail "merge failed"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	atf_check -o match:'^1000[0-9][0-9]$' jq '.campaign.groups | length' big.json
	# ~0.5 s under the sanitizers; it took 8.5 s optimised when quadratic.
	[ "$ms" -lt 10000 ] || atf_fail "merging 100,000 groups took $ms ms"
}

atf_init_test_cases() {
	atf_add_test_case merge_deletes_only_its_own
	atf_add_test_case symlinked_mutant_not_followed
	atf_add_test_case braces_in_any_quoting
	atf_add_test_case timeout_ends_the_session
	atf_add_test_case merge_is_linear
}
