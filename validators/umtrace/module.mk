# UMTracer: trace.xml is parsed with expat; corpus/umtrace/umtgen.c writes traces.
# once, whichever of the formats that parse XML adds it first
LDLIBS += $(if $(filter -lexpat,$(LDLIBS)),,-lexpat)

UMTGEN := $(O)/umtgen
$(UMTGEN): corpus/umtrace/umtgen.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 $(WARNINGS) -o $@ $<

.PHONY: umtgen umtrace-corpus
umtgen: $(UMTGEN)
# Regenerates corpus/umtrace from the generator (valid traces and one mutation per rule).
umtrace-corpus: $(UMTGEN) $(BIN)
	sh corpus/umtrace/make-corpus.sh $(UMTGEN)

# The generator round-trip test (tests/umtrace/generator_test.sh) needs umtgen.
tests: $(UMTGEN)
