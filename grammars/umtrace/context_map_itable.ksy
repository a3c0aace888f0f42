meta:
  id: context_map_itable
  title: UMTracer context map (context_map.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file context_map.itable (rule catalog:
  specs/umtrace.md): a fixed block of exactly 17424 bytes with no table
  header (UMT-CMAP-SIZE); its register entries are checked by the UMT-CMAP-* rules
  outside this grammar.
seq:
  - id: map
    size: 17424
    doc: The whole map (UMT-CMAP-SIZE); nothing may follow it.
