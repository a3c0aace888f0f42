#! /usr/bin/env atf-sh
# The config keys of the gate's limits: max-memory (as --max-memory, in
# [tracelint] and [path] sections, the command line winning) and
# force-exclude (as --force-exclude, in [tracelint] only).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# keys.dcfg.json: a DCFG of 2x10^5 distinct unknown keys, whose reader
# keeps about 18 MB (nodes and open keys): over 4M, under 64M
make_keys() {
	python3 -c '
import sys
w = sys.stdout.buffer.write
w(b"{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0")
w(b"".join(b",\"k%d\":0" % i for i in range(200000)))
w(b"}")' > repo/keys.dcfg.json
}

atf_test_case max_memory_key
max_memory_key_head() {
	atf_set "descr" "max-memory in [tracelint] and in a [path] section bounds the JSON reader as --max-memory does; the command line wins; a bad size names its line and column"
	atf_set "require.progs" "python3"
}
max_memory_key_body() {
	mkdir -p repo/.git
	make_keys
	printf '[tracelint]\nmax-memory = 4M\n' > repo/.tracelint.ini
	atf_check -s exit:2 -o match:'within 4194304 bytes of reader memory \(--max-memory\).*\[TL-RESOURCE-LIMIT\]' \
		"$TL" repo/keys.dcfg.json
	atf_check -s exit:0 -o match:'keys.dcfg.json: valid' "$TL" --max-memory=64M repo/keys.dcfg.json
	atf_check -s exit:0 -o match:'keys.dcfg.json: valid' "$TL" --max-memory=0 repo/keys.dcfg.json
	printf '[tracelint]\nmax-memory = 0\n[path "*.dcfg.json"]\nmax-memory = 4M\n' > repo/.tracelint.ini
	atf_check -s exit:2 -o match:'TL-RESOURCE-LIMIT' "$TL" repo/keys.dcfg.json
	printf '[tracelint]\nmax-memory = 4M\n[path "other/*"]\nmax-memory = 0\n' > repo/.tracelint.ini
	atf_check -s exit:2 -o match:'TL-RESOURCE-LIMIT' "$TL" repo/keys.dcfg.json
	printf '[tracelint]\nmax-memory = 64M\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'keys.dcfg.json: valid' "$TL" repo/keys.dcfg.json
	printf '[tracelint]\nmax-memory = lots\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:'\.tracelint\.ini:2:14: max-memory: expected a size such as 512M or 8G \(0: no limit\), found .lots.' \
		"$TL" repo/keys.dcfg.json
}

atf_test_case force_exclude_key
force_exclude_key_head() { atf_set "descr" "force-exclude = true makes exclude drop named paths as --force-exclude does; false or absent leaves them; only in [tracelint], only true or false"; }
force_exclude_key_body() {
	mkdir -p repo/.git repo/gen
	cp "$C/xray/invalid/metadata-kind.xray" repo/gen/bad.xray
	cp "$C/xray/invalid/metadata-kind.xray" repo/bad.xray
	printf '[tracelint]\nexclude = gen/*\nforce-exclude = true\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o not-match:'gen/bad.xray' -e ignore "$TL" repo/gen/bad.xray
	atf_check -s exit:1 -o match:'repo/bad.xray: invalid' -o not-match:'gen/bad.xray' -e ignore \
		"$TL" repo/gen/bad.xray repo/bad.xray
	printf '[tracelint]\nexclude = gen/*\nforce-exclude = false\n' > repo/.tracelint.ini
	atf_check -s exit:1 -o match:'gen/bad.xray: invalid' "$TL" repo/gen/bad.xray
	atf_check -s exit:0 -o not-match:'gen/bad.xray' -e ignore "$TL" --force-exclude repo/gen/bad.xray
	printf '[tracelint]\nexclude = gen/*\n' > repo/.tracelint.ini
	atf_check -s exit:1 -o match:'gen/bad.xray: invalid' "$TL" repo/gen/bad.xray
	printf '[tracelint]\nforce-exclude = maybe\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:'\.tracelint\.ini:2:17: force-exclude: unknown value .maybe.' "$TL" repo/bad.xray
	printf '[path "gen/*"]\nforce-exclude = true\n' > repo/.tracelint.ini
	atf_check -s exit:2 -e match:"unknown key 'force-exclude' in a \\[path\\] section" "$TL" repo/bad.xray
}

atf_init_test_cases() {
	atf_add_test_case max_memory_key
	atf_add_test_case force_exclude_key
}
