#! /usr/bin/env atf-sh
# check_packages.py: every library a link line of `make -n` uses comes from a
# package of the list its installer installs (action.yml and the container
# image for `make install`, the OSS-Fuzz and ClusterFuzzLite images for the
# fuzzers, `make deps` for everything). A second case breaks a copy of the
# lists and installers and expects the checker to say what is missing.

SRCDIR='@SRCDIR@'

atf_test_case lists_cover_link_lines
lists_cover_link_lines_head() {
	atf_set descr "each installer installs the packages of every library its build links"
	atf_set require.progs "python3 make gcc dpkg"
}
lists_cover_link_lines_body() {
	atf_check -o save:out python3 "$SRCDIR/tests/ci/check_packages.py" "$SRCDIR"
	# The libraries were derived, not assumed: the CLI links inih, the tests ATF.
	atf_check -o match:'^build: .*-linih.* from validators/build-packages.txt' cat out
	atf_check -o match:'^fuzzers: .*-ljson-c.* from fuzzers/build-packages.txt' cat out
	atf_check -o match:'^tests: .*-latf-c' cat out
}

atf_test_case catches
catches_head() {
	atf_set descr "a package missing from a list or an installer is reported"
	atf_set require.progs "python3 make gcc dpkg"
}
catches_body() {
	mkdir tree
	(cd "$SRCDIR" && tar -cf - --exclude=./build --exclude=./.git --exclude=./corpus .) | (cd tree && tar -xf -)
	ln -s "$SRCDIR/corpus" tree/corpus
	broken() { # broken FILE SED-EXPRESSION EXPECTED-MESSAGE: one file broken at a time
		sed -i "$2" "tree/$1"
		atf_check -s exit:1 -o match:"$3" python3 "$SRCDIR/tests/ci/check_packages.py" "$PWD/tree"
		cp "$SRCDIR/$1" "tree/$1"
	}
	# action.yml as it was: the fuzzers' list plus gcc, without inih.
	broken action.yml 's|validators/build-packages.txt|fuzzers/build-packages.txt|' \
		'action.yml: does not install libinih-dev, which provides -linih'
	broken fuzzers/build-packages.txt 's|^libexpat1-dev||' 'fuzzers/build-packages.txt: lacks libexpat1-dev, which provides -lexpat'
	broken tests/packages.txt 's|^libatf-dev||' 'tests/packages.txt: lacks libatf-dev'
	broken Dockerfile 's|xargs apt-get install|xargs echo|' 'Dockerfile: does not install libjson-c-dev'
}

atf_init_test_cases() {
	atf_add_test_case lists_cover_link_lines
	atf_add_test_case catches
}
