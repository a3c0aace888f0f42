meta:
  id: exec_vtable
  title: UMTracer execution records (exec.vtable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file exec.vtable (rule catalog: specs/umtrace.md): a
  16-byte header, then the execution records, back to back. Little-endian.
  The records have no length of their own: record i is the bytes
  [Offset[i], Offset[i+1]) of this file, the offsets being held in the other
  member file exec.offsets (grammar exec_offsets.ksy). Kaitai reads one file
  at a time, so this grammar reads the record area as one block; a reader cuts
  it with the offsets and parses each piece with the type exec_rec below
  (the piece is its whole stream). The exec.offsets grammar checks where the
  records lie (UMT-EXEC-FIRST-OFFSET, UMT-EXEC-OFFSETS-ORDER,
  UMT-EXEC-END-OFFSET); exec_rec checks what one record shows by itself
  (UMT-RECORD-SIZE-MIN, UMT-RECORD-TYPE, UMT-RECORD-SIZE, UMT-CONTEXT-MEM-COUNT,
  UMT-CONTEXT-MEM-IN-RECORD, UMT-CONTEXT-MEM-ADDR32). What needs another file or
  other records is the validator's: ThreadID (UMT-RECORD-THREAD), InsID and the
  record size from the decodedIns (UMT-INS-RECORD-ID, -MODE, -SIZE), the
  register buffer's DumpSize (UMT-CONTEXT-REGS-IN-RECORD), SyscallIDs
  (UMT-RECORD-SYSCALL-*), the thread chains (UMT-THREAD-BEGIN-FIRST,
  UMT-THREAD-END-LAST, UMT-APP-END-LAST, UMT-LINK-PREV, UMT-LINK-NEXT) and the
  warnings on flags.
seq:
  - id: header
    type: exec_header
    doc: The 16-byte header; a shorter file fails here (UMT-EXEC-HEADER-SIZE).
  - id: records
    size-eos: true
    doc: |
      The execution records and any bytes before Offset[0] or after
      Offset[RecordCount] (UMT-EXEC-GAP-AFTER-HEADER, UMT-EXEC-TRAILING-BYTES,
      both warnings); cut by exec.offsets.
types:
  exec_header:
    doc: The exec.vtable header (UMT-EXEC-HEADER-SIZE).
    seq:
      - id: version
        type: u4
        valid:
          max: 1
        doc: Version, 0 or 1; version 1 gives flag 0x80 its "process aborted" meaning (UMT-EXEC-VERSION, UMT-RECORD-ABORT-FLAG).
      - id: reserved
        size: 4
        doc: Unused.
      - id: num_records
        type: s8
        valid:
          min: 0
        doc: |
          RecordCount, not negative (UMT-EXEC-RECORD-COUNT); exec.offsets holds
          RecordCount + 1 offsets and exec.prev_next.column RecordCount pairs
          (UMT-EXEC-OFFSETS-SIZE, UMT-EXEC-LINKS-SIZE: parameters of their grammars).
  exec_rec:
    doc: |
      One execution record, parsed from its own slice [Offset[i], Offset[i+1])
      (UMT-RECORD-SIZE-MIN, UMT-RECORD-SIZE). Not reached from the top level.
    seq:
      - id: thread_id
        type: s4
        doc: ThreadID, a row of thread.itable (UMT-RECORD-THREAD).
      - id: type
        type: u1
        enum: record_type
        valid:
          in-enum: true
        doc: Type, 0..6 or 8..11 (UMT-RECORD-TYPE).
      - id: flags
        type: u1
        doc: |
          Flags: 0x01 64-bit code (UMT-INS-RECORD-MODE, UMT-RECORD-BITNESS),
          0x04..0x80 only on instruction records (UMT-RECORD-FLAGS), 0x08 rep
          first iteration (UMT-RECORD-REP-FLAG), 0x80 aborted (UMT-RECORD-ABORT-FLAG).
      - id: body
        size-eos: true
        type:
          switch-on: type
          cases:
            'record_type::instruction': ins_body
            'record_type::thread_begin': rm_context(flags & 1 == 1)
            'record_type::thread_end': exit_body
            'record_type::app_end': exit_body
            'record_type::syscall_entry': syscall_context(flags & 1 == 1)
            'record_type::syscall_exit': syscall_context(flags & 1 == 1)
            'record_type::syscall_skipped_exit': syscall_only
            'record_type::context_apc': rm_context(flags & 1 == 1)
            'record_type::context_exception': rm_context(flags & 1 == 1)
            'record_type::context_callback': rm_context(flags & 1 == 1)
            'record_type::context_other': rm_context(flags & 1 == 1)
        doc: |
          The type's fields: a record too short for them fails
          (UMT-RECORD-SIZE-MIN, UMT-RECORD-SIZE; an instruction record's exact
          size, 14 + LCSize of its decodedIns in ins.itable, is UMT-INS-RECORD-SIZE,
          outside the grammar).
  ins_body:
    seq:
      - id: ins_id
        type: s8
        doc: InsID, a row of ins.itable (UMT-INS-RECORD-ID).
      - id: oper_vals
        size-eos: true
        doc: The operand values, LCSize bytes of the instruction's decodedIns (UMT-INS-RECORD-SIZE, UMT-SLOT-*).
  exit_body:
    seq:
      - id: exit_code
        type: s4
        doc: The exit code (UMT-RECORD-SIZE).
      - id: tail
        size-eos: true
        valid:
          expr: _.length == 0
        doc: Nothing follows, a thread or application end record being exactly 10 bytes (UMT-RECORD-SIZE).
  syscall_only:
    seq:
      - id: syscall_id
        type: s8
        doc: SyscallID, a syscall record (UMT-RECORD-SYSCALL-ID, UMT-RECORD-SYSCALL-EXIT).
      - id: tail
        size-eos: true
        valid:
          expr: _.length == 0
        doc: Nothing follows, a skipped exit record being exactly 14 bytes (UMT-RECORD-SIZE).
  syscall_context:
    params:
      - id: is_64
        type: bool
        doc: Flag 0x01 of the record, 64-bit code (UMT-CONTEXT-MEM-ADDR32).
    seq:
      - id: syscall_id
        type: s8
        doc: SyscallID, a syscall record, or -1 for an exit (UMT-RECORD-SYSCALL-ID, UMT-RECORD-SYSCALL-ENTRY, UMT-RECORD-SYSCALL-EXIT).
      - id: context
        type: rm_context(is_64)
        size-eos: true
        doc: The register and memory context (UMT-RECORD-SIZE).
  rm_context:
    doc: |
      A register and memory context, to the end of its record; its file
      pointers count from its own first byte. At least 16 bytes (UMT-RECORD-SIZE).
    params:
      - id: is_64
        type: bool
        doc: Flag 0x01 of the record, 64-bit code (UMT-CONTEXT-MEM-ADDR32).
    seq:
      - id: num_mem
        type: s4
        valid:
          min: 0
        doc: MemCount, not negative (UMT-CONTEXT-MEM-COUNT).
      - id: reserved
        size: 4
        doc: Unused.
      - id: regs_fp
        type: s8
        doc: |
          Offset of the register buffer, DumpSize bytes (a field of
          context_map.itable, so UMT-CONTEXT-REGS-IN-RECORD is outside the grammar).
      - id: mem
        type: context_mem
        repeat: expr
        repeat-expr: num_mem
        doc: The memory references; a record too short for MemCount of them fails here (UMT-CONTEXT-MEM-COUNT).
      - id: data
        size-eos: true
        doc: The register buffer and memory data the pointers reach.
  context_mem:
    seq:
      - id: address
        type: u8
        valid:
          expr: _parent.is_64 or _ < 0x100000000
        doc: The dump's address, below 2^32 in 32-bit records (UMT-CONTEXT-MEM-ADDR32; UMT-CONTEXT-TIB outside the grammar).
      - id: len_data
        type: s8
        valid:
          min: 0
        doc: Size of the dump, not negative (UMT-CONTEXT-MEM-IN-RECORD).
      - id: data_fp
        type: s8
        valid:
          expr: _ >= 16 + 24 * _parent.num_mem and _ <= _parent._io.size - len_data
        doc: |
          Offset of the dump from the context's first byte: the dump lies in the
          record, after the contextMem array (UMT-CONTEXT-MEM-IN-RECORD).
enums:
  record_type:
    0: instruction
    1: thread_begin
    2: thread_end
    3: app_end
    4: syscall_entry
    5: syscall_exit
    6: syscall_skipped_exit
    8: context_apc
    9: context_exception
    10: context_callback
    11: context_other
