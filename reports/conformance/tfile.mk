# tfile conformance (issue 3): tracelint versus gdb's `target tfile` on every
# corpus/tfile case; writes reports/conformance/tfile.md. Needs gdb and jq.
.PHONY: conformance-tfile
conformance-tfile: all
	sh reports/conformance/tfile.sh $(abspath $(BIN)) reports/conformance/tfile.md
