#! /usr/bin/env atf-sh
# The Python binding's tests (tests/python/, pytest) over this build's shared
# library. The library is built with ASan+UBSan here, so their runtimes are
# preloaded into the Python interpreter.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case pytest
pytest_head() {
	atf_set "descr" "python3 -m pytest tests/python against libtracelint.so"
	atf_set "require.progs" "gcc"
}
pytest_body() {
	py=/usr/bin/python3
	[ -x "$py" ] || py=python3
	"$py" -c 'import pytest' 2> /dev/null || atf_skip "pytest is not installed for $py (make deps installs python3-pytest)"
	preload=
	if nm -D "$BUILDDIR/libtracelint.so" | grep -q ' U __asan_'; then
		preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	fi
	atf_check -o match:' passed' -e ignore env TRACELINT_LIBRARY="$BUILDDIR/libtracelint.so.1" \
		TRACELINT_SOURCE_DIR="$SRCDIR" PYTHONPATH="$SRCDIR/validators/python" LD_PRELOAD="$preload" \
		ASAN_OPTIONS=detect_leaks=0 PYTHONDONTWRITEBYTECODE=1 \
		"$py" -m pytest -q -p no:cacheprovider "$SRCDIR/tests/python"
}

atf_init_test_cases() {
	atf_add_test_case pytest
}
