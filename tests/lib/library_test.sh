#! /usr/bin/env atf-sh
# libtracelint as a library people link: the shared object exports exactly
# the documented API, `make install` gives a pkg-config file with which a
# program links against the shared library (and, with --static, the
# archive), and the version a program runs with is the one it was built for.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# The functions tracelint.h declares TL_API.
documented() {
	sed -n 's/^TL_API [^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' "$SRCDIR/validators/include/tracelint.h" | sort
}

atf_test_case exports_only_the_api
exports_only_the_api_head() { atf_set "descr" "the shared library exports every TL_API function and nothing else"; }
exports_only_the_api_body() {
	documented > api
	atf_check -o match:'^tl_validate_path_sized$' cat api
	atf_check -o match:'^tl_stream_feed$' cat api
	nm -D --defined-only "$BUILDDIR/libtracelint.so" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' |
		grep -v '^TRACELINT_' | sort > exported
	atf_check -o empty comm -3 api exported
	# every export carries the version node
	atf_check -o inline:"TRACELINT_1.0\n" sh -c "objdump -T '$BUILDDIR/libtracelint.so' | awk '/ tl_/ { print \$(NF-1) }' | sort -u"
	atf_check -o match:'SONAME +libtracelint\.so\.1$' objdump -p "$BUILDDIR/libtracelint.so"
}

atf_test_case catches_extra_exports
catches_extra_exports_head() { atf_set "descr" "the export check fails on a library exporting more"; }
catches_extra_exports_body() {
	documented > api
	{ cat api; echo json_parse; } | sort > exported
	atf_check -o match:'json_parse' comm -3 api exported
}

# A program of a producer's test suite: validates a file, prints the verdict.
write_program() {
	cat > prog.c <<'C'
#include <stdio.h>
#include <string.h>
#include <tracelint.h>

int main(int argc, char **argv)
{
	struct tl_options opts;
	struct tl_result result;
	char err[256];
	tl_options_init(&opts);
	if (argc != 2 || strcmp(tl_version(), TRACELINT_VERSION) != 0)
		return 3;
	enum tl_status s = tl_validate_path(argv[1], &opts, &result, err, sizeof err);
	if (s != TL_OK) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	printf("%s %s %d\n", tl_format_name(result.format), result.valid ? "valid" : "invalid",
	       tl_version_number());
	return result.valid ? 0 : 1;
}
C
}

install_into() {
	atf_check -o ignore -e ignore make -C "$SRCDIR" O="$BUILDDIR" SANITIZE=1 CC=gcc \
		PREFIX=/usr/local DESTDIR="$1" install
}

atf_test_case installed_and_linked
installed_and_linked_head() {
	atf_set "descr" "make install DESTDIR=...; cc \$(pkg-config --cflags --libs tracelint) links the shared library and runs"
	atf_set "require.progs" "pkg-config make"
	atf_set "timeout" "600"
}
installed_and_linked_body() {
	install_into "$PWD/root"
	lib="$PWD/root/usr/local/lib"
	atf_check test -f "$lib/libtracelint.so.1.0.0" -a -L "$lib/libtracelint.so.1" -a -L "$lib/libtracelint.so"
	atf_check test -f "$lib/libtracelint.a" -a -f "$PWD/root/usr/local/include/tracelint.h"
	export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$PWD/root"
	atf_check -o match:'^-L.*/root/usr/local/lib -ltracelint *$' pkg-config --libs tracelint
	atf_check -o match:'-lbz2' -o match:'-ljson-c' -o match:'-lzstd' -o match:'-lexpat' pkg-config --static --libs tracelint
	write_program
	# the library in this build is sanitized, so the program is too
	san="-fsanitize=address,undefined"
	atf_check cc $san -o prog prog.c $(pkg-config --cflags --libs tracelint)
	atf_check -o match:'libtracelint\.so\.1 => .*/root/usr/local/lib/libtracelint\.so\.1' \
		env LD_LIBRARY_PATH="$lib" ldd ./prog
	atf_check -s exit:0 -o inline:"xray valid 100\n" env LD_LIBRARY_PATH="$lib" \
		./prog "$SRCDIR/corpus/xray/valid/real-fdr-v5.xray"
	atf_check -s exit:1 -o inline:"tfile invalid 100\n" env LD_LIBRARY_PATH="$lib" \
		./prog "$SRCDIR/corpus/tfile/invalid/header-version.tf"
	# --static: the archive, no libtracelint.so needed at run time
	atf_check cc $san -o prog-static prog.c -Wl,-Bstatic $(pkg-config --cflags --libs-only-L tracelint) -ltracelint \
		-Wl,-Bdynamic $(pkg-config --static --libs-only-l tracelint | sed 's/-ltracelint//')
	atf_check -o not-match:'libtracelint' ldd ./prog-static
	# the Python binding goes where the system's python3 finds local modules
	atf_check -o match:'/tracelint\.py$' sh -c "find '$PWD/root' -name tracelint.py"
	atf_check -s exit:0 -o inline:"xray valid 100\n" ./prog-static "$SRCDIR/corpus/xray/valid/real-fdr-v5.xray"
}

atf_init_test_cases() {
	atf_add_test_case exports_only_the_api
	atf_add_test_case catches_extra_exports
	atf_add_test_case installed_and_linked
}
