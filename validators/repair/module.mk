# The repair campaign (validators/repair/campaign/): a program of its own,
# run small by tests/repair/campaign_test and large by `make repair-campaign`,
# which writes its figures into reports/repair.md.
REPAIR_CAMPAIGN := $(O)/repair-campaign
$(REPAIR_CAMPAIGN): validators/repair/campaign/repair_campaign.c $(LIB)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -o $@ $< $(LIB) $(LDLIBS) $(LDSAN)
TEST_EXTRA += $(REPAIR_CAMPAIGN)

# Real producer output of each format: the clang/compiler-rt XRay traces
# (corpus/xray/make-real-traces.sh) and LLVM's own version-1 trace; the
# corpus's generated DCFG-trace and DCFG files (corpus/dcfg*/); gdb's tfiles
# (corpus/tfile/make-real-traces.sh).
REPAIR_XRAY_FILES := $(patsubst %,xray:%,$(filter-out %.zst,$(wildcard corpus/xray/valid/real-*.xray)) \
	corpus/xray/valid/fdr-log-version-1.xray)
REPAIR_DCFG_TRACE_FILES := $(patsubst %,dcfg-trace:corpus/dcfg-trace/valid/%.trace.json, \
	gen_program_s12 gen_walk_skew256 hello)
REPAIR_DCFG_FILES := $(patsubst %,dcfg:corpus/dcfg/valid/%.dcfg.json,gen_program_s12 dcfg_flow)
REPAIR_TFILE_FILES := $(patsubst %,tfile:corpus/tfile/valid/gdb-%.tf,several while-stepping regs memory tsv)
REPAIR_CUTS ?= 10000
REPAIR_FLIPS ?= 10000

# The large campaign: its table goes to $(O)/repair-campaign.md, for reports/repair.md.
.PHONY: repair-campaign
repair-campaign: $(REPAIR_CAMPAIGN)
	@echo "repair campaign: $(REPAIR_CUTS) cuts and $(REPAIR_FLIPS) flips per format, real readers run"
	{ $(REPAIR_CAMPAIGN) --readers --cuts $(REPAIR_CUTS) --flips $(REPAIR_FLIPS) $(REPAIR_XRAY_FILES); \
	  $(REPAIR_CAMPAIGN) --readers --cuts $(REPAIR_CUTS) --flips $(REPAIR_FLIPS) $(REPAIR_DCFG_TRACE_FILES) | tail -n +3; \
	  $(REPAIR_CAMPAIGN) --readers --cuts $(REPAIR_CUTS) --flips $(REPAIR_FLIPS) $(REPAIR_DCFG_FILES) | tail -n +3; \
	  $(REPAIR_CAMPAIGN) --readers --cuts $(REPAIR_CUTS) --flips $(REPAIR_FLIPS) $(REPAIR_TFILE_FILES) | tail -n +3; \
	} > $(O)/repair-campaign.md
	@cat $(O)/repair-campaign.md
