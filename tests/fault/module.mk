# The failure shims (failalloc.c: allocations, failsys.c: system calls) are
# LD_PRELOAD libraries, not test programs: built without sanitizers (they
# forward to the sanitizer's or libc's definitions), and taken out of the
# ATF programs.
FAILALLOC_SO := $(O)/tests/fault/failalloc.so
FAILSYS_SO := $(O)/tests/fault/failsys.so
TEST_BINS := $(filter-out $(O)/tests/fault/failalloc $(O)/tests/fault/failsys,$(TEST_BINS))
TEST_EXTRA += $(FAILALLOC_SO) $(FAILSYS_SO)

$(O)/tests/fault/%.so: tests/fault/%.c
	@mkdir -p $(@D)
	@echo "  SHIM    $<"
	@$(CC) $(CSTD) -O1 -g -fPIC -shared -o $@ $< -ldl
