meta:
  id: ins_itable
  title: UMTracer instruction table (ins.itable)
  license: CC0-1.0
  ks-version: '0.11'
  endian: le
doc: |
  The UMTracer member file ins.itable (rule catalog: specs/umtrace.md):
  a table header, then RowCount rows of RowSize bytes at TableFP, inside the
  file. Little-endian. The extra area (disassembly strings, decoded
  instructions), inside this file, is reached through each row's offsets:
  the instances disasm and decoded of a row read them, as far as their
  pointers and sizes go (the decodedIns contents are the validator's:
  UMT-DECODED-*, UMT-OPERAND-*, UMT-SLOT-*).
  Cross-table rules are outside the grammar (see grammars/README.md).
seq:
  - id: header
    type: table_header
    doc: The table header.
  - id: gap
    size: header.table_fp - 48
    doc: Bytes between the header and the rows (the extra area may lie here).
  - id: rows
    type: ins_rec(_index)
    size: header.len_row
    repeat: expr
    repeat-expr: header.num_rows
    doc: The insRec rows, inside the file (UMT-TABLE-ROWS-IN-FILE).
  - id: rest
    size-eos: true
    doc: The extra area or trailing bytes (UMT-TABLE-EXTRA-OVERLAP, UMT-TABLE-TRAILING-BYTES).
types:
  table_header:
    doc: The 48-byte table header (UMT-TABLE-HEADER-SIZE).
    seq:
      - id: header_ver
        type: u4
        valid: 0
        doc: HeaderVer, 0 (UMT-TABLE-HEADER-VERSION).
      - id: record_ver
        type: u4
        valid:
          max: 1
        doc: RecordVer, 0..1 (UMT-TABLE-RECORD-VERSION).
      - id: num_rows
        type: s8
        valid:
          min: 0
        doc: RowCount, not negative (UMT-TABLE-ROW-COUNT).
      - id: len_row
        type: s8
        valid: 64
        doc: RowSize, the size of one row (UMT-TABLE-ROW-SIZE).
      - id: table_fp
        type: s8
        valid:
          min: 48
        doc: TableFP, at or after the header (UMT-TABLE-ROWS-OFFSET).
      - id: extra_fp
        type: s8
        valid:
          min: 0
        doc: File offset of the extra area (strings, decoded instructions), not negative (UMT-TABLE-EXTRA-IN-FILE).
      - id: extra_size
        type: s8
        valid:
          expr: |
            _ >= 0 and _ <= _io.size - extra_fp and
              (_ == 0 or (extra_fp >= 48 and
                (extra_fp >= table_fp + num_rows * len_row or extra_fp + _ <= table_fp)))
        doc: |
          Byte count of the extra area, not negative and inside the file
          (UMT-TABLE-EXTRA-IN-FILE), overlapping neither the header nor the rows
          (UMT-TABLE-EXTRA-OVERLAP).
  ins_rec:
    params:
      - id: index
        type: s8
        doc: The row's index.
    seq:
      - id: id
        type: s8
        valid:
          expr: _ == index
        doc: ID, its own row index (UMT-INS-ID).
      - id: type
        type: u1
        valid:
          any-of: [0, 1, 2, 3, 4, 5, 6, 8, 9]
        doc: Instruction type, 0..6, 8 or 9 (UMT-INS-TYPE).
      - id: cs_is_64_bits
        type: u1
        valid:
          any-of: [0, 1]
        doc: 1 for 64-bit code, 0 for 32-bit (UMT-INS-MODE, UMT-INS-ADDR32).
      - id: code_size
        type: u1
        valid:
          min: 1
          max: 15
        doc: Number of code bytes, 1..15 (UMT-INS-CODE-SIZE).
      - id: reserved1
        size: 1
        doc: Unused.
      - id: module_id
        type: s4
        doc: A row of module.itable or -1 (UMT-INS-MODULE).
      - id: address
        type: u8
        valid:
          expr: cs_is_64_bits == 1 or _ < 0x100000000
        doc: Code address, below 2^32 for 32-bit code (UMT-INS-IN-MODULE, UMT-INS-ADDR32).
      - id: code_bytes
        size: 15
        doc: The instruction's bytes, CodeSize of them used.
      - id: reserved2
        size: 1
        doc: Unused.
      - id: disasm_fp
        type: s8
        valid:
          expr: _ >= 0 and _ < _root.header.extra_size
        doc: |
          Offset in the extra area of the disassembly, a length-prefixed string;
          inside the area (UMT-INS-DISASM-POINTER).
      - id: decoded_fp
        type: s8
        valid:
          expr: _ >= 0 and _ <= _root.header.extra_size - 88
        doc: |
          Offset in the extra area of the decoded instruction, whose 88-byte
          fixed part lies inside the area (UMT-INS-DECODED-POINTER).
      - id: reserved3
        size: 8
        doc: Unused.
    instances:
      disasm:
        io: _root._io
        pos: _root.header.extra_fp + disasm_fp
        type: cstr(_root.header.extra_fp + _root.header.extra_size)
        doc: The disassembly (UMT-STRING-IN-AREA, UMT-STRING-LENGTH, UMT-STRING-TERMINATOR).
      decoded:
        io: _root._io
        pos: _root.header.extra_fp + decoded_fp
        type: decoded_ins(_root.header.extra_fp + decoded_fp, _root.header.extra_fp + _root.header.extra_size)
        doc: The decoded instruction (UMT-INS-DECODED-POINTER).
  cstr:
    doc: A string of 8-bit units, its length first and a NUL after it.
    params:
      - id: area_end
        type: s8
        doc: The file offset where the extra area ends (UMT-STRING-IN-AREA).
    seq:
      - id: len_text
        type: s2
        valid:
          expr: _io.pos <= area_end and _ >= 0 and _io.pos + _ + 1 <= area_end
        doc: |
          Length, in the area (UMT-STRING-IN-AREA), not negative
          (UMT-STRING-LENGTH), the text and its NUL in the area too (UMT-STRING-IN-AREA).
      - id: text
        size: len_text
        doc: The text; a NUL inside it is the warning UMT-STRING-EARLY-NUL.
      - id: nul
        type: u1
        valid: 0
        doc: The NUL after the text (UMT-STRING-TERMINATOR).
  decoded_ins:
    doc: |
      The decodedIns: an 88-byte fixed part and LCCount 12-byte lcSlots, all
      inside the extra area (UMT-INS-DECODED-POINTER). The rules that relate
      an operand or a slot to other slots, to the context map or to the
      records (UMT-OPERAND-BEFORE-SLOT and the other UMT-OPERAND-* rules but
      UMT-OPERAND-FLAGS, UMT-SLOT-COMMON-REGISTER, -REGISTER, -ADDRESS-VALUE,
      UMT-DECODED-PHRASE-BEFORE, -PHRASE-UNUSED) are the validator's; so are
      the warnings UMT-DECODED-SIZES-32BIT, -FLAGS-MODE and UMT-SLOT-ADDR-WIDTH-VALUE.
    params:
      - id: start
        type: s8
        doc: Its file offset.
      - id: area_end
        type: s8
        doc: The file offset where the extra area ends (UMT-INS-DECODED-POINTER).
    seq:
      - id: category
        type: s2
        doc: The instruction category (XED).
      - id: mnemonic
        type: s2
        doc: The mnemonic (XED iclass).
      - id: form
        type: s2
        doc: The instruction form (XED iform).
      - id: flags
        type: u1
        valid:
          expr: (_ & 0xc0) == 0
        doc: Flags, no bit outside 0x3f (UMT-DECODED-FLAGS; UMT-DECODED-FLAGS-MODE and UMT-RECORD-REP-FLAG outside the grammar).
      - id: num_exp_opers
        type: u1
        valid:
          max: 4
        doc: ExpCount, at most 4 (UMT-DECODED-OPERAND-COUNT).
      - id: exp_opers
        type: exp_oper(_index < num_exp_opers)
        repeat: expr
        repeat-expr: 4
        doc: The explicit operands, ExpCount of them used (UMT-OPERAND-*).
      - id: eff_oper_size
        type: u1
        valid:
          any-of: [2, 4, 8]
        doc: EffOperSize, 2, 4 or 8 (UMT-DECODED-SIZES; UMT-DECODED-SIZES-32BIT outside the grammar).
      - id: eff_addr_size
        type: u1
        valid:
          any-of: [2, 4, 8]
        doc: EffAddrSize, 2, 4 or 8 (UMT-DECODED-SIZES; UMT-DECODED-SIZES-32BIT outside the grammar).
      - id: len_lc
        type: s2
        valid:
          min: 0
        doc: LCSize, the operand value bytes of an instruction record, not negative (UMT-DECODED-SLOTS-SIZE, UMT-INS-RECORD-SIZE).
      - id: first_out_slot
        type: u1
        doc: FirstOutSlot, not above FirstAfterSlot (UMT-DECODED-SLOT-GROUPS).
      - id: first_after_slot
        type: u1
        valid:
          expr: first_out_slot <= _
        doc: FirstAfterSlot, not below FirstOutSlot (UMT-DECODED-SLOT-GROUPS).
      - id: num_lc_slots
        type: u1
        valid:
          expr: start + 88 + 12 * _ <= area_end and first_after_slot <= _ and _ <= 253
        doc: |
          LCCount: its lcSlots end inside the extra area (UMT-INS-DECODED-POINTER);
          not below FirstAfterSlot, at most 253 (UMT-DECODED-SLOT-GROUPS).
      - id: mem0_seg_slot
        type: u1
        valid:
          expr: _ < num_lc_slots or _ >= 0xfd
        doc: Mem0SegSlot, a slot or 0xfd..0xff (UMT-DECODED-PHRASE-SLOT).
      - id: mem0_base_slot
        type: u1
        valid:
          expr: _ < num_lc_slots or _ >= 0xfd
        doc: Mem0BaseSlot, a slot or 0xfd..0xff (UMT-DECODED-PHRASE-SLOT).
      - id: mem0_scale
        type: u1
        doc: Mem0Scale, 0, 1, 2, 4 or 8 (UMT-DECODED-SCALE, checked with Mem0IndexSlot).
      - id: mem0_index_slot
        type: u1
        valid:
          expr: |
            (_ < num_lc_slots or _ >= 0xfd) and
              (mem0_scale == 0 or mem0_scale == 1 or mem0_scale == 2 or mem0_scale == 4 or mem0_scale == 8) and
              ((mem0_scale == 0) == (_ == 0xff))
        doc: |
          Mem0IndexSlot, a slot or 0xfd..0xff (UMT-DECODED-PHRASE-SLOT); 0xff
          (none) exactly when Mem0Scale is 0, and Mem0Scale 0, 1, 2, 4 or 8
          (UMT-DECODED-SCALE).
      - id: mem1_base_slot
        type: u1
        valid:
          expr: _ < num_lc_slots or _ >= 0xfd
        doc: Mem1BaseSlot, at offset 67, a slot or 0xfd..0xff (UMT-DECODED-PHRASE-SLOT).
      - id: reserved
        size: 4
        doc: Unused.
      - id: const_slots
        type: s8
        repeat: expr
        repeat-expr: 2
        doc: The constants of the slots 0xfd and 0xfe (UMT-OPERAND-CONSTANT-REGISTER).
      - id: lc_slots
        type: lc_slot
        repeat: expr
        repeat-expr: num_lc_slots
        doc: The lcSlots (UMT-SLOT-*).
  exp_oper:
    params:
      - id: is_used
        type: bool
        doc: Whether the operand is one of the ExpCount used.
    seq:
      - id: reg_name
        type: u2
        doc: The register (UMT-OPERAND-SLOT-KIND, UMT-OPERAND-CONSTANT-REGISTER).
      - id: len_value
        type: s2
        doc: The operand size (UMT-OPERAND-IN-SLOT).
      - id: flags
        type: u1
        valid:
          expr: not is_used or (_ >= 1 and _ <= 3)
        doc: Flags of a used operand, 1 (read), 2 (written) or 3 (UMT-OPERAND-FLAGS).
      - id: before_slot
        type: u1
        doc: Slot of the value before execution (UMT-OPERAND-BEFORE-SLOT, UMT-OPERAND-SLOT-GROUP).
      - id: after_slot
        type: u1
        doc: Slot of the value after execution (UMT-OPERAND-AFTER-SLOT, UMT-OPERAND-SLOT-GROUP).
      - id: before_offset
        type: u1
        doc: Offset in the before slot (UMT-OPERAND-IN-SLOT, UMT-OPERAND-MEMORY-OFFSET, UMT-OPERAND-REGISTER-OFFSET).
      - id: after_offset
        type: u1
        doc: Offset in the after slot (UMT-OPERAND-IN-SLOT, UMT-OPERAND-MEMORY-OFFSET, UMT-OPERAND-REGISTER-OFFSET).
      - id: reserved
        size: 3
        doc: Unused.
  lc_slot:
    seq:
      - id: reg_name
        type: u2
        doc: The register, MEM0, MEM1 or AGEN (UMT-SLOT-REGISTER).
      - id: common_reg_name
        type: u2
        doc: The context map's CommonName of RegName (UMT-SLOT-COMMON-REGISTER).
      - id: len_value
        type: s2
        doc: ValueSize, not negative (UMT-SLOT-SIZE).
      - id: ofs_value
        type: s2
        valid:
          expr: len_value >= 0 and _ >= 0
        doc: Offset of the slot in the operand values, ValueSize and Offset not negative (UMT-SLOT-SIZE).
      - id: addr_width
        type: u1
        valid:
          expr: '_ <= 8 and ofs_value + (_ != 0 ? 8 : 0) + len_value <= _parent.len_lc'
        doc: |
          AddrWidth, at most 8 (UMT-SLOT-ADDR-WIDTH; 0, 2, 4 or 8 is the warning
          UMT-SLOT-ADDR-WIDTH-VALUE); the slot, its 8 address bytes when
          AddrWidth is not 0, then ValueSize, ends within LCSize (UMT-SLOT-IN-RECORD).
      - id: reserved
        size: 3
        doc: Unused.
