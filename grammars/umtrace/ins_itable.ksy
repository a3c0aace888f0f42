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
      inside the extra area (UMT-INS-DECODED-POINTER). Its fields are
      constrained by the validator (UMT-DECODED-*, UMT-OPERAND-*, UMT-SLOT-*).
    params:
      - id: start
        type: s8
        doc: Its file offset.
      - id: area_end
        type: s8
        doc: The file offset where the extra area ends (UMT-INS-DECODED-POINTER).
    seq:
      - id: head
        size: 62
        doc: |
          Category, mnemonic, form, flags, explicit operands and sizes
          (UMT-DECODED-OPERAND-COUNT, UMT-DECODED-SIZES, UMT-DECODED-FLAGS,
          UMT-OPERAND-*: see umtrace.yaml for the fields).
      - id: num_lc_slots
        type: u1
        valid:
          expr: start + 88 + 12 * _ <= area_end
        doc: LCCount; its lcSlots end inside the extra area (UMT-INS-DECODED-POINTER).
      - id: phrase
        size: 25
        doc: The memory phrase slots and constant slots (UMT-DECODED-PHRASE-*, UMT-DECODED-SCALE).
      - id: lc_slots
        size: 12
        repeat: expr
        repeat-expr: num_lc_slots
        doc: The lcSlots (UMT-SLOT-*).
