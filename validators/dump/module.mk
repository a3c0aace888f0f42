# tracelint dump: a part of the CLI (not of the library), one file per format.
DUMP_OBJS := $(patsubst %.c,$(O)/obj/%.o,$(wildcard validators/dump/*.c))
CLI_OBJS += $(DUMP_OBJS)
# The dumpers read through each format's decoders.
$(DUMP_OBJS): CFLAGS += -Ivalidators/xray -Ivalidators/tfile -Ivalidators/dcfg -Ivalidators/umtrace

# The expected content of every valid corpus case (<case>.content.expected),
# written by tracelint dump; tests/dump/content_test.sh compares.
CONTENT_FORMATS ?= xray tfile dcfg dcfg-trace umtrace
.PHONY: corpus-content
corpus-content: $(BIN)
	sh corpus/make-content.sh $(BIN) $(CONTENT_FORMATS)

# The llvm-xray content adapter reads llvm-xray's YAML with PyYAML
# (python3-yaml, in tests/packages.txt).
