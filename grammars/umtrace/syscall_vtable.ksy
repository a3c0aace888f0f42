meta:
  id: syscall_vtable
  title: UMTracer system call records (syscall.vtable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file syscall.vtable (rule catalog: specs/umtrace.md): a
  16-byte header, then one block per system call, in any order. Little-endian.
  Where block i lies (offset and size) is held in the other member file
  syscall.offsets (grammar syscall_offsets.ksy), which Kaitai cannot follow
  from here: this grammar reads the block area whole, and a reader cuts it
  with the offsets and parses each block with the type syscall_rec below. The
  syscall.offsets grammar checks that each block lies in this file
  (UMT-SYSCALL-BLOCK-IN-FILE); syscall_rec checks what one block shows by
  itself (UMT-SYSCALL-FIELDS, UMT-SYSCALL-ARGS-IN-BLOCK,
  UMT-SYSCALL-EXTRAS-IN-BLOCK, UMT-SYSCALL-COMPLETED). That blocks do not
  overlap (UMT-SYSCALL-BLOCK-OVERLAP) and the links to the execution records
  (UMT-SYSCALL-BEGIN-EID, UMT-SYSCALL-END-EID, UMT-SYSCALL-END-ORDER,
  UMT-SYSCALL-VALUES-32BIT) are the validator's.
seq:
  - id: header
    type: syscall_header
    doc: The 16-byte header; a shorter file fails here (UMT-SYSCALL-HEADER).
  - id: blocks
    size-eos: true
    doc: The syscall blocks and any bytes no block covers; cut by syscall.offsets.
types:
  syscall_header:
    doc: The syscall.vtable header (UMT-SYSCALL-HEADER).
    seq:
      - id: version
        type: u4
        valid: 0
        doc: Version, 0 (UMT-SYSCALL-HEADER).
      - id: unified_ids_ver
        type: u4
        doc: UnifiedIDsVer, 0 or 1 (UMT-SYSCALL-IDS-VERSION, a warning, so not a valid test).
      - id: num_records
        type: s8
        doc: |
          RecordCount, not negative; syscall.offsets holds RecordCount pairs
          (UMT-SYSCALL-OFFSETS-SIZE, reported on syscall.offsets and checked by
          its grammar, which takes RecordCount as a parameter).
  syscall_rec:
    doc: |
      One system call block, parsed from its own slice [Offset, Offset + Size)
      of this file: the 64-byte syscallRec, then the data its pointers reach,
      which count from the block's first byte (UMT-SYSCALL-BLOCK-IN-FILE).
      Not reached from the top level.
    seq:
      - id: raw_id
        type: s2
        doc: RawID, the OS-specific system call number.
      - id: uniform_id
        type: s2
        doc: UniformID, the OS-independent function id.
      - id: convention
        type: s1
        valid:
          min: 0
          max: 5
        doc: Convention, 0..5 (UMT-SYSCALL-FIELDS).
      - id: completed
        type: u1
        valid:
          max: 1
        doc: Completed, 0 or 1 (UMT-SYSCALL-FIELDS, UMT-SYSCALL-COMPLETED, UMT-RECORD-SYSCALL-COMPLETED).
      - id: num_args
        type: s1
        valid:
          min: 0
        doc: ArgCount, not negative (UMT-SYSCALL-FIELDS, UMT-SYSCALL-ARGS-IN-BLOCK).
      - id: num_extras
        type: s1
        valid:
          min: 0
        doc: ExtraCount, not negative (UMT-SYSCALL-FIELDS, UMT-SYSCALL-EXTRAS-IN-BLOCK).
      - id: begin_eid
        type: s8
        doc: BeginEID, the system call entry record (UMT-SYSCALL-BEGIN-EID, UMT-SYSCALL-END-ORDER).
      - id: end_eid
        type: s8
        valid:
          expr: _ != -1 or completed == 0
        doc: |
          EndEID, the exit or skipped-exit record (UMT-SYSCALL-END-EID,
          UMT-SYSCALL-END-ORDER), or -1, and then Completed is 0 (UMT-SYSCALL-COMPLETED).
      - id: before_sp
        type: u8
        doc: The stack pointer before the call (UMT-SYSCALL-VALUES-32BIT).
      - id: result
        type: u8
        doc: The return value, meaningful when Completed is 1 (UMT-SYSCALL-VALUES-32BIT).
      - id: args_fp
        type: s8
        valid:
          expr: num_args == 0 or (_ >= 64 and _ + 8 * num_args <= _io.size)
        doc: Offset in the block of ArgCount 8-byte arguments, inside [64, Size) when ArgCount > 0 (UMT-SYSCALL-ARGS-IN-BLOCK).
      - id: extras_fp
        type: s8
        valid:
          expr: num_extras == 0 or (_ >= 64 and _ < _io.size)
        doc: Offset in the block of the extras, inside [64, Size) when ExtraCount > 0 (UMT-SYSCALL-EXTRAS-IN-BLOCK).
      - id: reserved
        size: 8
        doc: Unused (the syscallRec is 64 bytes).
      - id: data
        size-eos: true
        doc: The arguments and extras the pointers reach.
    instances:
      args:
        pos: args_fp
        if: num_args > 0
        type: u8
        repeat: expr
        repeat-expr: num_args
        doc: The arguments, zero-extended in 32-bit calls (UMT-SYSCALL-ARGS-IN-BLOCK, UMT-SYSCALL-VALUES-32BIT).
