#! /usr/bin/env atf-sh
# tracelint-conform --merge reading shard files it did not write: every
# malformed field, an extra field, a record after "end", a missing record,
# shards of different campaigns, no shard 1. Each is exit 2 naming the file
# (and the line, for a record), never a report; the options --merge takes
# (--explain, --list, --output) apply to the merged report.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
KIT="$BUILDDIR/tracelint-conform"

# Two shards of a small campaign over one valid and one invalid XRay case,
# with a reader whose verdict depends on the bytes only: crashes, rejections
# and acceptances, so the shard files have rows, groups and finds.
make_shards() {
	mkdir -p corpus/valid corpus/invalid
	cp "$SRCDIR/corpus/xray/valid/gen-fdr-v3-le.xray" corpus/valid/
	cp "$SRCDIR/corpus/xray/invalid/header-version.xray" "$SRCDIR/corpus/xray/invalid/header-version.xray.expected" \
		corpus/invalid/
	cat > reader <<'EOF'
#!/bin/sh
s=$(cksum < "$1" | cut -d' ' -f1)
case $((s % 3)) in
0) kill -SEGV $$ ;;
1) echo "bad at $((s % 100))" >&2; exit 1 ;;
esac
exit 0
EOF
	chmod +x reader
	for k in 1 2; do
		"$KIT" --format=xray --reader='./reader {}' --mutate=12 --seed=3 --keep=1 --minimize-budget=4 \
			--out=out --shard=$k/2 --report=s$k.txt corpus
		[ $? -eq 1 ] || atf_fail "shard $k did not run"
	done
	for tag in row campaign counts group find; do
		grep -q "^$tag	" s1.txt || atf_fail "shard 1 has no $tag record"
	done
}

# set_field FILE LINE FIELD VALUE > OUT: FILE with field FIELD (1-based,
# the tag is 1) of line LINE replaced.
set_field() {
	awk -F'\t' -v OFS='\t' -v l="$2" -v f="$3" -v v="$4" 'NR == l { $f = v } { print }' "$1"
}

# The fields of each record that must parse (numbers, class, outcome and
# kind names), as awk field numbers.
strict_fields() {
	case $1 in
	shard) echo 2 3 4 ;;
	row) echo 3 6 7 8 12 ;;
	campaign) echo 2 3 4 5 9 10 11 ;;
	counts) echo 2 3 4 5 6 ;;
	group) echo 2 3 4 5 ;;
	find) echo 2 3 4 8 9 10 11 ;;
	esac
}

atf_test_case malformed_fields
malformed_fields_head() {
	atf_set descr "a malformed number or name in any field of any record is refused with the file and the line"
	atf_set timeout 300
}
malformed_fields_body() {
	make_shards
	atf_check -s exit:1 -o ignore "$KIT" --merge --out=out s1.txt s2.txt
	lines=$(wc -l < s1.txt)
	l=2
	tried=0
	while [ "$l" -lt "$lines" ]; do
		tag=$(sed -n "${l}p" s1.txt | cut -f1)
		for f in $(strict_fields "$tag"); do
			for v in x -1 '' 4294967296 99999999999999999999 7x; do
				# A code (the field after an outcome) is any integer: only x, '' and 7x are bad.
				# An intent may be empty (a case that states none).
				case "$tag:$f:$v" in row:12:) continue ;; esac
				case "$tag:$f:$v" in row:8:-1 | row:8:4294967296 | row:8:99999999999999999999 | \
					find:9:-1 | find:9:4294967296 | find:9:99999999999999999999) continue ;;
				esac
				# A seed and the sizes are 64 bits wide; the time is a number of seconds.
				case "$tag:$f:$v" in campaign:2:4294967296 | find:1[01]:4294967296 | \
					campaign:11:4294967296 | campaign:11:99999999999999999999) continue ;;
				esac
				set_field s1.txt "$l" "$f" "$v" > bad.txt
				atf_check -s exit:2 -o empty -e match:"bad.txt:$l: unreadable shard record" \
					"$KIT" --merge --out=out bad.txt s2.txt
				tried=$((tried + 1))
			done
		done
		# One field too many.
		awk -v l="$l" 'NR == l { $0 = $0 "\tx" } { print }' s1.txt > bad.txt
		atf_check -s exit:2 -o empty -e match:"bad.txt:$l: unreadable shard record" "$KIT" --merge --out=out bad.txt s2.txt
		l=$((l + 1))
	done
	[ "$tried" -gt 50 ] || atf_fail "only $tried malformed fields tried"
	# An unknown record, and a record after the end.
	{ cat s1.txt; printf 'row\tmore\n'; } > bad.txt
	atf_check -s exit:2 -e match:"bad.txt:$((lines + 1)): unreadable shard record" "$KIT" --merge --out=out bad.txt s2.txt
	sed 's/^counts/tallies/' s1.txt > bad.txt
	atf_check -s exit:2 -e match:'bad.txt:[0-9]*: unreadable shard record' "$KIT" --merge --out=out bad.txt s2.txt
}

atf_test_case missing_records
missing_records_head() { atf_set descr "a shard file without one of its required records is incomplete"; }
missing_records_body() {
	make_shards
	for tag in shard format reader accept_rc timeout corpus campaign end; do
		grep -v "^$tag\(	\|\$\)" s1.txt > cut.txt
		atf_check -s exit:2 -o empty -e match:'cut.txt: incomplete shard file' "$KIT" --merge --out=out cut.txt s2.txt
	done
	# The last line without its line break still counts.
	printf '%s' "$(cat s1.txt)" > nonl.txt
	atf_check -s exit:1 -o ignore "$KIT" --merge --out=out nonl.txt s2.txt
}

atf_test_case other_campaign
other_campaign_head() { atf_set descr "shards that differ in any setting of the campaign are not merged"; }
other_campaign_body() {
	make_shards
	# tag, field, a value no shard has
	while read -r tag f v; do
		l=$(grep -n "^$tag	" s2.txt | head -1 | cut -d: -f1)
		set_field s2.txt "$l" "$f" "$v" > other.txt
		atf_check -s exit:2 -o empty -e match:'not shards of the same campaign' "$KIT" --merge --out=out s1.txt other.txt
	done <<'LIST'
shard 4 9
format 2 tfile
reader 2 other
accept_rc 2 0,3
timeout 2 5
corpus 2 elsewhere
campaign 2 99
campaign 3 999
campaign 5 7
campaign 6 another-mutator
campaign 8 no-oracle
LIST
	# Shards 2 and 3 of two: no shard 1.
	set_field s1.txt 2 2 3 > three.txt
	atf_check -s exit:2 -e match:'shard 1 is missing' "$KIT" --merge --out=out three.txt s2.txt
	# A list of exit statuses that does not parse.
	for v in x 1,,2 256 '1;2' 1,x; do
		set_field s1.txt 5 2 "$v" > a1.txt
		set_field s2.txt 5 2 "$v" > a2.txt
		atf_check -s exit:2 -e match:'bad accept_rc record' "$KIT" --merge --out=out a1.txt a2.txt
	done
}

atf_test_case merge_options
merge_options_head() { atf_set descr "--merge takes the report options and refuses the campaign ones"; }
merge_options_body() {
	make_shards
	printf 'strict:* the reader is stricter on purpose\n' > why.txt
	atf_check -s exit:1 -o save:all.json "$KIT" --merge --out=out --output=json --list=all --explain=why.txt s2.txt s1.txt
	atf_check -o match:'the reader is stricter on purpose' cat all.json
	atf_check_equal "$(jq '.results | length' all.json)" 2
	atf_check -s exit:1 -o save:all.md "$KIT" --merge --out=out --list=all --explain=why.txt s1.txt s2.txt
	atf_check -o match:'^[|] invalid/header-version.xray [|] agree ' cat all.md
	atf_check -s exit:2 -e match:'missing.txt' "$KIT" --merge --out=out --explain=missing.txt s1.txt s2.txt
	atf_check -s exit:2 -e match:'/nonexistent' "$KIT" --merge --out=out --explain=why.txt s1.txt /nonexistent
	atf_check -s exit:2 -e match:'no-such-dir/r.md' "$KIT" --merge --out=out --report=no-such-dir/r.md s1.txt s2.txt
	for opt in --mutate=4 --shard=1/2 --format=xray --reader=true; do
		atf_check -s exit:2 -e match:'--merge takes only shard files' "$KIT" --merge --out=out "$opt" s1.txt s2.txt
	done
}

atf_init_test_cases() {
	atf_add_test_case malformed_fields
	atf_add_test_case missing_records
	atf_add_test_case other_campaign
	atf_add_test_case merge_options
}
