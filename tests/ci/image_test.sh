#! /usr/bin/env atf-sh
# The container image's recipe (Dockerfile), checked without a container
# runtime: the build stage's commands run here (apt-get a stub that checks
# the packages are installed) against a staging directory, the runtime
# stage's COPY --from sources exist there and are the tool and its man pages
# only, and its package list is what the binary links (ldd, dpkg -S).

SRCDIR='@SRCDIR@'

atf_test_case image
image_head() {
	atf_set descr "Dockerfile: the build stage builds and stages the CLI; the runtime stage has what it needs"
	atf_set require.progs "python3 make gcc ldd dpkg"
	atf_set timeout 600
}
image_body() {
	mkdir bin
	cat > bin/apt-get <<'STUB'
#!/bin/sh
[ "$1" = install ] || exit 0
shift
for p in "$@"; do
	case $p in -*) continue ;; esac
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		{ echo "apt-get stub: $p is not installed here" >&2; exit 100; }
done
STUB
	chmod +x bin/apt-get
	atf_check -o save:build.sh python3 "$SRCDIR/tests/ci/check_files.py" docker-script "$SRCDIR/Dockerfile" build "$SRCDIR"
	atf_check -o ignore -e ignore env PATH="$PWD/bin:$PATH" BUILD_DIR="$PWD/build" STAGE="$PWD/stage" sh build.sh

	atf_check -o save:runtime python3 "$SRCDIR/tests/ci/check_files.py" docker-runtime "$SRCDIR/Dockerfile"
	# The tool and its man pages, nothing else.
	atf_check -o inline:"/stage/usr/local/bin/tracelint\n/stage/usr/local/share/man\n" sed 1d runtime
	sed 1d runtime | while read -r p; do
		[ -e "$PWD/stage${p#/stage}" ] || atf_fail "COPY --from=build $p: not staged"
	done
	atf_check -o match:'^tracelint [0-9]' stage/usr/local/bin/tracelint --version
	atf_check test -f stage/usr/local/share/man/man1/tracelint.1

	# The runtime packages are those owning the libraries the binary links.
	ldd stage/usr/local/bin/tracelint | awk '$3 ~ /^\// {print $3}' > libs
	[ -s libs ] || atf_fail "ldd found no shared library"
	while read -r lib; do
		owner=
		for p in "$lib" "$(readlink -f "$lib")" "/usr$lib" "${lib#/usr}"; do
			owner=$(dpkg -S "$p" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
		done
		[ -n "$owner" ] || atf_fail "no package owns $lib"
		[ "$owner" = libc6 ] || echo "$owner"
	done < libs | sort -u | tr '\n' ' ' | sed 's/ $//' > linked
	atf_check -o file:linked sh -c "head -n 1 runtime | tr -d '\n'"
}

atf_init_test_cases() {
	atf_add_test_case image
}
