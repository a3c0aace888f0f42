# The conformance kit (issue 9): build/tracelint-conform, its install rule and
# `make conformance`. Included by the GNUmakefile before the library's
# variables exist, so prerequisites name $(O)/libtracelint.a directly.
CONFORM_SRCS := $(wildcard validators/conform/*.c)
CONFORM_OBJS := $(patsubst %.c,$(O)/obj/%.o,$(CONFORM_SRCS))
CONFORM_BIN := $(O)/tracelint-conform

# The structure-aware mutators of the fuzzing work, when the tree has them;
# the kit's own byte-level mutator serves the other formats.
CONFORM_TLM := $(wildcard fuzzers/mutators/mutator_util.c)
ifneq ($(CONFORM_TLM),)
CONFORM_TLM_SRCS := $(CONFORM_TLM) $(wildcard fuzzers/mutators/xray_mutator.c fuzzers/mutators/tfile_mutator.c)
CONFORM_OBJS += $(patsubst %.c,$(O)/obj/%.o,$(CONFORM_TLM_SRCS))
CONFORM_TLM_DEFS := -DCONFORM_HAVE_TLM \
	$(if $(wildcard fuzzers/mutators/xray_mutator.c),-DCONFORM_TLM_XRAY) \
	$(if $(wildcard fuzzers/mutators/tfile_mutator.c),-DCONFORM_TLM_TFILE)
$(O)/obj/validators/conform/mutator.o: CFLAGS += $(CONFORM_TLM_DEFS)
$(patsubst %.c,$(O)/obj/%.o,$(CONFORM_TLM_SRCS)): CFLAGS += -Ifuzzers/mutators
endif

all: $(CONFORM_BIN)
tests: $(CONFORM_BIN)

# Where the installed program looks for the corpus.
$(O)/obj/validators/conform/main.o: CFLAGS += -DCONFORM_DATADIR='"$(PREFIX)/share/tracelint"'

$(CONFORM_BIN): $(CONFORM_OBJS) $(O)/libtracelint.a
	$(CC) $(OPT) $(LDFLAGS) -o $@ $(CONFORM_OBJS) $(O)/libtracelint.a $(LDLIBS) $(LDSAN)

.PHONY: install-conform conformance
install-conform: $(CONFORM_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(CONFORM_BIN) $(DESTDIR)$(PREFIX)/bin/tracelint-conform
	install -m 644 validators/conform/tracelint-conform.1 $(DESTDIR)$(PREFIX)/share/man/man1/tracelint-conform.1
	install -d $(DESTDIR)$(PREFIX)/share/tracelint/readers
	install -m 755 validators/conform/readers/gdb-tfile.sh $(DESTDIR)$(PREFIX)/share/tracelint/readers/gdb-tfile.sh
