# The library's packaging: the static archive ($(LIB), GNUmakefile), the
# shared library libtracelint.so.$(SO_MAJOR) with a version script, the
# pkg-config file, and their installation (`make install`).
#
# Library objects are position-independent (they go into both) and hidden by
# default: only the TL_API declarations of tracelint.h are exported.
SO_MAJOR := 1
SO_VERSION := $(SO_MAJOR).0.0
SO_NAME := libtracelint.so.$(SO_MAJOR)
SHLIB := $(O)/libtracelint.so.$(SO_VERSION)
SHLIB_LINKS := $(O)/$(SO_NAME) $(O)/libtracelint.so
LIB_VERSION_SCRIPT := validators/include/libtracelint.map
TRACELINT_VERSION_STRING := $(shell sed -n 's/^\#define TRACELINT_VERSION "\(.*\)"/\1/p' validators/include/tracelint.h)

# (LIB_CFLAGS, not CFLAGS: a CFLAGS given on the command line, as the fuzzing
# builds give one, must not drop them)
$(LIB_OBJS): LIB_CFLAGS := -fPIC -fvisibility=hidden
# Objects of a build directory made before these flags are rebuilt once.
$(LIB_OBJS): $(O)/.lib-objects-pic
$(O)/.lib-objects-pic:
	@mkdir -p $(@D)
	@touch $@

# `make lib` is the archive alone (what the fuzzing builds link); `all` and
# the tests add the shared library.
all: $(SHLIB_LINKS)
tests: $(SHLIB_LINKS)

$(SHLIB): $(LIB_OBJS) $(LIB_VERSION_SCRIPT)
	$(CC) $(OPT) $(LDFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=$(LIB_VERSION_SCRIPT) \
		-o $@ $(LIB_OBJS) $(LDLIBS) $(LDSAN)

$(SHLIB_LINKS): $(SHLIB)
	ln -sf $(notdir $(SHLIB)) $(O)/$(SO_NAME)
	ln -sf $(SO_NAME) $(O)/libtracelint.so

# pkg-config: plain --libs links the shared library (which records its own
# dependencies); --static adds what the archive needs.
$(O)/tracelint.pc: validators/tracelint.pc.in validators/include/tracelint.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(TRACELINT_VERSION_STRING)|g' $< > $@

.PHONY: install-lib
install: install-lib
install-lib: $(SHLIB_LINKS) $(LIB) $(O)/tracelint.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libtracelint.a
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/$(notdir $(SHLIB))
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(PREFIX)/lib/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(PREFIX)/lib/libtracelint.so
	install -m 644 validators/include/tracelint.h $(DESTDIR)$(PREFIX)/include/tracelint.h
	install -m 644 $(O)/tracelint.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/tracelint.pc
	install -d $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 validators/tracelint.3 $(DESTDIR)$(PREFIX)/share/man/man3/tracelint.3
	for f in tl_options_init tl_validate_path tl_validate_buffer tl_validate_members tl_detect_path \
		tl_stream_new tl_stream_feed tl_stream_finish tl_stream_free tl_writer_new tl_version \
		tl_diagnostic_fingerprint; do \
		echo '.so man3/tracelint.3' > $(DESTDIR)$(PREFIX)/share/man/man3/$$f.3; done

# The ABI baseline: what libtracelint.so.$(SO_MAJOR) promises, as abidw
# (Debian abigail-tools) describes its public types and functions. make
# check compares the library with it (tests/lib/abi_test.sh); after a
# deliberate change (a function added, a field appended to a sized struct),
# `make abi-baseline` records the new ABI, which the change's review reads.
ABI_BASELINE := validators/include/libtracelint.abi
ABIDW_FLAGS := --no-corpus-path --no-comp-dir-path --short-locs --headers-dir validators/include --drop-private-types

.PHONY: abi-baseline
abi-baseline:
	$(MAKE) O=$(SAN_O) SANITIZE=1 CC=gcc $(SAN_O)/libtracelint.so
	abidw $(ABIDW_FLAGS) --out-file $(ABI_BASELINE) $(SAN_O)/libtracelint.so

# The worked examples (validators/examples/): built against this build's
# library and run by tests/lib/examples_test.sh.
EXAMPLE_BINS := $(patsubst validators/examples/%.c,$(O)/examples/%,$(wildcard validators/examples/*.c))
TEST_EXTRA += $(EXAMPLE_BINS)
$(O)/examples/%: validators/examples/%.c validators/examples/tiny_tracer.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LIB) $(LDLIBS) $(LDSAN)
