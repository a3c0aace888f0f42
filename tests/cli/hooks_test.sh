#! /usr/bin/env atf-sh
# The hooks, end to end in throwaway repositories: the pre-commit framework
# with the shipped .pre-commit-hooks.yaml, and the plain git hook. A commit
# of traces, a README, a package.json and a UMTracer trace passes; one that
# stages an invalid trace fails and shows why.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
C="$SRCDIR/corpus"

git_identity() {
	export HOME="$PWD/home" GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$HOME"
	git config --global user.name tracelint-test
	git config --global user.email test@example.invalid
	git config --global init.defaultBranch main
	git config --global protocol.file.allow always
	# tracelint itself, as the hooks find it
	mkdir -p bin
	ln -s "$BUILDDIR/tracelint" bin/tracelint
	export PATH="$PWD/bin:$PATH"
}

# A project whose first commit holds one trace of each kind and files that
# are not traces at all.
populate() {
	mkdir -p traces/run1
	cp "$C/xray/valid/real-fdr-v5.xray" traces/good.xray
	cp "$C/tfile/valid/gdb-locals.tf" "traces/with space.tf"
	cp -R "$C/umtrace/valid/trace64/." traces/run1/
	echo '# project' > README.md
	echo '{ "name": "project", "version": "1.0.0" }' > package.json
}

# Cuts the trace's thread table short of the rows its header promises.
break_thread_table() {
	head -c 100 traces/run1/thread.itable > short && mv short traces/run1/thread.itable
}

atf_test_case pre_commit_framework
pre_commit_framework_head() {
	atf_set "descr" "pre-commit with the shipped hooks: clean commit passes, invalid trace fails with diagnostics"
	atf_set "require.progs" "pre-commit git"
}
pre_commit_framework_body() {
	git_identity
	export PRE_COMMIT_HOME="$PWD/cache"
	# the hook repository: this source tree's hook definitions
	mkdir hooks && cp "$SRCDIR/.pre-commit-hooks.yaml" hooks/
	(cd hooks && git init -q && git add . && git commit -q -m hooks) || atf_fail "hook repository"
	rev=$(git -C hooks rev-parse HEAD)
	mkdir project && cd project
	git init -q
	cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $PWD/../hooks
    rev: $rev
    hooks:
      - id: tracelint
YAML
	atf_check -o ignore pre-commit install
	populate
	git add -A
	atf_check -o ignore -e save:ok.out git commit -m 'traces and docs'
	atf_check -o match:'tracelint\.*Passed' cat ok.out
	# an invalid XRay trace and a broken member of the UMTracer trace
	cp "$C/xray/invalid/metadata-kind.xray" traces/bad.xray
	git add traces/bad.xray
	atf_check -s exit:1 -o ignore -e save:bad.out git commit -m 'a bad trace'
	atf_check -o match:'tracelint\.*Failed' cat bad.out
	atf_check -o match:'traces/bad.xray:offset 112 \(record 5\): error: .*\[XRAY-FDR-METADATA-KIND\]' cat bad.out
	git reset -q traces/bad.xray && rm traces/bad.xray
	break_thread_table
	git add traces/run1/thread.itable
	atf_check -s exit:1 -o ignore -e save:umt.out git commit -m 'a broken thread table'
	atf_check -o match:'traces/run1: invalid' cat umt.out
	atf_check -o inline:"1\n" grep -c 'traces/run1: invalid' umt.out
}

atf_test_case plain_git_hook
plain_git_hook_head() {
	atf_set "descr" "the plain hook: any file name, staged content, JSON that is not a DCFG skipped"
	atf_set "require.progs" "git bash"
}
plain_git_hook_body() {
	git_identity
	mkdir project && cd project
	git init -q
	cp "$SRCDIR/validators/hooks/pre-commit" .git/hooks/pre-commit
	populate
	cp "$C/dcfg/valid/hello.dcfg.json" traces/hello.dcfg.json
	git add -A
	atf_check -o ignore -e save:first git commit -m 'traces and docs'
	# package.json and README.md are not traces: skipped, not failed
	atf_check -o match:'traces/hello.dcfg.json: valid' cat first
	atf_check -o match:'skipped' cat first
	# a name with spaces, quotes and a newline, invalid when staged
	name="$(printf 'traces/my "bad"\nname.xray')"
	cp "$C/xray/invalid/metadata-kind.xray" "$name"
	git add "$name"
	# (git shows a hook's output on standard error)
	atf_check -s exit:1 -o ignore -e save:out git commit -m bad
	atf_check -o match:'invalid trace files staged' cat out
	atf_check -o match:'^traces/my "bad"\\x0aname.xray:offset 112 \(record 5\): error: .*\[XRAY-FDR-METADATA-KIND\]' cat out
	# fixed in the working tree but not staged: the staged content still fails
	cp "$C/xray/valid/real-fdr-v5.xray" "$name"
	atf_check -s exit:1 -o ignore -e ignore git commit -m bad
	git add "$name"
	atf_check -o ignore -e ignore git commit -m fixed
	# a UMTracer member staged alone brings its trace
	break_thread_table
	git add traces/run1/thread.itable
	atf_check -s exit:1 -o ignore -e match:'traces/run1: invalid' git commit -m 'broken table'
	git checkout -q HEAD -- traces/run1/thread.itable
	# a config of the repository applies to staged files
	cp "$C/xray/invalid/metadata-kind.xray" traces/known.xray
	printf '[tracelint]\nignore = XRAY-FDR-METADATA-KIND\n' > .tracelint.ini
	git add traces/known.xray .tracelint.ini
	atf_check -o ignore -e match:'traces/known.xray: valid' git commit -m 'accepted defect'
}

atf_init_test_cases() {
	atf_add_test_case pre_commit_framework
	atf_add_test_case plain_git_hook
}
