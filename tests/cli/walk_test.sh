#! /usr/bin/env atf-sh
# A directory that is not a UMTracer trace is walked: every file in it and
# every trace directory below it is validated in name order; files of no
# known format are skipped and counted; a closing summary counts them all.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

make_repo() {
	mkdir -p repo/traces/deeper repo/docs
	cp "$C/xray/valid/real-fdr-v5.xray" repo/traces/good.xray
	cp "$C/xray/invalid/v1-stride.xray" repo/traces/deeper/bad.xray
	cp "$C/tfile/valid/gdb-locals.tf" repo/traces/locals.tf
	cp -R "$C/umtrace/valid/trace64" repo/traces/trace64
	echo '# a project' > repo/README.md
	echo '{ "name": "x" }' > repo/package.json
	echo 'notes' > repo/docs/notes.txt
}

atf_test_case walks_a_directory
walks_a_directory_head() { atf_set "descr" "traces/ is walked: traces validated, other files skipped, a summary line"; }
walks_a_directory_body() {
	make_repo
	atf_check -s exit:1 -o save:out -e save:err "$TL" -q repo
	atf_check -o inline:"repo/traces/deeper/bad.xray: invalid\nrepo/traces/good.xray: valid\nrepo/traces/locals.tf: valid\nrepo/traces/trace64: valid\n" \
		sed 's/ (.*//' out
	atf_check -o save:summary head -n 1 err
	atf_check -o inline:"tracelint: 7 files: 3 valid, 1 invalid, 0 unreadable, 3 skipped\n" cat summary
	# -q names each skipped path once, under the summary
	atf_check -o inline:"  skipped: repo/README.md: format not recognised\n  skipped: repo/docs/notes.txt: format not recognised\n  skipped: repo/package.json: format not recognised\n" \
		sed -n '2,$s/; tried.*//p' err
	# without -q each one has its line in the report, in walk order
	atf_check -s exit:1 -o save:full -e ignore "$TL" repo
	atf_check -o inline:"repo/README.md\nrepo/docs/notes.txt\nrepo/package.json\n" sed -n 's/: skipped: format not recognised; tried .*//p' full
}

atf_test_case named_file_of_no_format_is_an_error
named_file_of_no_format_is_an_error_head() { atf_set "descr" "a file named on the command line must be a trace; found by a walk it is skipped"; }
named_file_of_no_format_is_an_error_body() {
	make_repo
	atf_check -s exit:2 -o match:'README.md: error: format not recognised' -e ignore "$TL" -q repo/README.md repo/traces/good.xray
	atf_check -s exit:0 -o match:'good.xray: valid' -e match:'1 skipped' "$TL" -q repo/docs repo/traces/good.xray
}

atf_test_case walk_in_every_style
walk_in_every_style_head() { atf_set "descr" "JSON and SARIF of a walk hold the validated files only"; }
walk_in_every_style_body() {
	make_repo
	"$TL" -o json repo > out.json 2> /dev/null
	atf_check -o inline:"4\n" jq '.files | length' out.json
	"$TL" -o sarif repo > out.sarif 2> /dev/null
	atf_check -o match:'deeper/bad.xray' jq -r '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri' out.sarif
}

atf_test_case files_from
files_from_head() { atf_set "descr" "--files-from reads paths one a line, -0 NUL-separated (find -print0), - from standard input"; }
files_from_body() {
	make_repo
	mkdir -p "odd name"
	cp "$C/xray/valid/real-fdr-v5.xray" "odd name/with
newline.xray"
	find repo/traces "odd name" -name '*.xray' -print0 | sort -z > list0
	atf_check -s exit:1 -o match:'good.xray: valid' -o match:'bad.xray: invalid' -o match:'newline.xray: valid' \
		-e ignore "$TL" -q --files-from=- -0 < list0
	printf 'repo/traces/good.xray\nrepo/traces/locals.tf\n' > list
	atf_check -s exit:0 -o match:'good.xray: valid' -o match:'locals.tf: valid' "$TL" -q --files-from list
	atf_check -s exit:2 -e match:"-0 applies to --files-from" "$TL" -0 repo
	atf_check -s exit:2 -e match:"standard input \\('-'\\) named more than once" "$TL" --files-from=- - < list
	atf_check -s exit:2 -e match:'cannot read the paths of --files-from nowhere' "$TL" --files-from nowhere
}

atf_test_case member_paths_stand_for_their_trace
member_paths_stand_for_their_trace_head() { atf_set "descr" "files of a UMTracer trace directory validate the trace, once"; }
member_paths_stand_for_their_trace_body() {
	make_repo
	t=repo/traces/trace64
	atf_check -s exit:0 -o save:one -e ignore "$TL" -q $t/exec.vtable $t/ins.itable $t/trace.xml
	atf_check -o inline:"repo/traces/trace64: valid\n" sed 's/ (.*//' one
	atf_check -s exit:1 -o save:two -e ignore "$TL" -q $t/thread.itable repo/traces/deeper/bad.xray $t/module.itable
	atf_check -o inline:"repo/traces/trace64: valid\nrepo/traces/deeper/bad.xray: invalid\n" sed 's/ (.*//' two
	# a table outside any trace directory is still a file of its own
	cp $t/thread.itable lone.itable
	atf_check -s ignore -o match:'^lone.itable: ' "$TL" -q lone.itable
}

atf_test_case version_control_stores_are_not_walked
version_control_stores_are_not_walked_head() { atf_set "descr" ".git and other stores are left out of walks"; }
version_control_stores_are_not_walked_body() {
	make_repo
	mkdir -p repo/.git/objects repo/.hg
	cp "$C/xray/invalid/v1-stride.xray" repo/.git/objects/packed.xray
	cp "$C/xray/invalid/v1-stride.xray" repo/.hg/store.xray
	atf_check -s exit:1 -o not-match:'\.git|\.hg' -e match:'7 files' "$TL" -q repo
}

atf_test_case paths_past_4k
paths_past_4k_head() { atf_set "descr" "what a walk finds past 4 KiB of path is reported unreadable, never left out; a named path with a directory part past 4 KiB cannot be opened"; }
paths_past_4k_body() {
	# deep/ then 100-character levels: level 40 is a 4,090-character path,
	# too long to hold "/exec.vtable" or any name in it: its x39.xray and its
	# directory cannot be opened, and say so (exit 2)
	top=deep$(printf 'p%.0s' $(seq 86))
	comp=$(printf 'c%.0s' $(seq 99))
	mkdir $top
	(
		cd $top
		i=0
		while [ $i -lt 42 ]; do
			mkdir $comp
			cp "$C/xray/invalid/v1-stride.xray" $comp/x$i.xray
			cd $comp
			i=$((i + 1))
		done
	)
	atf_check -s exit:2 -o save:out -e inline:"tracelint: 41 files: 0 valid, 39 invalid, 2 unreadable, 0 skipped\n" \
		"$TL" -q $top
	atf_check -o match:'/x38.xray: invalid ' -o match:'/x39.xray: error: cannot open .*: File name too long$' \
		-o not-match:'/x40.xray' cat out
	atf_check -o inline:"2\n" grep -c ': File name too long$' out
	long=$(printf 'l%.0s' $(seq 4100))
	atf_check -s exit:2 -o save:long.out "$TL" -f xray $long/x.xray
	atf_check -o inline:"1\n" grep -c "^$long/x.xray: error: cannot open lll" long.out
}

atf_test_case deep_walks_leave_nothing_out
deep_walks_leave_nothing_out_head() { atf_set "descr" "a walk has no depth limit: 150 nested directories, one trace in each, are all validated"; }
deep_walks_leave_nothing_out_body() {
	(
		i=0
		while [ $i -lt 150 ]; do
			mkdir d
			cd d
			cp "$C/xray/invalid/v1-stride.xray" x$i.xray
			i=$((i + 1))
		done
	)
	atf_check -s exit:1 -o save:out -e inline:"tracelint: 150 files: 0 valid, 150 invalid, 0 unreadable, 0 skipped\n" \
		"$TL" -q d
	atf_check -o match:'/x149.xray: invalid ' cat out
}

atf_test_case members_of_two_traces
members_of_two_traces_head() { atf_set "descr" "members of two trace directories stand for each trace once, in the order first named"; }
members_of_two_traces_body() {
	make_repo
	cp -R "$C/umtrace/valid/aborted-not-last" repo/traces/aborted
	t=repo/traces/trace64 a=repo/traces/aborted
	atf_check -s exit:0 -o save:out -e ignore "$TL" -q $t/exec.vtable $a/exec.vtable $t/ins.itable $a/ins.itable
	atf_check -o inline:"$t: valid\n$a: valid\n" sed 's/ (.*//' out
}

atf_test_case standard_input_is_never_skipped
standard_input_is_never_skipped_head() { atf_set "descr" "in parallel, skipping unknown formats skips named files, never standard input"; }
standard_input_is_never_skipped_body() {
	printf 'not a trace' > junk
	tried='format not recognised; tried tfile (no 7f "TRACE" header), xray (shorter than the 32-byte XRay header), dcfg (not a JSON object), dcfg-trace (not a JSON object), umtrace (not a UMTracer table (no fixed-size table header))'
	atf_check -s exit:2 -o inline:"-: error: $tried\njunk: skipped: $tried\n" \
		-e inline:"tracelint: 2 files: 0 valid, 0 invalid, 1 unreadable, 1 skipped\n" \
		"$TL" -j 2 --unknown-format=skip - junk < junk
}

atf_init_test_cases() {
	atf_add_test_case member_paths_stand_for_their_trace
	atf_add_test_case version_control_stores_are_not_walked
	atf_add_test_case files_from
	atf_add_test_case walks_a_directory
	atf_add_test_case named_file_of_no_format_is_an_error
	atf_add_test_case walk_in_every_style
	atf_add_test_case paths_past_4k
	atf_add_test_case deep_walks_leave_nothing_out
	atf_add_test_case members_of_two_traces
	atf_add_test_case standard_input_is_never_skipped
}
