#! /usr/bin/env atf-sh
# The README's fuzzing commands, as written, in a fresh repository made of the
# current sources: each runs for a few seconds (durations shortened to 3 s),
# then `git status --porcelain` must be empty, because new corpus entries,
# crash artifacts and reports all go under build/. The libFuzzer build of
# `make fuzz` is kept under the build directory between runs and redone when
# the sources change.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case readme_commands_leave_checkout_clean
readme_commands_leave_checkout_clean_head() {
	atf_set descr "README's fuzzing commands run in a clean repository and leave git status empty"
	atf_set require.progs "clang git make"
	atf_set timeout 900
}
readme_commands_leave_checkout_clean_body() {
	# The first sh block of the README's "Fuzzing" section.
	awk '/^## Fuzzing$/ { f = 1; next } /^## / { f = 0 }
		f && /^```sh$/ { b = 1; next } f && b && /^```$/ { exit } f && b' "$SRCDIR/README.md" > commands
	[ "$(grep -c . commands)" -ge 3 ] || { cat commands; atf_fail "README's Fuzzing section has no command block"; }
	grep -q 'build/fuzz/[a-z_]*_fuzzer' commands || atf_fail "no libFuzzer one-liner in the block"
	grep -q 'make fuzz-run' commands || atf_fail "no make fuzz-run in the block"
	sed -e 's/-max_total_time=[0-9]*/-max_total_time=3/g' -e 's/SECONDS=[0-9]*/SECONDS=3/g' commands > short

	mkdir repo
	(cd "$SRCDIR" && tar -cf - --exclude=./build --exclude=./.git .) | (cd repo && tar -xf -)
	(cd repo && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m sources) ||
		atf_fail "could not make a repository of the sources"
	cache=$BUILDDIR/ci-fuzz-docs
	key=$(cd "$SRCDIR" && find GNUmakefile fuzzers validators specs -type f \
		! -name '*.1' ! -name '*.txt' ! -name 'README*' ! -path 'fuzzers/campaign/*' |
		LC_ALL=C sort | xargs sha1sum | sha1sum | cut -c1-40)
	if [ "$(cat "$cache/sources" 2>/dev/null)" = "$key" ]; then
		mkdir -p repo/build && cp -a "$cache/fuzz" repo/build/fuzz
	fi

	cd repo || atf_fail "no repository"
	while read -r cmd; do
		echo "\$ $cmd"
		sh -c "$cmd" > ../cmd.log 2>&1 || { tail -n 30 ../cmd.log; atf_fail "failed: $cmd"; }
	done < ../short
	atf_check -o empty git status --porcelain
	# What the commands made went under build/.
	[ -n "$(ls build/fuzz-corpus/tfile)" ] || atf_fail "the libFuzzer one-liner wrote no corpus entry under build/"
	report=$(ls build/reports/fuzz/*tfile*.md | head -n 1)
	[ -f "$report" ] || atf_fail "make fuzz-run wrote no report under build/reports/fuzz/"
	atf_check -o match:'^\| peak RSS \| [1-9][0-9]* MB' cat "$report"

	rm -rf "$cache" && mkdir -p "$cache" && cp -a build/fuzz "$cache/fuzz" && echo "$key" > "$cache/sources"
}

atf_init_test_cases() {
	atf_add_test_case readme_commands_leave_checkout_clean
}
