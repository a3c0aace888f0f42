#! /usr/bin/env atf-sh
# Traces written by umtgen (corpus/umtrace/umtgen.c) validate without any diagnostic,
# across word sizes, exec versions, thread counts and abrupt endings; and a poked
# byte is caught by the rule it breaks.

BUILDDIR='@BUILDDIR@'

atf_test_case variants_validate
variants_validate_head() { atf_set descr "generated traces of every variant are valid"; }
variants_validate_body() {
	for args in "-s 1" "-s 2 -b 32" "-s 3 -v 0" "-s 4 -a" "-s 5 -b 32 -v 0 -a -t 9 -n 400" "-s 6 -t 1"; do
		rm -rf t
		"$BUILDDIR/umtgen" gen t $args || atf_fail "umtgen gen $args failed"
		"$BUILDDIR/tracelint" t > out 2>&1 || { cat out; atf_fail "trace from '$args' is invalid"; }
		grep -q 'valid (umtrace: 0 errors, 0 warnings)' out || { cat out; atf_fail "diagnostics for '$args'"; }
	done
}

atf_test_case poke_is_caught
poke_is_caught_head() { atf_set descr "a context map with ElemCount 600 is reported as UMT-U601"; }
poke_is_caught_body() {
	"$BUILDDIR/umtgen" gen t -s 1 || atf_fail "umtgen failed"
	"$BUILDDIR/umtgen" poke t/context_map.itable 2 2 600
	atf_check -s exit:1 -o match:'context_map.itable:2: error: .*\[UMT-U601\]' "$BUILDDIR/tracelint" t
}

atf_init_test_cases() {
	atf_add_test_case variants_validate
	atf_add_test_case poke_is_caught
}
