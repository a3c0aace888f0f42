#! /usr/bin/env atf-sh
# Nothing under validators/ includes or links anything under fuzzers/: the
# fuzzers build on the library and on the mutator library
# (validators/mutate/), never the other way round. Three witnesses: the
# headers the compiler read for each object of validators/ (its .d file),
# the #include lines of the sources, and the module.mk files that add
# objects, archives or include directories to a link.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

# Prints each place under SRC (sources, module.mk) and OBJ (dependency
# files of the objects of SRC/validators) that reaches into fuzzers/.
upward_refs() {
	src=$1 obj=$2
	find "$obj/validators" -name '*.d' -exec grep -HE '(^|[ /])fuzzers/' {} + 2>/dev/null
	grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]*/)?fuzzers/' \
		--include='*.c' --include='*.h' "$src/validators"
	find "$src/validators" -name module.mk -exec grep -HnE '^[^#]*fuzzers/' {} +
}

atf_test_case validators_stay_below_fuzzers
validators_stay_below_fuzzers_head() {
	atf_set "descr" "no object, source or module.mk of validators/ includes or links fuzzers/"
}
validators_stay_below_fuzzers_body() {
	# the witnesses are there: the conformance kit and the mutator library were compiled
	for dir in conform mutate core; do
		ls "$BUILDDIR/obj/validators/$dir/"*.d > /dev/null 2>&1 ||
			atf_fail "no dependency files for validators/$dir in $BUILDDIR/obj"
	done
	upward_refs "$SRCDIR" "$BUILDDIR" > refs
	if [ -s refs ]; then
		cat refs
		atf_fail "validators/ reaches into fuzzers/ (listed above)"
	fi
}

atf_test_case finds_upward_refs
finds_upward_refs_head() {
	atf_set "descr" "an include, a dependency and a link into fuzzers/ are each reported"
}
finds_upward_refs_body() {
	mkdir -p src/validators/kit obj/validators/kit
	printf '#include "fuzzers/mutators/glue.h"\n#include "validators/mutate/mutator.h"\n' > src/validators/kit/a.c
	printf 'obj/validators/kit/a.o: validators/kit/a.c \\\n fuzzers/mutators/glue.h\n' > obj/validators/kit/a.d
	printf '# fuzzers/ is named in this comment only\n$(KIT): fuzzers/afl_glue.o\n' > src/validators/kit/module.mk
	upward_refs src obj > refs
	atf_check -o match:'a\.d:.*fuzzers/mutators/glue\.h' cat refs
	atf_check -o match:'a\.c:1:#include "fuzzers/mutators/glue\.h"' cat refs
	atf_check -o match:'module\.mk:2:.*fuzzers/afl_glue\.o' cat refs
	atf_check -o inline:'3\n' sh -c 'wc -l < refs | tr -d " "'
}

atf_init_test_cases() {
	atf_add_test_case validators_stay_below_fuzzers
	atf_add_test_case finds_upward_refs
}
