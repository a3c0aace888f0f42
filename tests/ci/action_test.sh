#! /usr/bin/env atf-sh
# The composite action (action.yml) run here step by step as the GitHub
# runner would (tests/ci/run_action.py): apt-get and sudo are stubs that
# record the packages and check they are installed, the build and install
# are real, `uses` steps (the SARIF upload) are recorded, not run.

SRCDIR='@SRCDIR@'

stubs() {
	mkdir -p bin temp
	printf '#!/bin/sh\nexec "$@"\n' > bin/sudo
	cat > bin/apt-get <<'STUB'
#!/bin/sh
echo "apt-get $*" >> "$APT_LOG"
[ "$1" = install ] || exit 0
shift
for p in "$@"; do
	case $p in -*) continue ;; esac
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		{ echo "apt-get stub: $p is not installed here" >&2; exit 100; }
done
STUB
	chmod +x bin/sudo bin/apt-get
	export APT_LOG="$PWD/apt.log" PATH="$PWD/bin:$PATH"
}

# run_action EXPECTED-STATUS NAME=VALUE...: the action, its runner temp kept
# from one run to the next (so the build is done once).
run_action() {
	status=$1
	shift
	rm -f uses.log && mkdir -p temp
	atf_check -s exit:"$status" -o save:out -e save:err \
		python3 "$SRCDIR/tests/ci/run_action.py" "$SRCDIR/action.yml" "$PWD/temp" "$PWD/uses.log" "$@"
}

atf_test_case action
action_head() {
	atf_set descr "action.yml installs tracelint, validates, uploads SARIF and fails on invalid traces"
	atf_set require.progs "python3 jq make gcc"
	atf_set timeout 600
}
action_body() {
	stubs
	mkdir traces
	cp "$SRCDIR"/corpus/xray/valid/gen-fdr-v3-le.xray "$SRCDIR"/corpus/xray/valid/gen-fdr-v5-le.xray traces/
	cp "$SRCDIR"/corpus/xray/invalid/header-version.xray bad.xray

	# Valid traces (a glob): the job passes and the SARIF log goes to code scanning.
	run_action 0 'paths=traces/*.xray'
	atf_check -o match:'run_action: job succeeded' -o match:'output exit-code=0' cat out
	atf_check -o match:'^tracelint [0-9]' cat out
	atf_check -o match:'"uses": "github/codeql-action/upload-sarif@v3"' \
		-o match:'"sarif_file": "tracelint.sarif"' -o match:'"category": "tracelint"' cat uses.log
	atf_check -o inline:"0\n" jq '.runs[0].results | length' tracelint.sarif
	atf_check -o match:'apt-get install .*libjson-c-dev' cat apt.log
	atf_check test -x temp/tracelint/bin/tracelint

	# An invalid trace, with options passed through: the job fails, the SARIF
	# log is still uploaded, and the diagnostic becomes an annotation.
	run_action 1 'paths=bad.xray traces/*.xray' 'args=--format=xray --max-errors=0' sarif-file=out.sarif category=xray
	atf_check -o match:'output exit-code=1' -o match:'step failed \(exit 1\): Verdict' cat out
	atf_check -o match:'^::error file=bad.xray,title=XRAY-HEADER-VERSION::' cat out
	atf_check -o match:'"sarif_file": "out.sarif"' -o match:'"category": "xray"' cat uses.log
	atf_check -o inline:"XRAY-HEADER-VERSION\n" jq -r '.runs[0].results[0].ruleId' out.sarif

	# Without the options its name still makes it an XRay trace: exit status 1.
	run_action 1 paths=bad.xray
	atf_check -o match:'output exit-code=1' -o match:'^::error file=bad.xray,title=XRAY-HEADER-VERSION::' cat out
	# A named file of no known format: exit status 2, a failed job.
	printf 'not a trace at all' > unknown.bin
	run_action 1 paths=unknown.bin
	atf_check -o match:'output exit-code=2' -o match:'usage error or unreadable' cat out

	# fail-on-invalid: false reports but passes; upload-sarif: false uploads nothing.
	run_action 0 paths=bad.xray args=--format=xray fail-on-invalid=false upload-sarif=false
	atf_check -o match:'output exit-code=1' -o match:'skipped: Upload to code scanning' cat out
	atf_check test ! -e uses.log

	# A package the build needs but the machine lacks fails the install step.
	printf '#!/bin/sh\necho "apt-get $*" >> "$APT_LOG"\n[ "$1" = install ] && exit 100\nexit 0\n' > bin/apt-get
	run_action 1 'paths=traces/*.xray'
	atf_check -o match:"step failed \\(exit [0-9]*\\): Install tracelint's build dependencies" \
		-o match:'skipped: Validate' cat out
}

atf_init_test_cases() {
	atf_add_test_case action
}
