# `make conformance-tfile`: gdb's `target tfile` plus a walk over every frame
# (validators/conform/readers/gdb-tfile.sh) on every tfile corpus case through
# the conformance kit, every disagreement explained from
# reports/conformance/explain/gdb-tfile.txt; written to
# reports/conformance/tfile.md under the prose of tfile-notes.md. Needs gdb.
.PHONY: conformance-tfile
conformance-tfile: $(CONFORM_BIN)
	$(CONFORM_BIN) --format=tfile --list=all --timeout=60 \
		--explain=reports/conformance/explain/gdb-tfile.txt \
		--reader='$(GDB_TFILE_READER)' --report=$(O)/tfile-gdb.md corpus/tfile || test $$? = 1
	{ cat reports/conformance/tfile-notes.md; echo; sed 's/^#/##/' $(O)/tfile-gdb.md; } \
		> reports/conformance/tfile.md
