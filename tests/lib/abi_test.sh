#! /usr/bin/env atf-sh
# The ABI of libtracelint.so matches the committed baseline
# (validators/include/libtracelint.abi, `make abi-baseline`): an accidental
# change of a public type or function fails here. A library built with one
# field inserted into struct tl_result shows the check can fail.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
BASELINE="$SRCDIR/validators/include/libtracelint.abi"

ABIDIFF="abidiff --no-added-syms --hd2 $SRCDIR/validators/include --drop-private-types $BASELINE"

atf_test_case matches_baseline
matches_baseline_head() {
	atf_set "descr" "abidiff finds no change between the baseline and this build's library"
	atf_set "require.progs" "abidiff"
}
matches_baseline_body() {
	atf_check -o save:report $ABIDIFF "$BUILDDIR/libtracelint.so"
}

atf_test_case planted_break_is_caught
planted_break_is_caught_head() {
	atf_set "descr" "a field inserted into struct tl_result is reported as an ABI change"
	atf_set "require.progs" "abidiff gcc"
}
planted_break_is_caught_body() {
	mkdir include
	sed 's/^\tbool valid;$/\tint planted;\n\tbool valid;/' "$SRCDIR/validators/include/tracelint.h" > include/tracelint.h
	atf_check -o match:'int planted;' grep 'planted' include/tracelint.h
	# validate.c (which fills struct tl_result) against the altered header,
	# linked with every other object of this build's library
	atf_check gcc -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -fPIC -fvisibility=hidden \
		-fsanitize=address,undefined -Iinclude -I"$SRCDIR" -I"$SRCDIR/validators/core" \
		-I"$SRCDIR/validators/json" -I"$BUILDDIR/gen" -c "$SRCDIR/validators/core/validate.c" -o validate.o
	# the library's objects are those of its sources (not the CLI's, the kit's, the examples')
	for src in "$SRCDIR"/validators/*/*.c; do
		case $src in */cli/*|*/conform/*|*/mutate/*|*/dump/*|*/examples/*|*/core/validate.c) continue ;; esac
		rel=${src#"$SRCDIR"/}
		echo "$BUILDDIR/obj/${rel%.c}.o"
	done > objects
	atf_check gcc -shared -fsanitize=address,undefined -Wl,-soname,libtracelint.so.1 \
		-Wl,--version-script="$SRCDIR/validators/include/libtracelint.map" -o libplanted.so validate.o \
		$(cat objects) -ljson-c -lz -lbz2 -lzstd -lexpat
	atf_check -s not-exit:0 -o save:report $ABIDIFF libplanted.so
	atf_check -o match:'tl_result' cat report
}

atf_init_test_cases() {
	atf_add_test_case matches_baseline
	atf_add_test_case planted_break_is_caught
}
