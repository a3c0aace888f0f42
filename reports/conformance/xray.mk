# `make conformance-xray`: our verdict vs llvm-xray 14's on every XRay corpus case,
# written to reports/conformance/xray.md. Needs llvm-xray (Debian package llvm).
.PHONY: conformance-xray
conformance-xray: $(BIN)
	{ cat reports/conformance/xray-notes.md; echo; \
	  echo '| case | corpus | tracelint | fdr-dump --verify | convert | first llvm-xray message |'; \
	  echo '|------|--------|-----------|-------------------|---------|------------------------|'; \
	  sh reports/conformance/xray-conformance.sh $(BIN); } > reports/conformance/xray.md.tmp
	mv reports/conformance/xray.md.tmp reports/conformance/xray.md
