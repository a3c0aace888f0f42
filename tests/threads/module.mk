# The reentrancy test program (tests/threads/reentrancy.c), built twice: with
# the suite's compiler and sanitizers against the library, and with clang's
# ThreadSanitizer against a TSan build of the library's sources.
THREADS_BIN := $(O)/threads/reentrancy
THREADS_TSAN_BIN := $(O)/threads/reentrancy-tsan
TSAN_O := $(O)/tsan-obj
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_OBJS := $(patsubst %.c,$(TSAN_O)/%.o,$(LIB_SRCS))

$(THREADS_BIN): tests/threads/reentrancy.c $(LIB)
	@mkdir -p $(@D)
	@echo "  TEST    $<"
	@$(CC) $(CFLAGS_ALL) -pthread -o $@ $< $(LIB) $(LDLIBS) $(LDSAN)

$(TSAN_O)/%.o: %.c $(GEN)/rules.inc
	@mkdir -p $(@D)
	@$(FUZZ_CC) $(CSTD) $(TSAN_FLAGS) $(INCLUDES) -MMD -MP -c $< -o $@

# Header dependencies, so that a changed struct rebuilds every object using
# it (objects made before they were tracked are rebuilt once, by the stamp).
-include $(shell find $(TSAN_O) -name '*.d' 2>/dev/null)
$(TSAN_OBJS): $(TSAN_O)/.headers-tracked
$(TSAN_O)/.headers-tracked:
	@mkdir -p $(@D)
	@touch $@

$(THREADS_TSAN_BIN): tests/threads/reentrancy.c $(TSAN_OBJS)
	@mkdir -p $(@D)
	@echo "  TSAN    $<"
	@$(FUZZ_CC) $(CSTD) $(TSAN_FLAGS) $(INCLUDES) -pthread -o $@ $< $(TSAN_OBJS) $(LDLIBS)

TEST_EXTRA += $(THREADS_BIN) $(THREADS_TSAN_BIN)

# The parallel bzip2 decoder under ThreadSanitizer (equiv_test.sh).
BZIP2_PAR_TSAN_BIN := $(O)/threads/bzip2-par-tsan
$(BZIP2_PAR_TSAN_BIN): tests/threads/bzip2_par.c $(TSAN_OBJS)
	@mkdir -p $(@D)
	@echo "  TSAN    $<"
	@$(FUZZ_CC) $(CSTD) $(TSAN_FLAGS) $(INCLUDES) -pthread -o $@ $< $(TSAN_OBJS) $(LDLIBS)

TEST_EXTRA += $(BZIP2_PAR_TSAN_BIN)
