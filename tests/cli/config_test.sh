#! /usr/bin/env atf-sh
# Config files: .tracelint.ini found from the file's directory upward, up to
# the repository root; --config and --no-config; [path "GLOB"] sections;
# the command line over the config over the defaults; malformed configs
# are usage errors that say where.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# bad.xray has one XRAY-FDR-METADATA-KIND error; order.xray two
# XRAY-FDR-CALL-ARGUMENT-ORDER errors.
make_repo() {
	mkdir -p repo/.git repo/traces/sub/deep
	cp "$C/xray/invalid/metadata-kind.xray" repo/traces/sub/deep/bad.xray
	cp "$C/xray/invalid/call-argument-order.xray" repo/traces/order.xray
}

atf_test_case found_upward
found_upward_head() { atf_set "descr" "the .tracelint.ini of an enclosing directory applies, from any working directory"; }
found_upward_body() {
	make_repo
	printf '[tracelint]\nignore = XRAY-FDR-METADATA-KIND\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" repo/traces/sub/deep/bad.xray
	cd repo/traces/sub/deep
	atf_check -s exit:0 -o inline:"bad.xray: valid (xray: 0 errors, 0 warnings; FDR version 5, little-endian (detected))\n" "$TL" bad.xray
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' "$TL" --no-config bad.xray
}

atf_test_case nearest_wins
nearest_wins_head() { atf_set "descr" "the nearest config is the one that applies"; }
nearest_wins_body() {
	make_repo
	printf '[tracelint]\nignore = XRAY-FDR-METADATA-KIND\n' > repo/.tracelint.ini
	printf '[tracelint]\nwarning = XRAY-FDR-METADATA-KIND\n' > repo/traces/sub/.tracelint.ini
	atf_check -s exit:0 -o match:'deep/bad.xray:offset 112 \(record 5\): warning: .*\[XRAY-FDR-METADATA-KIND\]' \
		"$TL" repo/traces/sub/deep/bad.xray
}

atf_test_case stops_at_repository_root
stops_at_repository_root_head() { atf_set "descr" "a config above the directory holding .git is not read"; }
stops_at_repository_root_body() {
	make_repo
	printf '[tracelint]\nignore = xray\n' > .tracelint.ini
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' "$TL" repo/traces/sub/deep/bad.xray
	rmdir repo/.git
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" repo/traces/sub/deep/bad.xray
}

atf_test_case path_sections
path_sections_head() { atf_set "descr" "[path GLOB] sections apply to matching files only, after [tracelint]"; }
path_sections_body() {
	make_repo
	cat > repo/.tracelint.ini <<'INI'
[path "traces/**/deep/*.xray"]
warning = XRAY-FDR-METADATA-KIND
[tracelint]
error = XRAY-FDR-METADATA-KIND
ignore = XRAY-FDR-CALL-ARGUMENT-ORDER
[path "order.xray"]
default = XRAY-FDR-CALL-ARGUMENT-ORDER
INI
	atf_check -s exit:1 -o save:out -e ignore "$TL" repo/traces/sub/deep/bad.xray repo/traces/order.xray
	atf_check -o match:'bad.xray: valid \(xray: 0 errors, 1 warning' cat out
	atf_check -o match:'order.xray: invalid \(xray: 2 errors' cat out
}

atf_test_case command_line_wins
command_line_wins_head() { atf_set "descr" "command line over config over defaults, for rules and format options"; }
command_line_wins_body() {
	make_repo
	printf '[tracelint]\nwarning = XRAY-FDR-METADATA-KIND\nmax-errors = 1\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'warning' "$TL" repo/traces/sub/deep/bad.xray
	atf_check -s exit:1 -o match:': error: .*XRAY-FDR-METADATA-KIND' "$TL" --error XRAY-FDR-METADATA-KIND repo/traces/sub/deep/bad.xray
	atf_check -s exit:1 -o match:'bad.xray: invalid' "$TL" -W repo/traces/sub/deep/bad.xray
	# max-errors = 1 from the config; --max-errors on the command line wins
	atf_check -s exit:1 -o save:one "$TL" repo/traces/order.xray
	atf_check -o inline:"1\n" grep -c 'CALL-ARGUMENT-ORDER\]' one
	atf_check -s exit:1 -o save:two "$TL" --max-errors 0 repo/traces/order.xray
	atf_check -o inline:"2\n" grep -c 'CALL-ARGUMENT-ORDER\]' two
	# a --select on the command line replaces the config's selection
	printf '[tracelint]\nselect = tfile\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'valid' "$TL" repo/traces/order.xray
	atf_check -s exit:1 -o match:'CALL-ARGUMENT-ORDER' "$TL" --select xray repo/traces/order.xray
}

atf_test_case named_config
named_config_head() { atf_set "descr" "--config FILE is used for every path, its globs relative to its own directory"; }
named_config_body() {
	make_repo
	mkdir conf
	printf '[path "../repo/traces/order.xray"]\nignore = xray\n[tracelint]\nignore = XRAY-FDR-METADATA-KIND\n' > conf/team.ini
	printf '[tracelint]\nerror = xray\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" --config conf/team.ini repo/traces/sub/deep/bad.xray
	atf_check -s exit:2 -e match:'exclude each other' "$TL" --config conf/team.ini --no-config repo/traces/order.xray
	atf_check -s exit:2 -e match:'cannot read the config nothere.ini' "$TL" --config nothere.ini repo/traces/order.xray
}

atf_test_case format_options_by_pattern
format_options_by_pattern_head() { atf_set "descr" "endian and pair by pattern, with {dir} {name} {stem} or an absolute path"; }
format_options_by_pattern_body() {
	mkdir -p repo/.git repo/traces repo/cfg
	cp "$C/dcfg-trace/invalid/pair_instr_count.trace.json" repo/traces/
	cp "$C/dcfg/valid/hello.dcfg.json" repo/cfg/pair_instr_count.dcfg.json
	atf_check -s exit:0 -o ignore "$TL" repo/traces/pair_instr_count.trace.json
	printf '[path "traces/*.trace.json"]\npair = cfg/{stem}.dcfg.json\n' > repo/.tracelint.ini
	atf_check -s exit:1 -o match:'PAIR-INSTR-COUNT' "$TL" repo/traces/pair_instr_count.trace.json
	cp repo/cfg/pair_instr_count.dcfg.json repo/traces/
	printf '[path "traces/*.trace.json"]\npair = {dir}/{stem}.dcfg.json\n' > repo/.tracelint.ini
	atf_check -s exit:1 -o match:'PAIR-INSTR-COUNT' "$TL" repo/traces/pair_instr_count.trace.json
	# an absolute template is used as written
	printf '[path "traces/*.trace.json"]\npair = %s/repo/cfg/{stem}.dcfg.json\n' "$PWD" > repo/.tracelint.ini
	atf_check -s exit:1 -o match:"paired with $PWD/repo/cfg/pair_instr_count.dcfg.json\\)" \
		"$TL" repo/traces/pair_instr_count.trace.json
	# endian: a tfile whose byte order is guessed takes it from the config
	cp "$C/tfile/invalid/endian-guessed.tf" repo/traces/
	atf_check -s ignore -o save:guessed "$TL" repo/traces/endian-guessed.tf
	atf_check -o match:'little-endian' cat guessed
	printf '[path "*.tf"]\nendian = big\n' > repo/.tracelint.ini
	atf_check -s ignore -o match:'big-endian' "$TL" repo/traces/endian-guessed.tf
	atf_check -s ignore -o match:'little-endian' "$TL" --endian little repo/traces/endian-guessed.tf
}

atf_test_case excludes_and_unknown_formats
excludes_and_unknown_formats_head() { atf_set "descr" "exclude= drops walked files; unknown-format= makes unknown files errors"; }
excludes_and_unknown_formats_body() {
	make_repo
	mkdir -p repo/build
	cp "$C/xray/invalid/metadata-kind.xray" repo/build/generated.xray
	echo '# notes' > repo/README.md
	printf '[tracelint]\nexclude = build/, sub/\n' > repo/.tracelint.ini
	atf_check -s exit:1 -o save:out -e save:err "$TL" -q repo
	atf_check -o inline:"repo/traces/order.xray: invalid\n" sed 's/ (.*//' out
	atf_check -o match:'3 files: 0 valid, 1 invalid, 0 unreadable, 2 skipped' cat err
	# named on the command line, an excluded file is still validated
	atf_check -s exit:1 -o match:'generated.xray: invalid' "$TL" -q repo/build/generated.xray
	printf '[tracelint]\nunknown-format = error\n' > repo/.tracelint.ini
	atf_check -s exit:2 -o match:'README.md: error: format not recognised' -e ignore "$TL" -q repo
	atf_check -s exit:1 -o ignore -e match:'skipped' "$TL" -q --unknown-format skip repo
}

atf_test_case malformed_configs
malformed_configs_head() { atf_set "descr" "a malformed config is a usage error naming its line and column"; }
malformed_configs_body() {
	make_repo
	f=repo/traces/order.xray
	printf '[tracelint]\nignore = XRAY-FDR-NOPE\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:2:10: ignore: 'XRAY-FDR-NOPE' matches no rule" "$TL" $f
	printf '[tracelint]\n  [oops\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:2:8: expected ']'" "$TL" $f
	printf '[tracelint]\nno value here\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:2:1: expected \[SECTION\], KEY = VALUE" "$TL" $f
	printf '[tracelint]\nwerror = true\ncolour = red\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:3:1: unknown key 'colour'" "$TL" $f
	printf '[tracelint]\nendian = middle\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:2:10: endian: unknown value 'middle'" "$TL" $f
	printf 'ignore = xray\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"\.tracelint\.ini:1:1: expected 'ignore' inside a section" "$TL" $f
	printf '[paths "*.xray"]\nignore = xray\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"expected a section \[tracelint\] or \[path" "$TL" $f
	printf '[path "*.xray"]\nexclude = x\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"unknown key 'exclude' in a \[path\] section" "$TL" $f
	# nothing was validated: no report on standard output
	atf_check -s exit:2 -o empty -e ignore "$TL" -o sarif $f
}

atf_init_test_cases() {
	atf_add_test_case found_upward
	atf_add_test_case nearest_wins
	atf_add_test_case stops_at_repository_root
	atf_add_test_case path_sections
	atf_add_test_case command_line_wins
	atf_add_test_case named_config
	atf_add_test_case format_options_by_pattern
	atf_add_test_case excludes_and_unknown_formats
	atf_add_test_case malformed_configs
}
