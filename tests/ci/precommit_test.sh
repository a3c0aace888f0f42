#! /usr/bin/env atf-sh
# The README's pre-commit example from zero: with no tracelint on PATH, the
# configuration as written (its repo pointed at a fresh repository of the
# current sources, its rev at that repository's commit) installs, builds
# tracelint on the first commit and gates the next ones; the `system` hook
# says it needs tracelint on PATH. The README's rev exists and defines the
# hook it names.

SRCDIR='@SRCDIR@'

# A HOME, a git identity and a PATH without tracelint.
from_zero() {
	export HOME="$PWD/home" GIT_CONFIG_NOSYSTEM=1 PRE_COMMIT_HOME="$PWD/cache"
	mkdir -p "$HOME"
	git config --global user.name tracelint-test
	git config --global user.email test@example.invalid
	git config --global init.defaultBranch main
	git config --global protocol.file.allow always
	PATH=$(echo "$PATH" | tr : '\n' | while read -r d; do [ -x "$d/tracelint" ] || printf '%s:' "$d"; done)
	export PATH=${PATH%:}
	! command -v tracelint > /dev/null || atf_fail "tracelint still on PATH"
}

# The yaml block of the README's pre-commit section.
readme_config() {
	awk '/^## As a pre-commit gate$/ { f = 1; next } /^## / { f = 0 }
		f && /^```yaml$/ { b = 1; next } f && b && /^```$/ { exit } f && b' "$SRCDIR/README.md"
}

atf_test_case readme_rev_exists
readme_rev_exists_head() {
	atf_set descr "the README's rev: is a commit of this repository whose hooks file has the hook it names"
	atf_set require.progs "git"
}
readme_rev_exists_body() {
	readme_config > config.yaml
	rev=$(sed -n 's/^ *rev: *\([^ #]*\).*/\1/p' config.yaml)
	id=$(sed -n 's/^ *- id: *\([^ #]*\).*/\1/p' config.yaml | head -n 1)
	[ -n "$rev" ] && [ -n "$id" ] || atf_fail "no rev or hook id in the README's example"
	git -C "$SRCDIR" rev-parse --git-dir > /dev/null 2>&1 || atf_skip "the sources are not a git checkout"
	git -C "$SRCDIR" cat-file -e "$rev^{commit}" 2>/dev/null || atf_fail "rev $rev is not a commit of this repository"
	git -C "$SRCDIR" show "$rev:.pre-commit-hooks.yaml" > hooks.yaml || atf_fail "no .pre-commit-hooks.yaml at $rev"
	atf_check -o match:"^- id: $id\$" cat hooks.yaml
}

atf_test_case from_zero
from_zero_head() {
	atf_set descr "README's pre-commit example with no tracelint on PATH: builds on first use, passes good traces, fails bad ones"
	atf_set require.progs "pre-commit git make gcc"
	atf_set timeout 600
}
from_zero_body() {
	from_zero
	# The hook repository: a fresh repository of the current sources.
	mkdir hooks
	(cd "$SRCDIR" && tar -cf - --exclude=./build --exclude=./.git .) | (cd hooks && tar -xf -)
	(cd hooks && git init -q && git add -A && git commit -q -m sources) || atf_fail "hook repository"
	rev=$(git -C hooks rev-parse HEAD)
	mkdir project && cd project || atf_fail "no project"
	git init -q
	readme_config | sed -e "s|^\( *- repo:\).*|\1 $PWD/../hooks|" -e "s|^\( *rev:\).*|\1 $rev|" > .pre-commit-config.yaml
	atf_check -o match:'id: tracelint-from-source' cat .pre-commit-config.yaml
	atf_check -o ignore pre-commit install
	mkdir traces
	cp "$SRCDIR/corpus/xray/valid/real-fdr-v5.xray" traces/good.xray
	echo '# project' > README.md
	git add -A
	atf_check -o ignore -e save:ok.out git commit -m 'a trace'
	atf_check -o match:'tracelint \(built from source\)\.*Passed' cat ok.out
	! command -v tracelint > /dev/null || atf_fail "the hook put tracelint on PATH"
	cp "$SRCDIR/corpus/xray/invalid/metadata-kind.xray" traces/bad.xray
	git add traces/bad.xray
	atf_check -s exit:1 -o ignore -e save:bad.out git commit -m 'a bad trace'
	atf_check -o match:'tracelint \(built from source\)\.*Failed' cat bad.out
	atf_check -o match:'traces/bad.xray:offset 112 \(record 5\): error: .*\[XRAY-FDR-METADATA-KIND\]' cat bad.out

	# The `system` hook without tracelint on PATH: pre-commit names the executable.
	sed -i 's|id: tracelint-from-source|id: tracelint|' .pre-commit-config.yaml
	git add .pre-commit-config.yaml
	atf_check -s exit:1 -o ignore -e save:system.out git commit -m 'a bad trace'
	atf_check -o match:'Executable `tracelint` not found' cat system.out
}

atf_init_test_cases() {
	atf_add_test_case readme_rev_exists
	atf_add_test_case from_zero
}
