meta:
  id: exec_prev_next_column
  title: UMTracer per-thread record links (exec.prev_next.column)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file exec.prev_next.column (rule catalog:
  specs/umtrace.md): one Prev/Next pair of record IDs per execution record,
  nothing else. Little-endian. RecordCount comes from the exec.vtable header,
  another file, so it is a parameter. Whether Prev and Next name the
  neighbouring records of the same thread needs the records' ThreadIDs in
  exec.vtable: UMT-LINK-PREV and UMT-LINK-NEXT are the validator's, not this
  grammar's.
params:
  - id: num_links
    type: s8
    doc: RecordCount of the exec.vtable header (UMT-EXEC-LINKS-SIZE, UMT-LINK-RANGE).
seq:
  - id: links
    type: prev_next
    repeat: expr
    repeat-expr: num_links
    doc: The pair of record i; a file too short for RecordCount pairs fails here (UMT-EXEC-LINKS-SIZE).
  - id: tail
    size-eos: true
    valid:
      expr: _.length == 0
    doc: Nothing follows the last pair (UMT-EXEC-LINKS-SIZE).
types:
  prev_next:
    seq:
      - id: prev
        type: s8
        valid:
          min: -1
          max: _root.num_links - 1
        doc: The thread's previous record, -1 for its first (UMT-LINK-RANGE; UMT-LINK-PREV outside the grammar).
      - id: next
        type: s8
        valid:
          min: -1
          max: _root.num_links - 1
        doc: The thread's next record, -1 for its last (UMT-LINK-RANGE; UMT-LINK-NEXT outside the grammar).
