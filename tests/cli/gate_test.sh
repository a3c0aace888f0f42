#! /usr/bin/env atf-sh
# The gate cannot be fooled by a file named as a trace: whatever it holds
# (nothing, zeros, a damaged header, a wrong version, a cut-short body, or
# another format), it is judged by its name's format and fails, walked,
# named, with --unknown-format=skip and through the pre-commit hook. A
# UMTracer trace that lost any member is invalid, also when the loss is a
# commit's deletion.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# overwrite FILE OFFSET TEXT
overwrite() {
	printf '%s' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

# damaged/: five broken files of each single-file format, some compressed,
# and the rule each one must fail with (expected).
make_damaged() {
	mkdir damaged
	X="$C/xray/valid/real-fdr-v5.xray" TF="$C/tfile/valid/gdb-locals.tf"
	D="$C/dcfg/valid/hello.dcfg.json" R="$C/dcfg-trace/valid/hello.trace.json"
	for pair in "xray:$X" "tf:$TF" "dcfg.json:$D" "trace.json:$R"; do
		ext=${pair%%:*} src=${pair#*:}
		: > damaged/empty.$ext
		head -c 64 /dev/zero > damaged/zero.$ext
		head -c $(($(wc -c < "$src") / 2)) "$src" > damaged/cut.$ext
		cp "$src" damaged/header.$ext
		overwrite damaged/header.$ext 0 Z
	done
	cp "$X" damaged/version.xray && overwrite damaged/version.xray 0 "$(printf '\001\000\011')"
	cp "$TF" damaged/version.tf && overwrite damaged/version.tf 6 7
	sed 's/"MAJOR_VERSION": *1/"MAJOR_VERSION": 7/' "$D" > damaged/version.dcfg.json
	sed 's/"MAJOR_VERSION": *1/"MAJOR_VERSION": 7/' "$R" > damaged/version.trace.json
	cp damaged/version.xray damaged/xray-log.app.1
	# compressed: the name under the codec's suffix binds the format
	gzip -c damaged/header.xray > damaged/header.xray.gz
	bzip2 -c damaged/cut.trace.json > damaged/cut.trace.json.bz2
	zstd -q -c damaged/zero.dcfg.json > damaged/zero.dcfg.json.zst
	: > damaged/empty.tfile.gz
	# another format under a trace name
	cp "$TF" damaged/other.xray
	cat > expected <<'LIST'
damaged/cut.dcfg.json JSON-SYNTAX
damaged/cut.tf TFILE-DESC-UNTERMINATED
damaged/cut.trace.json JSON-SYNTAX
damaged/cut.trace.json.bz2 JSON-SYNTAX
damaged/cut.xray XRAY-FDR-EXTENTS-EOF
damaged/empty.dcfg.json JSON-SYNTAX
damaged/empty.tf TFILE-HEADER-MAGIC
damaged/empty.tfile.gz TFILE-HEADER-MAGIC
damaged/empty.trace.json JSON-SYNTAX
damaged/empty.xray XRAY-HEADER-SIZE
damaged/header.dcfg.json JSON-SYNTAX
damaged/header.tf TFILE-HEADER-MAGIC
damaged/header.trace.json JSON-SYNTAX
damaged/header.xray XRAY-HEADER-VERSION
damaged/header.xray.gz XRAY-HEADER-VERSION
damaged/other.xray TL-FORMAT-NAME
damaged/version.dcfg.json DCFG-VERSION-VALUE
damaged/version.tf TFILE-HEADER-VERSION
damaged/version.trace.json DTRACE-VERSION
damaged/version.xray XRAY-HEADER-VERSION
damaged/xray-log.app.1 XRAY-HEADER-VERSION
damaged/zero.dcfg.json JSON-SYNTAX
damaged/zero.dcfg.json.zst JSON-SYNTAX
damaged/zero.tf TFILE-HEADER-MAGIC
damaged/zero.trace.json JSON-SYNTAX
damaged/zero.xray XRAY-HEADER-VERSION
LIST
}

# first_rules JSON: "path RULE" of each file's first diagnostic, "path valid"
# for a file found valid, "path skipped" for a skipped one, sorted.
first_rules() {
	jq -r '(.files[] | "\(.path | sub("^\\./"; "")) \(if .valid then "valid" else ([.diagnostics[].rule][0] // .error) end)"),
	       (.skipped // [] | .[] | "\(.path) skipped")' "$1" | sort
}

atf_test_case damaged_files_fail
damaged_files_fail_head() {
	atf_set "descr" "empty, zero-filled, header-damaged, wrong-version and cut-short files of every format fail with their format's rule, walked, named and with --unknown-format=skip"
	atf_set "require.progs" "jq bzip2 zstd"
}
damaged_files_fail_body() {
	make_damaged
	# DCFG and DCFG-trace state a version other than 1.00 as a warning: -W fails it
	for how in "damaged" "--unknown-format=skip damaged" "-j 3 damaged" "--unknown-format=skip $(ls -d damaged/* | tr '\n' ' ')"; do
		# shellcheck disable=SC2086 # the options and paths of each way
		atf_check -s exit:1 -o save:out.json -e match:"26 files: 0 valid, 26 invalid, 0 unreadable, 0 skipped" \
			"$TL" -W -o json $how
		first_rules out.json > got
		atf_check -o file:expected cat got
	done
	for f in damaged/*; do
		atf_check -s exit:1 -o match:"^$f: invalid" -e empty "$TL" -W "$f"
	done
}

atf_test_case skipped_paths_are_named
skipped_paths_are_named_head() {
	atf_set "descr" "a walk names every path it does not validate, in text, -q, JSON and SARIF, and counts them"
	atf_set "require.progs" "jq"
}
skipped_paths_are_named_body() {
	mkdir -p w/sub
	echo 'hello' > w/notes.txt
	ln -s notes.txt w/sub/link.xray
	cp "$C/xray/valid/real-fdr-v5.xray" w/good.xray
	atf_check -s exit:0 -o save:out -e inline:"tracelint: 3 files: 1 valid, 0 invalid, 0 unreadable, 2 skipped\n" "$TL" w
	atf_check -o match:'^w/notes.txt: skipped: format not recognised' \
		-o match:'^w/sub/link.xray: skipped: a symbolic link' cat out
	atf_check -s exit:0 -o inline:"w/good.xray: valid (xray: 0 errors, 0 warnings; FDR version 5, little-endian (detected))\n" \
		-e save:err "$TL" -q w
	atf_check -o match:'^  skipped: w/notes.txt: format not recognised' -o match:'^  skipped: w/sub/link.xray: ' cat err
	"$TL" -o json w > out.json 2> /dev/null
	atf_check -o inline:"w/notes.txt\nw/sub/link.xray\n" jq -r '.skipped[].path' out.json
	"$TL" -o sarif w > out.sarif 2> /dev/null
	atf_check -o inline:"2\n" jq '[.runs[0].invocations[0].toolExecutionNotifications[] | select(.level == "note" and (.message.text | test(": skipped: ")))] | length' out.sarif
	atf_check -o match:'w/sub/link.xray' jq -r '.runs[0].invocations[0].toolExecutionNotifications[].locations[0].physicalLocation.artifactLocation.uri' out.sarif
}

atf_test_case trace_missing_each_member
trace_missing_each_member_head() { atf_set "descr" "a UMTracer trace with any one member deleted is invalid and names the missing file, named, walked and through another member"; }
trace_missing_each_member_body() {
	n=0
	for member in $(ls "$C/umtrace/valid/trace64"); do
		rm -rf parent && mkdir parent
		cp -R "$C/umtrace/valid/trace64" parent/run
		rm "parent/run/$member"
		other=$(ls parent/run | grep -v '^trace.xml$' | head -n 1)
		for path in parent/run parent "parent/run/$other"; do
			atf_check -s exit:1 -o save:out -e ignore "$TL" "$path"
			atf_check -o match:"parent/run/$member:offset 0: error: expected the trace file $member, found none.*\\[UMT-FILE-MISSING\\]" \
				-o match:'^parent/run: invalid' cat out
		done
		n=$((n + 1))
	done
	[ $n -eq 11 ] || atf_fail "trace64 has $n members, not 11"
}

git_identity() {
	export HOME="$PWD/home" GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$HOME"
	git config --global user.name tracelint-test
	git config --global user.email test@example.invalid
	git config --global init.defaultBranch main
	git config --global protocol.file.allow always
	mkdir -p bin
	ln -s "$BUILDDIR/tracelint" bin/tracelint
	export PATH="$PWD/bin:$PATH"
}

# A project with the shipped pre-commit hook (and the hook setting $1, if
# given) and a committed UMTracer trace.
pre_commit_project() {
	git_identity
	export PRE_COMMIT_HOME="$PWD/cache"
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
${1:+        $1}
YAML
	atf_check -o ignore pre-commit install
	mkdir -p traces
	cp -R "$C/umtrace/valid/trace64" traces/run5
	git add -A
	atf_check -o ignore -e save:ok.out git commit -m 'a trace'
	atf_check -o match:'tracelint\.*Passed' cat ok.out
}

atf_test_case pre_commit_damaged_files
pre_commit_damaged_files_head() {
	atf_set "descr" "pre-commit's tracelint hook fails a commit of damaged files named as traces and shows each one's rule"
	atf_set "require.progs" "pre-commit git jq bzip2 zstd"
}
pre_commit_damaged_files_body() {
	pre_commit_project
	make_damaged
	git add damaged
	atf_check -s exit:1 -o ignore -e save:bad.out git commit -m 'damaged traces'
	atf_check -o match:'tracelint\.*Failed' cat bad.out
	while read -r path rule; do
		case $rule in DCFG-VERSION-VALUE|DTRACE-VERSION) continue ;; esac # warnings
		grep -q "^$path.*\\[$rule\\]" bad.out || atf_fail "$path: no $rule in the hook's output"
	done < expected
}

atf_test_case pre_commit_member_deletion
pre_commit_member_deletion_head() {
	atf_set "descr" "pre-commit: a commit that deletes a member of a trace fails; deleting the whole trace passes"
	atf_set "require.progs" "pre-commit git"
}
pre_commit_member_deletion_body() {
	pre_commit_project
	git rm -q traces/run5/exec.vtable
	atf_check -s exit:1 -o ignore -e save:del.out git commit -m 'lose the main table'
	atf_check -o match:'tracelint\.*Failed' \
		-o match:'traces/run5/exec.vtable:offset 0: error: expected the trace file exec.vtable, found none.*\[UMT-FILE-MISSING\]' cat del.out
	git reset -q --hard
	git rm -q -r traces/run5
	atf_check -o ignore -e save:gone.out git commit -m 'drop the trace'
	atf_check -o match:'tracelint\.*Passed' cat gone.out
}

atf_test_case plain_hook_member_deletion
plain_hook_member_deletion_head() {
	atf_set "descr" "the plain git hook: a commit that deletes a member of a trace fails"
	atf_set "require.progs" "git bash"
}
plain_hook_member_deletion_body() {
	git_identity
	mkdir project && cd project
	git init -q
	cp "$SRCDIR/validators/hooks/pre-commit" .git/hooks/pre-commit
	mkdir -p traces
	cp -R "$C/umtrace/valid/trace64" traces/run5
	git add -A
	atf_check -o ignore -e match:'traces/run5: valid' git commit -m 'a trace'
	git rm -q traces/run5/thread.itable
	atf_check -s exit:1 -o ignore -e save:out git commit -m 'lose a table'
	atf_check -o match:'expected the trace file thread.itable, found none.*\[UMT-FILE-MISSING\]' \
		-o match:'invalid trace files staged' cat out
}

atf_test_case force_exclude
force_exclude_head() { atf_set "descr" "--force-exclude applies a config's exclude= to named paths (as the hooks name them); without it only walks are filtered"; }
force_exclude_body() {
	mkdir -p repo/.git repo/scratch
	printf '[tracelint]\nexclude = scratch/*\n' > repo/.tracelint.ini
	: > repo/scratch/empty.xray
	cp "$C/xray/valid/real-fdr-v5.xray" repo/good.xray
	atf_check -s exit:1 -o match:'scratch/empty.xray: invalid' "$TL" -q repo/scratch/empty.xray repo/good.xray
	atf_check -s exit:0 -o inline:"repo/good.xray: valid\n" -e ignore sh -c "'$TL' -q --force-exclude repo/scratch/empty.xray repo/good.xray | sed 's/ (.*//'"
	atf_check -s exit:0 -o not-match:'scratch' -e ignore "$TL" -q repo
}

atf_test_case pre_commit_shows_warnings
pre_commit_shows_warnings_head() {
	atf_set "descr" "with verbose: true (as the README says) a commit that passes with warnings shows them"
	atf_set "require.progs" "pre-commit git"
}
pre_commit_shows_warnings_body() {
	pre_commit_project "verbose: true"
	sed 's/"MAJOR_VERSION": *1/"MAJOR_VERSION": 7/' "$C/dcfg/valid/hello.dcfg.json" > traces/v7.dcfg.json
	git add traces/v7.dcfg.json
	atf_check -o ignore -e save:out git commit -m 'a newer DCFG'
	atf_check -o match:'tracelint\.*Passed' \
		-o match:'traces/v7.dcfg.json:.*warning: .*\[DCFG-VERSION-VALUE\]' cat out
}

atf_test_case walks_honour_gitignore
walks_honour_gitignore_head() {
	atf_set "descr" "inside a git work tree a walk leaves out what .gitignore ignores; a named file is validated all the same"
	atf_set "require.progs" "git"
}
walks_honour_gitignore_body() {
	git_identity
	git init -q repo
	mkdir -p repo/out repo/traces
	: > repo/out/empty.xray
	: > repo/traces/scratch.xray
	cp "$C/xray/valid/real-fdr-v5.xray" repo/traces/good.xray
	printf 'out/\n*scratch*\n' > repo/.gitignore
	atf_check -s exit:0 -o inline:"repo/traces/good.xray: valid\n" -e match:'2 files: 1 valid, 0 invalid, 0 unreadable, 1 skipped' \
		sh -c "'$TL' -q repo | sed 's/ (.*//'"
	atf_check -s exit:1 -o match:'repo/out/empty.xray: invalid' "$TL" -q repo/out/empty.xray
	# outside a work tree nothing is left out
	rm -rf repo/.git
	atf_check -s exit:1 -o match:'repo/out/empty.xray: invalid' -o match:'scratch.xray: invalid' -e ignore "$TL" -q repo
}

atf_init_test_cases() {
	atf_add_test_case walks_honour_gitignore
	atf_add_test_case pre_commit_shows_warnings
	atf_add_test_case force_exclude
	atf_add_test_case damaged_files_fail
	atf_add_test_case skipped_paths_are_named
	atf_add_test_case trace_missing_each_member
	atf_add_test_case pre_commit_damaged_files
	atf_add_test_case pre_commit_member_deletion
	atf_add_test_case plain_hook_member_deletion
}
