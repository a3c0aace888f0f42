# The mutator library: structure-aware mutators and byte-level edits, with no
# fuzzing engine in it. The conformance kit, the fuzzers' engine glue and
# tests/fuzz/mutator_test link it. Read by the modules that use it before the
# GNUmakefile reaches this directory, hence the guard.
ifndef TLM_SRCS
TLM_SRCS := validators/mutate/mutator_util.c validators/mutate/bytes_mutator.c \
	validators/mutate/xray_mutator.c validators/mutate/tfile_mutator.c \
	validators/mutate/umtrace_mutator.c
TLM_LIB := $(O)/libtlmutate.a
$(TLM_LIB): $(patsubst %.c,$(O)/obj/%.o,$(TLM_SRCS))
	@rm -f $@
	$(AR) rcs $@ $^
$(O)/tests/fuzz/mutator_test: $(TLM_LIB)
$(O)/tests/fuzz/mutator_test: LDLIBS += $(TLM_LIB)
endif
