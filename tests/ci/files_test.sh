#! /usr/bin/env atf-sh
# The CI and fuzzing-service files, checked offline (tests/ci/check_files.py):
# YAML that parses, the shapes ClusterFuzzLite, OSS-Fuzz and GitHub expect,
# paths, scripts and make targets that exist, one package list.

SRCDIR='@SRCDIR@'

atf_test_case files
files_head() {
	atf_set descr "workflows, action and project files parse and name what exists"
	atf_set require.progs "python3 dpkg"
	atf_set timeout 300
}
files_body() {
	python3 -c 'import yaml' 2>/dev/null || atf_fail "python3-yaml is missing (make deps installs it)"
	atf_check -o empty python3 "$SRCDIR/tests/ci/check_files.py" files "$SRCDIR"
	for f in "$SRCDIR"/.github/workflows/*.yml; do
		echo "$f"
	done > workflows
	atf_check -o match:cflite_pr.yml -o match:cflite_batch.yml -o match:cflite_cron.yml \
		-o match:cflite_build.yml -o match:conformance.yml cat workflows
}

# The checker must catch what it is for: a copy of the files, each broken once.
atf_test_case catches
catches_head() {
	atf_set descr "check_files.py reports a broken workflow, project file, Dockerfile and package list"
	atf_set require.progs "python3 dpkg"
	atf_set timeout 300
}
catches_body() {
	copy() {
		rm -rf tree && mkdir tree
		(cd "$SRCDIR" && tar -cf - --exclude=./build --exclude=./.git --exclude=./corpus .) | (cd tree && tar -xf -)
		ln -s "$SRCDIR/corpus" tree/corpus
	}
	broken() { # broken FILE SED-EXPRESSION EXPECTED-MESSAGE
		copy
		sed -i "$2" "tree/$1"
		atf_check -s exit:1 -o match:"$3" python3 "$SRCDIR/tests/ci/check_files.py" files "$PWD/tree"
	}
	broken .github/workflows/cflite_pr.yml 's|cifuzz-sarif/results.sarif|results.sarif|' 'must read cifuzz-sarif'
	broken .github/workflows/cflite_pr.yml 's|output-sarif: true|output-sarif: false|' 'without output-sarif'
	broken .github/workflows/cflite_cron.yml 's|mode: prune|mode: pruning|' 'mode pruning'
	broken .github/workflows/cflite_batch.yml 's|fuzz-seconds: 3600|fuzz-secs: 3600|' 'has no input'
	broken .github/workflows/conformance.yml 's|explain/llvm-xray.txt|explain/llvm.txt|' 'does not exist'
	broken .github/workflows/conformance.yml 's|build/tracelint-conform$|build/tracelint-nope|' 'make target'
	broken .github/workflows/cflite_build.yml 's|  Build:|  Build: [|' 'not valid YAML'
	broken .clusterfuzzlite/Dockerfile 's|COPY fuzzers/build-packages.txt|COPY fuzzers/packages.txt|' 'no such file'
	broken .clusterfuzzlite/project.yaml 's|language: c|language: go|' "language 'go'"
	broken oss-fuzz/projects/tracelint/project.yaml 's|  - afl||' 'lacks afl'
	broken oss-fuzz/projects/tracelint/Dockerfile 's|tracelint/tracelint |tracelint/other |' 'main_repo'
	broken fuzzers/build-packages.txt 's|^libzstd-dev||' 'lacks libzstd-dev'
	broken action.yml 's|inputs.args|inputs.arguments|' 'undeclared input arguments'
	broken Dockerfile 's|/tmp/build-packages.txt | |' 'does not install the packages'
}

atf_init_test_cases() {
	atf_add_test_case files
	atf_add_test_case catches
}
