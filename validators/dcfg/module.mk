# The DCFG JSON Schemas (grammars/) are checked against the valid corpus
# with a real draft 2020-12 validator (tests/dcfg/schema_test.sh; its
# Debian package is in tests/packages.txt).
