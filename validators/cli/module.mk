# The CLI: inih reads its config files (.tracelint.ini); -j runs threads.
CLI_LDLIBS += -linih -pthread

# SARIF checked as GitHub code scanning reads it: Microsoft's SARIF
# multitool, from npm, installed into the build directory by `make deps`
# (tooling only; nothing links it). Without npm the test says it is skipped.
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL := $(abspath $(BUILD))/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
deps: deps-sarif-multitool
deps-sarif-multitool:
	@if [ -x $(SARIF_MULTITOOL) ]; then exit 0; fi; \
	if ! command -v npm > /dev/null; then echo "npm not found: the SARIF multitool test will be skipped"; exit 0; fi; \
	echo "installing @microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION) into $(BUILD)/npm"; \
	mkdir -p $(BUILD)/npm && npm install --silent --no-audit --no-fund --prefix $(BUILD)/npm \
		@microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION) && chmod u+x $(SARIF_MULTITOOL)
.PHONY: deps-sarif-multitool

# Unit tests of the CLI's parts (tests/cli/*_unit.c) link its objects but main().
CLI_PART_OBJS := $(filter-out %/main.o,$(CLI_OBJS))
$(O)/tests/cli/%_unit: tests/cli/%_unit.c $(TEST_SUPPORT) $(CLI_PART_OBJS) $(LIB)
	@mkdir -p $(@D)
	@echo "  TEST    $<"
	@$(CC) $(CFLAGS_ALL) -Ivalidators/cli -o $@ $< $(TEST_SUPPORT) $(CLI_PART_OBJS) $(LIB) -latf-c \
		$(LDLIBS) $(CLI_LDLIBS) $(LDSAN)
