# The allocation-failure shim (failalloc.c) is an LD_PRELOAD library, not a
# test program: built without sanitizers (it forwards to the sanitizer's or
# libc's allocator), and taken out of the ATF programs.
FAILALLOC_SO := $(O)/tests/fault/failalloc.so
TEST_BINS := $(filter-out $(O)/tests/fault/failalloc,$(TEST_BINS))
TEST_EXTRA += $(FAILALLOC_SO)

$(FAILALLOC_SO): tests/fault/failalloc.c
	@mkdir -p $(@D)
	@echo "  SHIM    $<"
	@$(CC) $(CSTD) -O1 -g -fPIC -shared -o $@ $< -ldl
