#! /usr/bin/env atf-sh
# Config discovery trusts a .tracelint.ini as git trusts a repository
# (safe.directory): one owned by another user, or in a directory others may
# write, is skipped with a note on standard error; discovery stops at the
# repository root, or at the home directory outside a repository, never
# climbing to /. --config names a regular file: a device, FIFO or directory
# is a usage error at once.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# bad.xray has one XRAY-FDR-METADATA-KIND error: "ignore = *" hides it.
IGNORE_ALL='[tracelint]\nignore = *\n'

# A user other than the one running the test, when root can make one.
other_user() {
	[ "$(id -u)" = 0 ] || atf_skip "making a file another user owns needs root"
	id -u nobody >/dev/null 2>&1 || atf_skip "no user 'nobody'"
}

atf_test_case foreign_config_in_world_writable_dir
foreign_config_in_world_writable_dir_head() {
	atf_set "descr" "another user's config in a sticky world-writable directory (as /tmp) is skipped, with a note"
}
foreign_config_in_world_writable_dir_body() {
	other_user
	mkdir -p shared/traces && chmod 1777 shared
	cp "$C/xray/invalid/metadata-kind.xray" shared/traces/bad.xray
	printf "$IGNORE_ALL" > shared/.tracelint.ini
	chown nobody shared/.tracelint.ini
	# The home directory is above: discovery may climb to it.
	export HOME="$PWD"
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' \
		-e match:"^tracelint: note: ignoring the config $PWD/shared/.tracelint.ini: it belongs to user $(id -u nobody), not to you or root\$" \
		"$TL" shared/traces/bad.xray
	# Noted once however many files it would have applied to.
	cp shared/traces/bad.xray shared/traces/bad2.xray
	"$TL" shared/traces/bad.xray shared/traces/bad2.xray 2> err >/dev/null
	atf_check_equal "$(grep -c 'ignoring the config' err)" 1
	# The user's own config there is trusted (sticky: nobody else can replace it).
	chown "$(id -u)" shared/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' -e empty "$TL" shared/traces/bad.xray
}

atf_test_case writable_directory
writable_directory_head() { atf_set "descr" "a config in a directory other users may write (not sticky) is skipped"; }
writable_directory_body() {
	mkdir -p repo/.git repo/open/traces
	cp "$C/xray/invalid/metadata-kind.xray" repo/open/traces/bad.xray
	printf "$IGNORE_ALL" > repo/open/.tracelint.ini
	chmod 0777 repo/open
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' \
		-e match:'ignoring the config .*/repo/open/.tracelint.ini: other users may write its directory \(mode 0777\)' \
		"$TL" repo/open/traces/bad.xray
	# Group-writable as well; then the repository's own config, further up, applies.
	chmod 0775 repo/open
	printf '[tracelint]\nwarning = XRAY-FDR-METADATA-KIND\n' > repo/.tracelint.ini
	atf_check -s exit:0 -o match:'warning: .*XRAY-FDR-METADATA-KIND' -e match:'mode 0775' "$TL" repo/open/traces/bad.xray
	chmod 0755 repo/open
	atf_check -s exit:0 -o match:'bad.xray: valid' -e empty "$TL" repo/open/traces/bad.xray
}

atf_test_case foreign_directory
foreign_directory_head() { atf_set "descr" "a config in a directory another user owns is skipped"; }
foreign_directory_body() {
	other_user
	mkdir -p repo/.git repo/theirs
	cp "$C/xray/invalid/metadata-kind.xray" repo/theirs/bad.xray
	printf "$IGNORE_ALL" > repo/theirs/.tracelint.ini
	chown nobody repo/theirs
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' -e match:'its directory belongs to user' "$TL" repo/theirs/bad.xray
}

atf_test_case stops_at_home_outside_a_repository
stops_at_home_outside_a_repository_head() {
	atf_set "descr" "outside a repository discovery stops at the home directory, and looks nowhere above a file outside it"
}
stops_at_home_outside_a_repository_body() {
	mkdir -p top/home/u/traces top/elsewhere
	cp "$C/xray/invalid/metadata-kind.xray" top/home/u/traces/bad.xray
	cp "$C/xray/invalid/metadata-kind.xray" top/elsewhere/bad.xray
	printf "$IGNORE_ALL" > top/.tracelint.ini            # above home: never read
	export HOME="$PWD/top/home/u"
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' -e empty "$TL" top/home/u/traces/bad.xray
	printf "$IGNORE_ALL" > top/home/u/.tracelint.ini     # home itself: read
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" top/home/u/traces/bad.xray
	# Outside home and outside any repository: only the file's own directory.
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' "$TL" top/elsewhere/bad.xray
	printf "$IGNORE_ALL" > top/elsewhere/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" top/elsewhere/bad.xray
	# Inside a repository, up to its root, wherever home is.
	mkdir -p top/repo/.git top/repo/a/b
	cp "$C/xray/invalid/metadata-kind.xray" top/repo/a/b/bad.xray
	printf "$IGNORE_ALL" > top/repo/.tracelint.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" top/repo/a/b/bad.xray
}

atf_test_case config_must_be_a_regular_file
config_must_be_a_regular_file_head() {
	atf_set "descr" "--config with a device, a FIFO or a directory is a usage error at once (it used to spin, block or read as empty)"
	atf_set timeout 60
}
config_must_be_a_regular_file_body() {
	cp "$C/xray/invalid/metadata-kind.xray" bad.xray
	mkfifo fifo
	atf_check -s exit:2 -e match:'the config /dev/zero is a device: expected a regular file' timeout 10 "$TL" --config=/dev/zero bad.xray
	atf_check -s exit:2 -e match:'the config fifo is a FIFO: expected a regular file' timeout 10 "$TL" --config=fifo bad.xray
	atf_check -s exit:2 -e match:'the config /tmp is a directory: expected a regular file' timeout 10 "$TL" --config=/tmp bad.xray
	atf_check -s exit:2 -e match:'cannot read the config missing.ini: No such file or directory' "$TL" --config=missing.ini bad.xray
	# A regular file, also through a symbolic link, is read.
	printf "$IGNORE_ALL" > c.ini
	ln -s c.ini link.ini
	atf_check -s exit:0 -o match:'bad.xray: valid' "$TL" --config=link.ini bad.xray
	# A FIFO named .tracelint.ini is not waited on by discovery either.
	mkdir -p repo/.git && cp bad.xray repo/ && mkfifo repo/.tracelint.ini
	atf_check -s exit:1 -o match:'XRAY-FDR-METADATA-KIND' timeout 10 "$TL" repo/bad.xray
}

atf_init_test_cases() {
	atf_add_test_case foreign_config_in_world_writable_dir
	atf_add_test_case writable_directory
	atf_add_test_case foreign_directory
	atf_add_test_case stops_at_home_outside_a_repository
	atf_add_test_case config_must_be_a_regular_file
}
