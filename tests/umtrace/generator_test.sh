#! /usr/bin/env atf-sh
# Traces written by umtgen (corpus/umtrace/umtgen.c) validate without any diagnostic,
# across word sizes, exec versions, thread counts and abrupt endings; and a poked
# byte is caught by the rule it breaks.

BUILDDIR='@BUILDDIR@'

atf_test_case variants_validate
variants_validate_head() { atf_set descr "generated traces of every variant are valid"; }
variants_validate_body() {
	for args in "-s 1" "-s 2 -b 32" "-s 3 -v 0" "-s 4 -a" "-s 5 -b 32 -v 0 -a -t 9 -n 400" "-s 6 -t 1" \
		"-x -s 1" "-x -s 2 -b 32 -a" "-x -s 3 -v 0 -a -t 9 -n 400" "-x -s 4 -a -n 2000" "-o -s 7 -n 2000" "-o -x -b 32 -s 8 -a -n 1500"; do
		rm -rf t
		"$BUILDDIR/umtgen" gen t $args || atf_fail "umtgen gen $args failed"
		"$BUILDDIR/tracelint" t > out 2>&1 || { cat out; atf_fail "trace from '$args' is invalid"; }
		grep -q 'valid (umtrace: 0 errors, 0 warnings;' out || { cat out; atf_fail "diagnostics for '$args'"; }
	done
}

atf_test_case poke_is_caught
poke_is_caught_head() { atf_set descr "a context map with ElemCount 600 is reported as UMT-CMAP-COUNT"; }
poke_is_caught_body() {
	"$BUILDDIR/umtgen" gen t -s 1 || atf_fail "umtgen failed"
	"$BUILDDIR/umtgen" poke t/context_map.itable 2 2 600
	atf_check -s exit:1 -o match:'context_map.itable:offset 2: error: .*\[UMT-CMAP-COUNT\]' "$BUILDDIR/tracelint" t
}

# Offset in exec.vtable of the first instruction record of shape (InsID) $2, from the
# layout map $1 written by umtgen -m.
first_record_of() {
	awk '$1 == "rec" && $4 == "0" { print $8 }' "$1" | while read -r pos; do
		id=$(od -An -tu8 -j $((pos + 6)) -N8 t/exec.vtable | tr -d ' ')
		[ "$id" = "$2" ] && { echo "$pos"; break; }
	done
}

atf_test_case extended_shapes_are_checked
extended_shapes_are_checked_head() {
	atf_set descr "-x traces: a wrong AGEN value and a wrong MEM1 address are UMT-SLOT-ADDRESS-VALUE; the aborted flag on a last record is accepted"
}
extended_shapes_are_checked_body() {
	"$BUILDDIR/umtgen" gen t -x -s 4 -a -n 400 -m map || atf_fail "umtgen failed"
	last=$(awk '$1 == "rec" { p = $8 } END { print p }' map)
	flags=$(od -An -tu1 -j $((last + 5)) -N1 t/exec.vtable | tr -d ' ')
	[ $((flags & 128)) = 128 ] || atf_fail "the last record has flags $flags, expected 0x80 set"
	atf_check -o match:'valid \(umtrace: 0 errors, 0 warnings;' "$BUILDDIR/tracelint" t
	lea=$(first_record_of map 3)
	movs=$(first_record_of map 4)
	[ -n "$lea" ] && [ -n "$movs" ] || atf_fail "no lea or rep movsb record in the trace"
	"$BUILDDIR/umtgen" poke t/exec.vtable $((lea + 14 + 16)) 8 0x10000
	"$BUILDDIR/umtgen" poke t/exec.vtable $((movs + 14 + 16)) 8 0x10001
	atf_check -o match:"exec.vtable:offset $((lea + 30)): warning: .*AGEN slot 2.*\[UMT-SLOT-ADDRESS-VALUE\]" \
		-o match:"exec.vtable:offset $((movs + 30)): warning: .*MEM1 slot 2.*\[UMT-SLOT-ADDRESS-VALUE\]" \
		-o match:'valid \(umtrace: 0 errors, 2 warnings;' "$BUILDDIR/tracelint" t
}

atf_init_test_cases() {
	atf_add_test_case extended_shapes_are_checked
	atf_add_test_case variants_validate
	atf_add_test_case poke_is_caught
}
