#! /usr/bin/env atf-sh
# The verdict says how the byte order of the frames was chosen, in the same
# words as the note: given (--endian), detected, or assumed when nothing tells
# the orders apart (TFILE-ENDIAN-GUESSED).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus/tfile"

atf_test_case how_the_order_was_chosen
how_the_order_was_chosen_head() { atf_set "descr" "given, detected and assumed byte orders are named as such"; }
how_the_order_was_chosen_body() {
	atf_check -o match:'little-endian \(detected\), 3 frames\)$' "$TL" -q "$C/valid/gdb-locals.tf"
	atf_check -o match:'big-endian \(given\)' "$TL" -q --endian=big "$C/valid/gdb-locals-be.tf"
	atf_check -s exit:1 -o match:'assumed little-endian' -o match:'little-endian \(assumed\), 0 frames\)$' \
		-o not-match:'\(detected\)' "$TL" "$C/invalid/endian-guessed.tf"
}

atf_init_test_cases() {
	atf_add_test_case how_the_order_was_chosen
}
