# The rules' explanations (specs/*.md, "### RULE-ID" blocks) and their corpus
# examples, compiled into the CLI for --explain and the rule pages.
$(GEN)/explain.inc: $(SPECS) validators/core/gen-rules.awk
	@mkdir -p $(@D)
	awk -v emit=explain -f validators/core/gen-rules.awk $(SPECS) > $@.tmp && mv $@.tmp $@

EXAMPLE_CASES := $(shell find corpus -name '*.expected' ! -name '*.content.expected' 2>/dev/null)
$(GEN)/examples.inc: specs/gen-examples.sh $(EXAMPLE_CASES)
	@mkdir -p $(@D)
	sh specs/gen-examples.sh corpus > $@.tmp && mv $@.tmp $@

$(O)/obj/validators/cli/explain.o: $(GEN)/explain.inc $(GEN)/examples.inc

# The rule reference: one Markdown page per rule (the target a rule's help
# link can name) and tracelint-rules(7), written from what --explain prints.
RULE_DOCS := $(O)/doc/tracelint-rules.7
$(RULE_DOCS): $(BIN) specs/gen-rule-docs.sh
	rm -rf $(O)/doc/rules
	sh specs/gen-rule-docs.sh $(BIN) $(O)/doc $(TRACELINT_VERSION_STRING)

all: $(RULE_DOCS)
TEST_EXTRA += $(RULE_DOCS)

.PHONY: install-rule-docs
install: install-rule-docs
install-rule-docs: $(RULE_DOCS)
	install -d $(DESTDIR)$(PREFIX)/share/man/man7 $(DESTDIR)$(PREFIX)/share/doc/tracelint/rules
	install -m 644 $(RULE_DOCS) $(DESTDIR)$(PREFIX)/share/man/man7/tracelint-rules.7
	install -m 644 $(O)/doc/rules/*.md $(DESTDIR)$(PREFIX)/share/doc/tracelint/rules/

# The message templates (the catalogs' "## Messages" tables) as MSG_* macros.
# Everything that needs rules.inc first needs them too.
$(GEN)/messages.h: $(SPECS) validators/core/gen-rules.awk
	@mkdir -p $(@D)
	awk -v emit=messages -f validators/core/gen-rules.awk $(SPECS) > $@.tmp && mv $@.tmp $@
$(GEN)/rules.inc: $(GEN)/messages.h

# Former rule IDs (a catalog row's fifth cell), accepted as aliases.
$(GEN)/aliases.inc: $(SPECS) validators/core/gen-rules.awk
	@mkdir -p $(@D)
	awk -v emit=aliases -f validators/core/gen-rules.awk $(SPECS) > $@.tmp && mv $@.tmp $@
$(O)/obj/validators/core/rule_alias.o: $(GEN)/aliases.inc
