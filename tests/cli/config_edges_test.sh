#! /usr/bin/env atf-sh
# Config files at their edges: what stops discovery, a config found again
# from another directory, a path template that expands past 4 KiB, werror
# and threads in a [path] section, a named config whose directory is a
# prefix of the validated one, and reading errors: the first by line wins,
# an empty last value, a [path "GLOB] left open and the longest line.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# bad.xray has one XRAY-FDR-METADATA-KIND error.
BAD="$C/xray/invalid/metadata-kind.xray"

atf_test_case repository_root_markers
repository_root_markers_head() { atf_set "descr" "a .git file (a worktree) ends discovery like a .git directory; a .git FIFO does not"; }
repository_root_markers_body() {
	mkdir -p top/repo/a
	cp "$BAD" top/repo/a/bad.xray
	printf '[tracelint]\nignore = XRAY-FDR-METADATA-KIND\n' > top/.tracelint.ini
	echo 'gitdir: /elsewhere/.git/worktrees/repo' > top/repo/.git
	atf_check -s exit:1 -o match:'error: .*\[XRAY-FDR-METADATA-KIND\]' "$TL" top/repo/a/bad.xray
	rm top/repo/.git
	mkfifo top/repo/.git
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" top/repo/a/bad.xray
}

atf_test_case config_found_again
config_found_again_head() { atf_set "descr" "a config read for one directory applies unchanged to another found below it, among several configs"; }
config_found_again_body() {
	mkdir -p r/.git r/a r/b/sub
	for d in a b b/sub; do cp "$BAD" r/$d/bad.xray; done
	printf '[tracelint]\nwarning = XRAY-FDR-METADATA-KIND\n' > r/a/.tracelint.ini
	printf '[tracelint]\nnote = XRAY-FDR-METADATA-KIND\n' > r/b/.tracelint.ini
	atf_check -s exit:0 -o save:out -e ignore "$TL" -j 1 r/a/bad.xray r/b/bad.xray r/b/sub/bad.xray
	atf_check -o match:'^r/a/bad.xray:offset 112 \(record 5\): warning:' \
		-o match:'^r/b/bad.xray:offset 112 \(record 5\): note:' \
		-o match:'^r/b/sub/bad.xray:offset 112 \(record 5\): note:' cat out
}

atf_test_case long_path_template
long_path_template_head() { atf_set "descr" "{dir} expansions past 4 KiB are cut and fail to open"; }
long_path_template_body() {
	# 36 times a 142-character directory: over 5 KiB, cut to the longest path
	d=$(printf 'd%.0s' $(seq 140))
	mkdir -p r/.git r/$d
	cp "$C/dcfg-trace/invalid/pair_instr_count.trace.json" r/$d/
	printf '[tracelint]\npair = %s\n' "$(printf '{dir}%.0s' $(seq 36))" > r/.tracelint.ini
	atf_check -s exit:2 -o match:"^r/$d/pair_instr_count.trace.json: error: --pair=r/${d}r/${d}r/$d" \
		"$TL" r/$d/pair_instr_count.trace.json
}

atf_test_case path_section_verdict_keys
path_section_verdict_keys_head() { atf_set "descr" "werror and threads in a [path] section apply to the files it matches only"; }
path_section_verdict_keys_body() {
	mkdir -p r/.git
	cp "$BAD" r/bad.xray
	cp "$BAD" r/bad.bin
	printf '[tracelint]\nwarning = XRAY-FDR-METADATA-KIND\n' > r/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid \(xray: 0 errors, 1 warning' "$TL" r/bad.xray
	printf '[path "*.xray"]\nwerror = true\nthreads = 2\n' >> r/.tracelint.ini
	atf_check -s exit:1 -o save:x.out "$TL" r/bad.xray
	atf_check -o match:'^r/bad.xray: invalid \(xray: 0 errors, 1 warning' cat x.out
	atf_check -s exit:0 -o match:'^r/bad.bin: valid \(xray: 0 errors, 1 warning' "$TL" r/bad.bin
	# threads changes the work, not the report
	atf_check -s exit:1 -o file:x.out "$TL" --threads 1 r/bad.xray
}

atf_test_case named_config_prefix_directory
named_config_prefix_directory_head() { atf_set "descr" "a named config in r/a does not apply its [path] sections to r/ab, whose name only starts the same"; }
named_config_prefix_directory_body() {
	mkdir -p r/a r/ab
	cp "$BAD" r/ab/bad.xray
	cp "$BAD" r/a/bad.xray
	printf '[path "**"]\nignore = XRAY-FDR-METADATA-KIND\n' > r/a/c.ini
	atf_check -s exit:1 -o match:'r/ab/bad.xray: invalid' "$TL" --config r/a/c.ini r/ab/bad.xray
	atf_check -s exit:0 -o match:'r/a/bad.xray: valid' "$TL" --config r/a/c.ini r/a/bad.xray
}

atf_test_case reading_edges
reading_edges_head() { atf_set "descr" "the earliest error by line is reported; an empty last value, a [path \"GLOB] left open, the longest line taken and a long last line without a break"; }
reading_edges_body() {
	cp "$BAD" v.xray
	# inih's syntax error on line 1 comes before the unknown section of line 2
	printf 'garbage\n[bogus]\nk = v\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:1:1: expected \[SECTION\], KEY = VALUE, or a comment' "$TL" --config c.ini v.xray
	# no line break after the '=': an empty value
	printf '[tracelint]\nmax-errors =' > c.ini
	atf_check -s exit:2 -o empty -e match:"c.ini:2:13: max-errors: expected a whole number, found ''" \
		"$TL" --config c.ini v.xray
	# a glob opened but not closed: reported on its own line, at the name
	printf '[path "abc]\nwerror = true\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:1:2: expected a section \[tracelint\] or \[path "GLOB"\], found \[path "abc\]' \
		"$TL" --config c.ini v.xray
	# a wrong section name: its line and column, not those of its first key
	printf '[tracelint]\nwerror = true\n\n; keys below\n[bogus]  \nk = v\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:5:2: expected a section \[tracelint\] or \[path "GLOB"\], found \[bogus\]' \
		"$TL" --config c.ini v.xray
	# ... and even with no key after it
	printf '[tracelint]\nwerror = true\n[nokeys]\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:3:2: expected a section .*, found \[nokeys\]' "$TL" --config c.ini v.xray
	# an indented line after a key continues that key's value (inih): not a section
	printf '[tracelint]\nwerror = true\n  [bogus]\n' > c.ini
	atf_check -s exit:2 -o empty -e match:"c.ini:3:3: werror: unknown value '\\[bogus\\]'" "$TL" --config c.ini v.xray
	# inih's own syntax error on an earlier line comes first
	printf 'garbage\n[bogus]\n' > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini:1:1: expected \[SECTION\], KEY = VALUE' "$TL" --config c.ini v.xray
	# comments after a section name are not part of it
	printf '[tracelint] ; team settings\nwerror = true\n[path "*.xray"] # ours\nwerror = false\n' > c.ini
	atf_check -s exit:1 -o match:'v.xray: invalid' -e empty "$TL" --config c.ini v.xray
	# 198 characters and the line break fill the reader's buffer exactly: taken
	{ printf '[tracelint]\nignore = xray\n'; printf '; %0196d\n' 0; } > c.ini
	atf_check -o inline:"198\n" awk 'NR == 3 { print length }' c.ini
	atf_check -s exit:0 -o match:'v.xray: valid' "$TL" --config c.ini v.xray
	# one more is too long, with or without a line break after it
	{ printf '[tracelint]\nignore = xray\n'; printf '; %0197d\n' 0; } > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini: expected lines of at most 198 characters' "$TL" --config c.ini v.xray
	{ printf '[tracelint]\nignore = xray\n'; printf '; %0400d' 0; } > c.ini
	atf_check -s exit:2 -o empty -e match:'c.ini: expected lines of at most 198 characters' "$TL" --config c.ini v.xray
}

atf_init_test_cases() {
	atf_add_test_case repository_root_markers
	atf_add_test_case config_found_again
	atf_add_test_case long_path_template
	atf_add_test_case path_section_verdict_keys
	atf_add_test_case named_config_prefix_directory
	atf_add_test_case reading_edges
}
