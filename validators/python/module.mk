# The Python binding: one pure-Python module over libtracelint.so (ctypes),
# installed by `make install` for the system's python3 (PYTHON), into its
# site directory for local packages (PYTHON_SITE). Tested by
# tests/lib/python_test.sh with pytest.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYTHON_SITE ?= $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("purelib"))' 2> /dev/null)

.PHONY: install-python
install: install-python
install-python:
	@if [ -z "$(PYTHON_SITE)" ]; then echo "no python3: the Python binding is not installed"; exit 0; fi; \
	install -d $(DESTDIR)$(PYTHON_SITE) && \
	install -m 644 validators/python/tracelint.py $(DESTDIR)$(PYTHON_SITE)/tracelint.py
