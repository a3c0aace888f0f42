#! /usr/bin/env atf-sh
# -j N validates files in parallel; the report, the summary, the exit status
# and any baseline written are byte for byte those of -j 1.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# Runs tracelint over the whole corpus with -j N and the given options,
# keeping stdout, stderr and the exit status under the name given.
run_corpus() {
	name=$1 jobs=$2
	shift 2
	rc=0
	"$TL" -j "$jobs" "$@" "$C" > "$name.out" 2> "$name.err" || rc=$?
	echo "$rc" > "$name.rc"
}

same_as_serial() {
	style=$1
	run_corpus one 1 -o "$style"
	atf_check -o not-inline:"0\n" cat one.rc
	atf_check -o match:'[1-9][0-9]* invalid' cat one.err
	for n in 2 3 8; do
		run_corpus many$n $n -o "$style"
		atf_check cmp one.out many$n.out
		atf_check cmp one.err many$n.err
		atf_check cmp one.rc many$n.rc
	done
}

atf_test_case text_output
text_output_head() { atf_set "descr" "-j 2, 3 and 8 print the corpus report of -j 1 (text)"; }
text_output_body() { same_as_serial text; }

atf_test_case json_output
json_output_head() { atf_set "descr" "-j 2, 3 and 8 print the corpus report of -j 1 (JSON)"; }
json_output_body() { same_as_serial json; }

atf_test_case sarif_output
sarif_output_head() { atf_set "descr" "-j 2, 3 and 8 print the corpus report of -j 1 (SARIF)"; }
sarif_output_body() { same_as_serial sarif; }

atf_test_case with_baselines
with_baselines_head() { atf_set "descr" "baselines written and applied under -j N equal those of -j 1"; }
with_baselines_body() {
	run_corpus one 1 -q --write-baseline one.json
	run_corpus many 4 -q --write-baseline many.json
	atf_check cmp one.json many.json
	atf_check cmp one.out many.out
	atf_check -o not-inline:"0\n" jq '.diagnostics | length' one.json
	# half of the baseline: the other half is reported, identically
	jq '.diagnostics |= [.[] | select(.fingerprint < "8")]' one.json > half.json
	run_corpus one 1 --baseline half.json
	run_corpus many 4 --baseline half.json
	atf_check cmp one.out many.out
	atf_check cmp one.err many.err
	atf_check -o match:'known diagnostics not reported' cat one.err
}

atf_test_case bad_job_counts
bad_job_counts_head() { atf_set "descr" "-j takes 1 to 1024"; }
bad_job_counts_body() {
	atf_check -s exit:2 -e match:"--jobs needs a number of files from 1 to 1024, not '0'" "$TL" -j 0 "$C/xray/valid"
	atf_check -s exit:2 -e match:"not 'many'" "$TL" --jobs=many "$C/xray/valid"
	atf_check -s exit:0 -o ignore -e ignore "$TL" -j 1024 "$C/xray/valid"
}

atf_test_case full_disk_and_bad_roots
full_disk_and_bad_roots_head() { atf_set "descr" "a report that cannot be written and an unusable --sarif-root are exit 2, with -j 1 and -j 4"; }
full_disk_and_bad_roots_body() {
	for j in 1 4; do
		atf_check -s exit:2 -o ignore -e match:'cannot write the report' \
			-x "'$TL' -j $j -o json '$C/xray/valid' > /dev/full"
		atf_check -s exit:2 -o empty -e match:"--sarif-root: cannot use the directory 'nowhere'" \
			"$TL" -j $j -o sarif --sarif-root nowhere "$C/xray/valid"
	done
	# -j with a baseline being written and a path that cannot be read
	atf_check -s exit:2 -o match:'missing.xray: error: cannot open' -e ignore \
		"$TL" -j 3 --write-baseline b.json "$C/xray/invalid/preamble.xray" missing.xray "$C/xray/valid"
	atf_check -o match:'XRAY-FDR-PREAMBLE' cat b.json
}

atf_init_test_cases() {
	atf_add_test_case full_disk_and_bad_roots
	atf_add_test_case text_output
	atf_add_test_case json_output
	atf_add_test_case sarif_output
	atf_add_test_case with_baselines
	atf_add_test_case bad_job_counts
}
