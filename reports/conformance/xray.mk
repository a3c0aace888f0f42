# `make conformance-xray`: llvm-xray 14 (`fdr-dump --verify` and `convert`) on
# every XRay corpus case through the conformance kit, every disagreement
# explained from reports/conformance/explain/llvm-xray.txt; written to
# reports/conformance/xray.md under the prose of xray-notes.md. Needs llvm-xray
# (Debian package llvm). The kit exits 1 when the reader disagrees: that is the
# report's content, not a failure.
XRAY_CONFORM = $(CONFORM_BIN) --format=xray --list=all \
	--explain=reports/conformance/explain/llvm-xray.txt

.PHONY: conformance-xray
conformance-xray: $(CONFORM_BIN)
	$(XRAY_CONFORM) --reader='$(LLVM_XRAY) fdr-dump --verify {}' --report=$(O)/xray-fdr-dump.md corpus/xray \
		|| test $$? = 1
	$(XRAY_CONFORM) --reader='$(LLVM_XRAY) convert --output-format=yaml --output=/dev/null {}' \
		--report=$(O)/xray-convert.md corpus/xray || test $$? = 1
	{ cat reports/conformance/xray-notes.md; echo; sed 's/^#/##/' $(O)/xray-fdr-dump.md; \
	  echo; sed 's/^#/##/' $(O)/xray-convert.md; } > reports/conformance/xray.md
