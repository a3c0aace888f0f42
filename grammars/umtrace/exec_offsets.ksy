meta:
  id: exec_offsets
  title: UMTracer execution record offsets (exec.offsets)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file exec.offsets (rule catalog: specs/umtrace.md):
  RecordCount + 1 file offsets into exec.vtable, nothing else; record i is
  [Offset[i], Offset[i+1]) of exec.vtable. Little-endian. The offsets point
  into another file, which Kaitai cannot follow, so what this grammar needs
  of exec.vtable comes in as parameters: its header's RecordCount and its size.
  A reader reads the exec.vtable header first, then parses this file with both.
  What the records hold is checked by the validator (see exec_vtable.ksy).
params:
  - id: num_records
    type: s8
    doc: RecordCount of the exec.vtable header (UMT-EXEC-OFFSETS-SIZE).
  - id: len_vtable
    type: s8
    doc: The size of exec.vtable in bytes (UMT-EXEC-END-OFFSET).
seq:
  - id: offsets
    type: s8
    repeat: expr
    repeat-expr: num_records + 1
    valid:
      expr: |
        (_index == 0 ? _ >= 16 : _ > offsets[_index - 1]) and
          (_index < num_records or _ <= len_vtable)
    doc: |
      Offset[i] in exec.vtable: Offset[0] at or after the 16-byte header
      (UMT-EXEC-FIRST-OFFSET; past it is the warning UMT-EXEC-GAP-AFTER-HEADER),
      each above the one before (UMT-EXEC-OFFSETS-ORDER), the last not beyond
      the end of exec.vtable (UMT-EXEC-END-OFFSET; before it is the warning
      UMT-EXEC-TRAILING-BYTES). A file too short for RecordCount + 1 of them
      fails here (UMT-EXEC-OFFSETS-SIZE).
  - id: tail
    size-eos: true
    valid:
      expr: _.length == 0
    doc: Nothing follows the last offset (UMT-EXEC-OFFSETS-SIZE).
