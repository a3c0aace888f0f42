meta:
  id: syscall_offsets
  title: UMTracer system call block index (syscall.offsets)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file syscall.offsets (rule catalog: specs/umtrace.md):
  one (Offset, Size) pair per system call, the block of syscall.vtable that
  holds it, nothing else. Little-endian. The pairs point into another file,
  which Kaitai cannot follow, so what this grammar needs of syscall.vtable
  comes in as parameters: its header's RecordCount and its size. Whether two
  blocks share a byte (UMT-SYSCALL-BLOCK-OVERLAP) compares every block with
  the others, which Kaitai cannot express: the validator checks it.
params:
  - id: num_blocks
    type: s8
    doc: RecordCount of the syscall.vtable header (UMT-SYSCALL-OFFSETS-SIZE).
  - id: len_vtable
    type: s8
    doc: The size of syscall.vtable in bytes (UMT-SYSCALL-BLOCK-IN-FILE).
seq:
  - id: blocks
    type: block
    repeat: expr
    repeat-expr: num_blocks
    doc: The block of syscall i; a file too short for RecordCount pairs fails here (UMT-SYSCALL-OFFSETS-SIZE).
  - id: tail
    size-eos: true
    valid:
      expr: _.length == 0 and num_blocks >= 0
    doc: Nothing follows the last pair, and RecordCount is not negative (UMT-SYSCALL-OFFSETS-SIZE).
types:
  block:
    seq:
      - id: ofs_block
        type: s8
        valid:
          min: 16
        doc: Offset of the block in syscall.vtable, after its 16-byte header (UMT-SYSCALL-BLOCK-IN-FILE).
      - id: len_block
        type: s8
        valid:
          expr: _ >= 64 and _ <= _root.len_vtable - ofs_block
        doc: |
          Size of the block, at least the 64-byte syscallRec, the block ending
          inside syscall.vtable (UMT-SYSCALL-BLOCK-IN-FILE; no two blocks
          overlapping is UMT-SYSCALL-BLOCK-OVERLAP, outside the grammar).
